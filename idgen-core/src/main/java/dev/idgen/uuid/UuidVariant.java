package dev.idgen.uuid;

/**
 * The variant field of a UUID: the top bits of octet 8, which say how the other bits are laid out
 * (RFC 9562 §4.1, Table 1).
 */
public enum UuidVariant {
    /** {@code 0xxx}: reserved, NCS backward compatibility. The Nil UUID has these bits. */
    NCS,
    /** {@code 10xx}: the variant RFC 9562 (and RFC 4122 before it) defines; versions 1 to 8 live here. */
    RFC_9562,
    /** {@code 110x}: reserved, Microsoft backward compatibility. */
    MICROSOFT,
    /** {@code 111x}: reserved for future definition. The Max UUID has these bits. */
    FUTURE;

    /**
     * Reads the variant of a UUID from its least significant half.
     *
     * @param leastSignificantBits bits 64 to 127 of the UUID
     * @return its variant
     */
    public static UuidVariant of(long leastSignificantBits) {
        int top3 = (int) (leastSignificantBits >>> 61);
        if (top3 < 0b100) {
            return NCS;
        }
        if (top3 < 0b110) {
            return RFC_9562;
        }
        return top3 == 0b110 ? MICROSOFT : FUTURE;
    }
}
