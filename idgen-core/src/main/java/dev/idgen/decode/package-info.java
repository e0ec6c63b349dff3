/**
 * One entry point for people debugging IDs: {@link dev.idgen.decode.IdDecoder} takes a string (a
 * UUID in any common form, or a decimal Snowflake) and says what it is and what is inside.
 */
package dev.idgen.decode;
