package dev.idgen.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;
import org.hibernate.annotations.ValueGenerationType;

/**
 * A time-ordered UUIDv7 (RFC 9562) made by idgen when the entity is inserted, on an {@code @Id} or
 * on a plain column of type {@link java.util.UUID}.
 *
 * <p>Made once, on INSERT, from {@link EntityIds#uuidV7()}. UUIDv7 sorts by time only when the
 * column compares the 16 bytes in order: {@code uuid} on PostgreSQL and H2 does, and so does
 * {@code BINARY(16)} on MariaDB and MySQL (set {@code hibernate.type.preferred_uuid_jdbc_type=BINARY}
 * there). MariaDB's own {@code UUID} type (10.7+) reorders the groups of RFC-variant UUIDs before
 * comparing them; from 10.10.6 and 10.11.5 on it leaves versions 6 and later alone, before that it
 * scatters UUIDv7 over the index.
 *
 * <p>A field of another type fails when the session factory is built.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, METHOD})
@IdGeneratorType(UuidV7Generation.class)
@ValueGenerationType(generatedBy = UuidV7Generation.class)
public @interface UuidV7 {
}
