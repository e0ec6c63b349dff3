/**
 * Hibernate ORM (and JPA) glue: {@link dev.idgen.hibernate.Snowflake @Snowflake} and
 * {@link dev.idgen.hibernate.UuidV7 @UuidV7} make entity ids, or plain columns, on INSERT;
 * {@link dev.idgen.hibernate.SegmentId @SegmentId} makes dense increasing numbers from a segment store.
 *
 * <pre>{@code
 * @Entity
 * class Order {
 *     @Id @Snowflake Long id;          // BIGINT
 *     @UuidV7 UUID publicId;           // uuid on PostgreSQL, BINARY(16) on MariaDB/MySQL
 * }
 * }</pre>
 *
 * <p>The generators come from an {@link dev.idgen.hibernate.EntityIds} given to Hibernate under
 * {@link dev.idgen.hibernate.EntityIds#SETTING} (the Spring Boot starter does this with its beans),
 * or else from one process-wide set configured by system properties or environment variables
 * ({@link dev.idgen.hibernate.EntityIds#fromEnvironment()}).
 */
package dev.idgen.hibernate;
