/**
 * Snowflake ids in JSON (Jackson 2, as Spring Boot 3 uses it):
 * {@link dev.idgen.spring.boot.json.JsonSnowflakeId @JsonSnowflakeId} writes one {@code long} id as a
 * string, because JavaScript and many JSON parsers read numbers as doubles and lose digits above
 * 2^53, and reads it back from a string or a number;
 * {@link dev.idgen.spring.boot.json.LargeNumbersAsStringsModule} does the same for every
 * {@code long} outside ±(2^53 − 1), switched on in Spring Boot with
 * {@code idgen.json.large-numbers-as-strings=true}.
 */
package dev.idgen.spring.boot.json;
