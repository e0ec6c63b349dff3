/**
 * One decoder for people debugging IDs: {@link dev.idgen.decode.IdDecoder} takes a string (a
 * Snowflake in decimal or hex, a UUID in any common form, a ULID, KSUID, TSID, MongoDB ObjectId or
 * xid), says what it is and what is inside as a {@link dev.idgen.decode.DecodedId} (a kind, a time
 * and named fields), and, where a string fits more than one format, which readings are plausible.
 */
package dev.idgen.decode;
