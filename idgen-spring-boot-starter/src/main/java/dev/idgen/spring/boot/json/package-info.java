/**
 * Snowflake ids in JSON (Jackson 3): {@link dev.idgen.spring.boot.json.JsonSnowflakeId @JsonSnowflakeId}
 * writes a {@code long} id as a string, because JavaScript and many JSON parsers read numbers as
 * doubles and lose digits above 2^53, and reads it back from a string or a number.
 */
package dev.idgen.spring.boot.json;
