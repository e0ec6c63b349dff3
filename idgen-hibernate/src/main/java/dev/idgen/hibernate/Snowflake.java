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
 * A Snowflake id made by idgen when the entity is inserted, on an {@code @Id} or on a plain column
 * of type {@code Long} or {@code long} (mapped to {@code BIGINT}, which keeps creation order in
 * the index).
 *
 * <p>The value is made once, on INSERT: for an {@code @Id} when the entity is persisted, for a plain
 * column when its row is written; an UPDATE never changes it. It comes from
 * {@link EntityIds#snowflake()} of the {@link EntityIds} in force (see {@link EntityIds#SETTING}).
 * When that generator's machine-id lease is lost, the persist (or flush) fails with
 * {@link dev.idgen.machine.MachineIdLostException} and nothing is written for that entity; roll the
 * transaction back.
 *
 * <p>A field of another type fails when the session factory is built.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, METHOD})
@IdGeneratorType(SnowflakeGeneration.class)
@ValueGenerationType(generatedBy = SnowflakeGeneration.class)
public @interface Snowflake {
}
