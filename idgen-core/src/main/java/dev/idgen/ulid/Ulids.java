package dev.idgen.ulid;

import dev.idgen.text.Crockford;
import dev.idgen.text.Quote;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Strict text codec for ULIDs, held as {@link UUID} values (the 16 bytes of the ULID's binary form,
 * most significant first, as {@code Uuids.toBytes} writes them).
 *
 * <p>A ULID and a UUIDv7 of the same millisecond start with the same 48 bits, so the two sort
 * together by time, as text in their own forms and as bytes. The 26-character text sorts as the
 * ULIDs do (unsigned byte order). {@link #toString(UUID)} writes upper case, as the specification's
 * examples do; {@link #parse(CharSequence)} reads any case and the look-alikes {@code I}, {@code L}
 * (as 1) and {@code O} (as 0), refuses {@code U}, and refuses text above
 * {@code 7ZZZZZZZZZZZZZZZZZZZZZZZZZ}, the largest ULID, rather than wrap (the specification's
 * "Overflow Errors when Parsing Base32 Strings").
 */
public final class Ulids {

    /** The largest ULID as text, 2^128 - 1 (time 2^48 - 1 ms, year 10889). */
    public static final String MAX_TEXT = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";

    /** The last instant a ULID's 48-bit timestamp holds. */
    private static final Instant LAST = Instant.ofEpochMilli((1L << 48) - 1).plusNanos(999_999);

    private static final String FORM = "26 Crockford base32 characters (0-9, A-Z without U; I and L read as 1,"
            + " O as 0; any case), at most " + MAX_TEXT;

    private Ulids() {
    }

    /**
     * Reads a ULID.
     *
     * @param text exactly 26 characters
     * @return its 128 bits
     * @throws IllegalArgumentException if the text is not a ULID; the message quotes it, says what
     *     is wrong and what is expected
     * @throws NullPointerException if {@code text} is null
     */
    public static UUID parse(CharSequence text) {
        Objects.requireNonNull(text, "text");
        String problem = Crockford.problem(text, Crockford.UUID_LENGTH, 7);
        if (problem != null) {
            throw new IllegalArgumentException("not a ULID: " + Quote.of(text) + " (" + problem + "); expected " + FORM);
        }
        return Crockford.parseUuid(text);
    }

    /**
     * Writes a ULID.
     *
     * @param ulid its 128 bits
     * @return 26 upper-case characters
     */
    public static String toString(UUID ulid) {
        return Crockford.toString(ulid);
    }

    /**
     * The smallest ULID of an instant's millisecond: its timestamp, then 80 zero bits. With
     * {@link #max(Instant)}, for range queries on a column of ULIDs
     * ({@code WHERE id BETWEEN min(from) AND max(to)}), as bytes or as text.
     *
     * @param instant an instant from 1970-01-01T00:00:00Z to the last of 2^48 - 1 ms; its
     *     sub-millisecond part is dropped
     * @return the smallest ULID of that millisecond
     * @throws IllegalArgumentException if the instant is outside that range
     */
    public static UUID min(Instant instant) {
        return new UUID(millis(instant) << 16, 0L);
    }

    /**
     * The largest ULID of an instant's millisecond: its timestamp, then 80 one bits. See
     * {@link #min(Instant)}.
     *
     * @param instant as for {@link #min(Instant)}
     * @return the largest ULID of that millisecond
     * @throws IllegalArgumentException if the instant is outside the range
     */
    public static UUID max(Instant instant) {
        return new UUID(millis(instant) << 16 | 0xFFFFL, -1L);
    }

    private static long millis(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(LAST)) {
            throw new IllegalArgumentException("instant " + instant + " is outside the range of a ULID's 48-bit"
                    + " timestamp: " + Instant.EPOCH + " to " + LAST);
        }
        return instant.toEpochMilli();
    }

    /**
     * @param ulid a ULID's 128 bits
     * @return its 48-bit timestamp, Unix milliseconds
     */
    public static long timestamp(UUID ulid) {
        return ulid.getMostSignificantBits() >>> 16;
    }

    /**
     * @param ulid a ULID's 128 bits
     * @return the instant of its timestamp
     */
    public static Instant time(UUID ulid) {
        return Instant.ofEpochMilli(timestamp(ulid));
    }
}
