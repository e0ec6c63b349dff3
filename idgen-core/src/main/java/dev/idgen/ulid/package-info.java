/**
 * ULIDs (https://github.com/ulid/spec): 128 bits, a 48-bit Unix millisecond timestamp and 80 random
 * bits, written as 26 Crockford base32 characters. {@link dev.idgen.ulid.Ulids} reads and writes
 * them and gives the bounds of a millisecond for range queries; {@link dev.idgen.ulid.UlidGenerator}
 * makes monotonic ones. A ULID is held as a {@link java.util.UUID}, whose unsigned byte order is the
 * ULID's order.
 */
package dev.idgen.ulid;
