package dev.idgen.index.model;

import java.util.Objects;

/**
 * The primary-key column an {@link IndexModel} indexes: how keys compare and how many bytes each
 * one takes on a page.
 *
 * <p>Keys of every type are held as unsigned 64-bit words compared from the first word on, so one
 * comparison serves them all:
 * <ul>
 *   <li>{@link #BIGINT}: a signed {@code long}, stored with its sign bit flipped so that unsigned
 *       order is signed order; 8 bytes;</li>
 *   <li>{@link #BINARY16}: a UUID as an unsigned 128-bit number (RFC 9562 section 6.11: UUIDs sort
 *       as unsigned bytes), 16 bytes, as {@code BINARY(16)} or PostgreSQL {@code uuid};</li>
 *   <li>{@link #CHAR36}: the same UUID as 36 characters of lower-case canonical text. Hex digits
 *       and the hyphens at fixed places sort in the same order as the 128-bit value, so the
 *       keys compare as {@link #BINARY16} and only their size (36 bytes, one byte per character)
 *       differs;</li>
 *   <li>{@link #bytes(int)}: byte strings up to a maximum length, in unsigned lexicographic order
 *       (a prefix sorts first), each taking the maximum length on the page.</li>
 * </ul>
 *
 * @param name the column type, for reports, such as {@code "BIGINT"}
 * @param kind which values the keys are
 * @param storedBytes bytes one key takes on a page, 1 or more
 * @param words 64-bit words one key takes in the model's arrays
 */
public record KeyType(String name, Kind kind, int storedBytes, int words) {

    /** The values a key type holds. */
    public enum Kind {
        /** {@code long} keys: {@link IndexModel#insert(long)}. */
        LONG,
        /** 128-bit keys: {@link IndexModel#insert(java.util.UUID)}, {@link IndexModel#insert(long, long)}. */
        UINT128,
        /** byte strings: {@link IndexModel#insert(byte[])}. */
        BYTES
    }

    /** A {@code BIGINT} key: a Snowflake ID or an auto-increment counter. */
    public static final KeyType BIGINT = new KeyType("BIGINT", Kind.LONG, 8, 1);

    /** A UUID stored as 16 bytes: {@code BINARY(16)} in MySQL, {@code uuid} in PostgreSQL. */
    public static final KeyType BINARY16 = new KeyType("BINARY(16)", Kind.UINT128, 16, 2);

    /** A UUID stored as its 36-character text: {@code CHAR(36)} in a single-byte character set. */
    public static final KeyType CHAR36 = new KeyType("CHAR(36)", Kind.UINT128, 36, 2);

    /** The longest byte-string key {@link #bytes(int)} accepts. */
    public static final int MAX_BYTES = 1024;

    /**
     * Checks the key type.
     *
     * @param name the column type, for reports, such as {@code "BIGINT"}
     * @param kind which values the keys are
     * @param storedBytes bytes one key takes on a page, 1 or more
     * @param words 64-bit words one key takes in the model's arrays
     * @throws IllegalArgumentException if a size is out of range or does not match the kind
     */
    public KeyType {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        int expectedWords = switch (kind) {
            case LONG -> 1;
            case UINT128 -> 2;
            case BYTES -> bytesWords(storedBytes);
        };
        if (storedBytes < 1 || storedBytes > MAX_BYTES || words != expectedWords) {
            throw new IllegalArgumentException("key type " + name + ": " + storedBytes + " stored bytes in "
                    + words + " words does not fit kind " + kind + "; allowed 1.." + MAX_BYTES
                    + " bytes and " + expectedWords + " words");
        }
    }

    /**
     * Byte-string keys of at most {@code maxLength} bytes, each taking {@code maxLength} bytes on a
     * page (as {@code BINARY(n)}).
     *
     * @param maxLength the longest key, 1 to {@link #MAX_BYTES}
     * @return the key type
     * @throws IllegalArgumentException if {@code maxLength} is out of range
     */
    public static KeyType bytes(int maxLength) {
        if (maxLength < 1 || maxLength > MAX_BYTES) {
            throw new IllegalArgumentException("byte-string key length " + maxLength
                    + " is out of range; allowed 1.." + MAX_BYTES);
        }
        return new KeyType("BINARY(" + maxLength + ")", Kind.BYTES, maxLength, bytesWords(maxLength));
    }

    /** Words for a byte string: the bytes big-endian, zero-padded, then one word holding the length. */
    private static int bytesWords(int maxLength) {
        return (maxLength + 7) / 8 + 1;
    }

    @Override
    public String toString() {
        return name;
    }
}
