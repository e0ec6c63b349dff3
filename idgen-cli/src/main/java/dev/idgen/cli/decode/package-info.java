/**
 * What {@code idgen decode} prints about an ID, on top of core's {@link dev.idgen.decode.IdDecoder}:
 * field names as each ID's documentation uses them, relative times, and layout suggestions for a
 * Snowflake read with the wrong layout.
 */
package dev.idgen.cli.decode;
