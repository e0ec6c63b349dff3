/**
 * Snowflake ids in JSON (Jackson 3): {@link dev.idgen.spring.boot.json.JsonSnowflakeId @JsonSnowflakeId}
 * writes a {@code long} id as a string, because JavaScript and many JSON parsers read numbers as
 * doubles and lose digits above 2^53, and reads it back from a string or a number;
 * {@link dev.idgen.spring.boot.json.LargeNumbersAsStringsModule} does the same for every
 * {@code long} too large for a double, annotated or not, and the starter adds it to the
 * application's mapper with {@code idgen.json.large-numbers-as-strings=true}.
 */
package dev.idgen.spring.boot.json;
