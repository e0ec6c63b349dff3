package dev.idgen.uuid;

import dev.idgen.random.RandomSource;
import dev.idgen.text.Quote;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.UUID;

/**
 * Strict text and byte codecs for UUIDs, their unsigned order, and {@link #decode(UUID)}.
 *
 * <p>{@link UUID#fromString(String)} is lenient: it takes {@code "1-1-1-1-1"} and silently drops
 * digits of an over-long last group. {@link #parse(CharSequence)} takes exactly the canonical
 * 36-character form of RFC 9562 §4 and nothing else, so a typo fails where it is made.
 * Output is lower case, as RFC 9562 asks; input may be any case.
 */
public final class Uuids {

    /** The Nil UUID, all 128 bits zero (RFC 9562 §5.9). */
    public static final UUID NIL = new UUID(0L, 0L);

    /** The Max UUID, all 128 bits one (RFC 9562 §5.10). */
    public static final UUID MAX = new UUID(-1L, -1L);

    /** What {@link #parse(CharSequence)} takes, for messages. */
    static final String CANONICAL_FORM = "the 36-character form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
            + " (hex digits 0-9, a-f or A-F, hyphens at positions 8, 13, 18 and 23)";

    /** What {@link #parseHex(CharSequence)} takes, for messages. */
    static final String HEX_FORM = "32 hex digits without hyphens (0-9, a-f or A-F)";

    private static final int CANONICAL_LENGTH = 36;
    private static final int HEX_LENGTH = 32;
    private static final int UUID_BYTES = 16;

    /** Value of each ASCII character as a hex digit, -1 if it is not one. */
    private static final byte[] HEX_VALUE = new byte[128];
    private static final byte[] HEX_DIGIT = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    static {
        java.util.Arrays.fill(HEX_VALUE, (byte) -1);
        for (int i = 0; i < 10; i++) {
            HEX_VALUE['0' + i] = (byte) i;
        }
        for (int i = 0; i < 6; i++) {
            HEX_VALUE['a' + i] = (byte) (10 + i);
            HEX_VALUE['A' + i] = (byte) (10 + i);
        }
    }

    private static final Comparator<UUID> UNSIGNED_ORDER = (a, b) -> {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high
                : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    };

    private Uuids() {
    }

    /**
     * Parses the canonical form {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, hex digits in any
     * case. Nothing else is taken: no missing or extra digits, no braces, no {@code urn:uuid:}, no
     * surrounding spaces, no sign.
     *
     * @param text the text
     * @return the UUID
     * @throws IllegalArgumentException if {@code text} is not in that form; the message quotes it
     *     (cut when long), says what is wrong and what form is expected
     * @throws NullPointerException if {@code text} is null
     */
    public static UUID parse(CharSequence text) {
        Objects.requireNonNull(text, "text");
        if (text.length() == CANONICAL_LENGTH && text.charAt(8) == '-' && text.charAt(13) == '-'
                && text.charAt(18) == '-' && text.charAt(23) == '-') {
            long a = hexDigits(text, 0, 8);
            long b = hexDigits(text, 9, 4);
            long c = hexDigits(text, 14, 4);
            long d = hexDigits(text, 19, 4);
            long e = hexDigits(text, 24, 12);
            if ((a | b | c | d | e) >= 0) {
                return new UUID(a << 32 | b << 16 | c, d << 48 | e);
            }
        }
        throw notCanonical(text);
    }

    /** Says exactly what is wrong with a string {@link #parse(CharSequence)} rejected. */
    private static IllegalArgumentException notCanonical(CharSequence text) {
        if (text.length() != CANONICAL_LENGTH) {
            return notA(text, text.length() + " characters", CANONICAL_FORM);
        }
        for (int i = 0; i < CANONICAL_LENGTH; i++) {
            char c = text.charAt(i);
            boolean hyphenPlace = i == 8 || i == 13 || i == 18 || i == 23;
            if (hyphenPlace && c != '-') {
                return notA(text, "expected '-' at index " + i + ", found " + Quote.of(c), CANONICAL_FORM);
            }
            if (!hyphenPlace && hexValue(c) < 0) {
                return notA(text, Quote.of(c) + " at index " + i + " is not a hex digit", CANONICAL_FORM);
            }
        }
        throw new AssertionError("parse rejected a canonical UUID: " + text);
    }

    /**
     * The value of {@code count} (at most 15) hex digits from {@code from}, or -1 if any of them is
     * not a hex digit: one check after the loop instead of one per character, so the common case
     * does not branch on each digit's validity.
     */
    private static long hexDigits(CharSequence text, int from, int count) {
        long value = 0;
        int invalid = 0;
        for (int i = from; i < from + count; i++) {
            int digit = hexValue(text.charAt(i));
            invalid |= digit;
            value = value << 4 | (digit & 0xF);
        }
        return invalid < 0 ? -1 : value;
    }

    /**
     * Parses the 32-hex-digit form without hyphens ({@code 017f22e279b07cc398c4dc0c0c07398f}), any
     * case, and nothing else.
     *
     * @param text the text
     * @return the UUID
     * @throws IllegalArgumentException if {@code text} is not exactly 32 hex digits; the message
     *     quotes it and says what is expected
     * @throws NullPointerException if {@code text} is null
     */
    public static UUID parseHex(CharSequence text) {
        Objects.requireNonNull(text, "text");
        if (text.length() != HEX_LENGTH) {
            throw notA(text, text.length() + " characters", HEX_FORM);
        }
        long a = hexDigits(text, 0, 8);
        long b = hexDigits(text, 8, 8);
        long c = hexDigits(text, 16, 8);
        long d = hexDigits(text, 24, 8);
        if ((a | b | c | d) >= 0) {
            return new UUID(a << 32 | b, c << 32 | d);
        }
        for (int i = 0;; i++) {
            if (hexValue(text.charAt(i)) < 0) {
                throw notA(text, Quote.of(text.charAt(i)) + " at index " + i + " is not a hex digit", HEX_FORM);
            }
        }
    }

    /**
     * The canonical form in lower case, {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}: the form RFC 9562
     * asks to emit, and what {@link #parse(CharSequence)} reads back.
     *
     * @param uuid the UUID
     * @return its 36 characters
     */
    public static String toString(UUID uuid) {
        // The JDK writes exactly this form, lower case, without an intermediate buffer; the tests pin it.
        return uuid.toString();
    }

    /**
     * The 32 lower-case hex digits without hyphens, what {@link #parseHex(CharSequence)} reads back.
     *
     * @param uuid the UUID
     * @return its 32 characters
     */
    public static String toHex(UUID uuid) {
        byte[] out = new byte[HEX_LENGTH];
        hex(uuid.getMostSignificantBits(), out, 0, 16);
        hex(uuid.getLeastSignificantBits(), out, 16, 16);
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /**
     * The 16 bytes of a UUID, most significant first: the order RFC 9562 §4 defines and the order a
     * {@code BINARY(16)} or {@code uuid} column stores and sorts.
     *
     * @param uuid the UUID
     * @return a new 16-byte array
     */
    public static byte[] toBytes(UUID uuid) {
        byte[] out = new byte[UUID_BYTES];
        putLong(out, 0, uuid.getMostSignificantBits());
        putLong(out, 8, uuid.getLeastSignificantBits());
        return out;
    }

    /**
     * The UUID whose 16 bytes, most significant first, these are (the inverse of
     * {@link #toBytes(UUID)}).
     *
     * @param bytes exactly 16 bytes
     * @return the UUID
     * @throws IllegalArgumentException if {@code bytes} is not 16 bytes long
     * @throws NullPointerException if {@code bytes} is null
     */
    public static UUID fromBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != UUID_BYTES) {
            throw new IllegalArgumentException("a UUID is 16 bytes, got " + bytes.length);
        }
        return new UUID(getLong(bytes, 0), getLong(bytes, 8));
    }

    /**
     * The smallest version 7 UUID of an instant's millisecond: {@code unix_ts_ms}, version 7,
     * variant {@code 10}, every other bit 0. With {@link #v7Max(Instant)}, for range queries on a
     * column of v7 UUIDs ({@code WHERE id BETWEEN v7Min(from) AND v7Max(to)}), in the unsigned
     * order databases use for {@code uuid} and {@code BINARY(16)}.
     *
     * @param instant an instant from 1970-01-01T00:00:00Z to the last of 2^48 - 1 ms; its
     *     sub-millisecond part is dropped
     * @return the smallest v7 UUID of that millisecond
     * @throws IllegalArgumentException if the instant is outside that range
     */
    public static UUID v7Min(Instant instant) {
        return new UUID(v7Millis(instant) << 16 | 0x7000L, V7_VARIANT);
    }

    /**
     * The largest version 7 UUID of an instant's millisecond: {@code unix_ts_ms}, version 7,
     * variant {@code 10}, every other bit 1. See {@link #v7Min(Instant)}.
     *
     * @param instant as for {@link #v7Min(Instant)}
     * @return the largest v7 UUID of that millisecond
     * @throws IllegalArgumentException if the instant is outside the range
     */
    public static UUID v7Max(Instant instant) {
        return new UUID(v7Millis(instant) << 16 | 0x7FFFL, V7_VARIANT | 0x3FFF_FFFF_FFFF_FFFFL);
    }

    /**
     * A version 7 UUID for a given instant, for back-filling rows with their own creation time:
     * the instant's millisecond and 74 random bits ({@code rand_a} and {@code rand_b}). Not part of
     * any generator's monotonic order; unique by chance, as a v4 is, over 74 bits per millisecond.
     *
     * @param instant as for {@link #v7Min(Instant)}
     * @param random the source of the 74 random bits
     * @return a new v7 UUID
     * @throws IllegalArgumentException if the instant is outside the range
     */
    public static UUID v7At(Instant instant, RandomSource random) {
        long millis = v7Millis(instant);
        Objects.requireNonNull(random, "random");
        return new UUID(millis << 16 | 0x7000L | random.nextLong() >>> 52, V7_VARIANT | random.nextLong() >>> 2);
    }

    private static final long V7_VARIANT = 0x8000_0000_0000_0000L;
    private static final Instant V7_LAST = Instant.ofEpochMilli((1L << 48) - 1).plusNanos(999_999);

    private static long v7Millis(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(V7_LAST)) {
            throw new IllegalArgumentException("instant " + instant + " is outside the range of a 48-bit unix_ts_ms: "
                    + Instant.EPOCH + " to " + V7_LAST);
        }
        return instant.toEpochMilli();
    }

    /**
     * Orders UUIDs as their 16 bytes compare unsigned, most significant first: the order of RFC 9562
     * §6.11, of {@link #toString(UUID)} text, and of a database's {@code uuid} or {@code BINARY(16)}
     * index. {@link UUID#compareTo(UUID)} compares signed halves instead, so there a UUID whose first
     * hex digit is 8 to f sorts before one starting 0 to 7 (the Max UUID before the Nil UUID).
     *
     * @return the comparator; consistent with {@link UUID#equals(Object)}
     */
    public static Comparator<UUID> unsignedOrder() {
        return UNSIGNED_ORDER;
    }

    /**
     * Takes a UUID apart: variant, version, embedded time and the fields its version defines.
     *
     * @param uuid the UUID
     * @return what is inside
     */
    public static UuidInfo decode(UUID uuid) {
        return UuidInfo.of(uuid);
    }

    private static int hexValue(char c) {
        return c < 128 ? HEX_VALUE[c] : -1;
    }

    private static void hex(long value, byte[] out, int offset, int digits) {
        for (int i = offset + digits - 1; i >= offset; i--) {
            out[i] = HEX_DIGIT[(int) value & 0xF];
            value >>>= 4;
        }
    }

    private static void putLong(byte[] out, int offset, long value) {
        for (int i = offset + 7; i >= offset; i--) {
            out[i] = (byte) value;
            value >>>= 8;
        }
    }

    private static long getLong(byte[] in, int offset) {
        long value = 0;
        for (int i = offset; i < offset + 8; i++) {
            value = value << 8 | (in[i] & 0xFF);
        }
        return value;
    }

    private static IllegalArgumentException notA(CharSequence text, String problem, String expected) {
        return new IllegalArgumentException("not a UUID: " + Quote.of(text) + " (" + problem + "); expected "
                + expected);
    }

}
