/**
 * RFC 9562 UUIDs: the {@link dev.idgen.uuid.UuidV7Generator} (time-ordered, monotonic by default)
 * and {@link dev.idgen.uuid.UuidV4Generator} (random) generators, strict codecs and the unsigned
 * order in {@link dev.idgen.uuid.Uuids}, and {@link dev.idgen.uuid.UuidInfo}, what a UUID carries.
 */
package dev.idgen.uuid;
