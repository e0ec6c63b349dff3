/**
 * Spring Data JDBC: {@code @Snowflake} and {@code @UuidV7} values set on aggregates before they are
 * inserted ({@link dev.idgen.spring.boot.data.EntityIdCallback}), and its auto-configuration.
 */
package dev.idgen.spring.boot.data;
