package dev.idgen.text;

import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * Crockford's base32 (https://www.crockford.com/base32.html) for IDs of fixed width: a {@code long}
 * as 13 characters (the TSID text form) and a 128-bit value as 26 characters (the ULID text form).
 *
 * <p>The alphabet {@code 0123456789ABCDEFGHJKMNPQRSTVWXYZ} is in ASCII order and the width is fixed,
 * so the text sorts as the IDs do: 13-character texts in the unsigned order of their longs (the
 * numeric order for the non-negative IDs Snowflake and TSID make), 26-character texts in the unsigned
 * byte order of their UUIDs ({@code Uuids.unsignedOrder()}).
 *
 * <p>Output is upper case. Input is read strictly: exactly 13 or 26 characters, no hyphens, no
 * spaces; lower case is accepted, and so are the look-alikes Crockford's decoding allows ({@code I}
 * and {@code L} read as 1, {@code O} as 0, in either case); {@code U} is refused. A text that encodes
 * more bits than the ID has is refused, not wrapped: the first of 13 characters is at most {@code F}
 * (4 bits), the first of 26 at most {@code 7} (3 bits), as the ULID specification requires.
 */
public final class Crockford {

    /** The 32 digits, in ASCII (and value) order. */
    public static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    /** Characters of a {@code long}: 4 + 12 * 5 = 64 bits. */
    public static final int LONG_LENGTH = 13;

    /** Characters of a 128-bit value: 3 + 25 * 5 = 128 bits. */
    public static final int UUID_LENGTH = 26;

    /** What a 13-character text is, for messages. */
    static final String LONG_FORM = "13 Crockford base32 characters (0-9, A-Z without U; I and L read as 1,"
            + " O as 0; any case), the first at most F";

    /** What a 26-character text is, for messages. */
    static final String UUID_FORM = "26 Crockford base32 characters (0-9, A-Z without U; I and L read as 1,"
            + " O as 0; any case), the first at most 7";

    private static final char[] DIGITS = ALPHABET.toCharArray();
    private static final byte[] VALUE = new byte[128];

    static {
        Arrays.fill(VALUE, (byte) -1);
        for (int i = 0; i < DIGITS.length; i++) {
            VALUE[DIGITS[i]] = (byte) i;
            VALUE[Character.toLowerCase(DIGITS[i])] = (byte) i;
        }
        VALUE['I'] = 1;
        VALUE['i'] = 1;
        VALUE['L'] = 1;
        VALUE['l'] = 1;
        VALUE['O'] = 0;
        VALUE['o'] = 0;
    }

    private Crockford() {
    }

    /**
     * The value of one character, or -1 if it is not a Crockford digit (aliases included).
     *
     * @param c a character
     * @return 0 to 31, or -1
     */
    public static int digit(char c) {
        return c < 128 ? VALUE[c] : -1;
    }

    /**
     * A {@code long} as 13 characters, read unsigned: {@code 0000000000000} to {@code FZZZZZZZZZZZZ}.
     *
     * @param value the bits
     * @return 13 upper-case characters
     */
    public static String toString(long value) {
        char[] out = new char[LONG_LENGTH];
        out[0] = DIGITS[(int) (value >>> 60)];
        for (int i = 1; i < LONG_LENGTH; i++) {
            out[i] = DIGITS[(int) (value >>> (60 - 5 * i)) & 31];
        }
        return new String(out);
    }

    /**
     * Reads 13 characters back into a {@code long} (the inverse of {@link #toString(long)}).
     *
     * @param text exactly 13 characters
     * @return the bits
     * @throws IllegalArgumentException if the text is not 13 Crockford digits or its first digit is
     *     above F; the message quotes it and names what is expected
     * @throws NullPointerException if {@code text} is null
     */
    public static long parseLong(CharSequence text) {
        String problem = problem(text, LONG_LENGTH, 15);
        if (problem != null) {
            throw new IllegalArgumentException("not a 13-character Crockford base32 value: " + Quote.of(text)
                    + " (" + problem + "); expected " + LONG_FORM);
        }
        long value = 0;
        for (int i = 0; i < LONG_LENGTH; i++) {
            value = value << 5 | digit(text.charAt(i));
        }
        return value;
    }

    /**
     * A 128-bit value as 26 characters: {@code 00000000000000000000000000} to
     * {@code 7ZZZZZZZZZZZZZZZZZZZZZZZZZ}.
     *
     * @param value the bits, most significant in {@link UUID#getMostSignificantBits()}
     * @return 26 upper-case characters
     */
    public static String toString(UUID value) {
        long high = value.getMostSignificantBits();
        long low = value.getLeastSignificantBits();
        char[] out = new char[UUID_LENGTH];
        // Character i holds bits 127 - (3 + 5 * (i - 1)) down to ...: take them from the right end.
        for (int i = UUID_LENGTH - 1; i >= 0; i--) {
            out[i] = DIGITS[(int) low & 31];
            low = low >>> 5 | high << 59;
            high >>>= 5;
        }
        return new String(out);
    }

    /**
     * Reads 26 characters back into a 128-bit value (the inverse of {@link #toString(UUID)}).
     *
     * @param text exactly 26 characters
     * @return the bits as a {@link UUID} (any version; a ULID is not an RFC 9562 UUID)
     * @throws IllegalArgumentException if the text is not 26 Crockford digits or its first digit is
     *     above 7 (more than 128 bits); the message quotes it and names what is expected
     * @throws NullPointerException if {@code text} is null
     */
    public static UUID parseUuid(CharSequence text) {
        String problem = problem(text, UUID_LENGTH, 7);
        if (problem != null) {
            throw new IllegalArgumentException("not a 26-character Crockford base32 value: " + Quote.of(text)
                    + " (" + problem + "); expected " + UUID_FORM);
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < UUID_LENGTH; i++) {
            high = high << 5 | low >>> 59;
            low = low << 5 | digit(text.charAt(i));
        }
        return new UUID(high, low);
    }

    /**
     * What is wrong with a text as {@code length} Crockford digits whose first is at most
     * {@code maxFirst}, or null if nothing is.
     *
     * @param text the text
     * @param length the number of characters expected
     * @param maxFirst the largest value of the first character (fewer bits than 5 there)
     * @return the problem in a few words, or null
     * @throws NullPointerException if {@code text} is null
     */
    public static String problem(CharSequence text, int length, int maxFirst) {
        Objects.requireNonNull(text, "text");
        if (text.length() != length) {
            return text.length() + " characters";
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (digit(c) < 0) {
                return Quote.of(c) + " at index " + i + " is not a Crockford base32 digit";
            }
        }
        if (digit(text.charAt(0)) > maxFirst) {
            return "first character " + Quote.of(text.charAt(0)) + " is above " + DIGITS[maxFirst]
                    + ": the value would need more than " + (5 * (length - 1) + Integer.SIZE
                    - Integer.numberOfLeadingZeros(maxFirst)) + " bits";
        }
        return null;
    }
}
