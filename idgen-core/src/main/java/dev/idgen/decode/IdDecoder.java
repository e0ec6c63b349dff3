package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.Uuids;
import java.util.Objects;

/**
 * Says what an ID written as text is, and what is inside: the one entry point for people (and the
 * {@code idgen decode} command) debugging IDs.
 *
 * <p>Recognised, after trimming surrounding white space:
 * <ul>
 *   <li>a UUID as {@code 8-4-4-4-12} hex digits, as 32 hex digits, either in {@code {braces}}, or
 *       after {@code urn:uuid:}; any case ({@link UuidForm});</li>
 *   <li>a decimal Snowflake, 0 to 18446744073709551615, read with the layout given. A value with the
 *       top bit set (above 9223372036854775807) fits only a layout that uses all 64 bits, such as
 *       {@link SnowflakeLayout#DISCORD}.</li>
 * </ul>
 * A string of 32 decimal digits is read as a UUID (no 64-bit number has 32 digits).
 *
 * <pre>{@code
 * IdDecoder.decode("175928847299117063", SnowflakeLayout.DISCORD)
 *   // Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z,
 *   //   machine 32 (worker 1, process 0), sequence 7
 * IdDecoder.decode("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
 *   // UUID 017f22e2-79b0-7cc3-98c4-dc0c0c07398f: RFC 9562 version 7, Unix Epoch time-based;
 *   //   time 2022-02-22T19:22:22Z; unix_ts_ms=0x017f22e279b0 rand_a=0xcc3 rand_b=0x18c4dc0c0c07398f
 * }</pre>
 */
public final class IdDecoder {

    /** What is accepted, for messages. */
    static final String EXPECTED = "expected a decimal Snowflake (0 to 18446744073709551615) "
            + "or a UUID (8-4-4-4-12 hex digits, 32 hex digits, {braces} or urn:uuid:)";

    private static final String URN_PREFIX = "urn:uuid:";
    private static final int CANONICAL_LENGTH = 36;
    private static final int HEX_LENGTH = 32;
    private static final int LONGEST_QUOTE = 60;

    private IdDecoder() {
    }

    /**
     * Decodes a UUID, or a decimal Snowflake with Twitter's layout.
     *
     * @param input the ID as text
     * @return what it is and what is inside
     * @throws IllegalArgumentException if it is neither; the message quotes it and lists the forms
     *     accepted
     */
    public static DecodedId decode(String input) {
        return decode(input, SnowflakeLayout.TWITTER);
    }

    /**
     * Decodes a UUID, or a decimal Snowflake with the layout given.
     *
     * @param input the ID as text
     * @param layout the layout to read a decimal Snowflake with
     * @return what it is and what is inside
     * @throws IllegalArgumentException if it is neither, or a number the layout cannot hold; the
     *     message quotes the input and says what is accepted
     */
    public static DecodedId decode(String input, SnowflakeLayout layout) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(layout, "layout");
        String s = input.strip();
        if (isDecimal(s) && s.length() != HEX_LENGTH) {
            return new DecodedSnowflake(input, layout.decode(snowflake(input, s, layout)));
        }
        UuidForm form;
        String body;
        if (s.regionMatches(true, 0, URN_PREFIX, 0, URN_PREFIX.length())) {
            form = UuidForm.URN;
            body = s.substring(URN_PREFIX.length());
        } else if (s.length() > 2 && s.charAt(0) == '{' && s.charAt(s.length() - 1) == '}') {
            form = UuidForm.BRACED;
            body = s.substring(1, s.length() - 1);
        } else {
            form = s.length() == HEX_LENGTH ? UuidForm.HEX : UuidForm.CANONICAL;
            body = s;
        }
        if (body.length() == HEX_LENGTH && form != UuidForm.URN) {
            return new DecodedUuid(input, form, Uuids.decode(parse(input, body, true)));
        }
        if (body.length() == CANONICAL_LENGTH) {
            return new DecodedUuid(input, form, Uuids.decode(parse(input, body, false)));
        }
        throw notAnId(input, "");
    }

    private static java.util.UUID parse(String input, String body, boolean hex) {
        try {
            return hex ? Uuids.parseHex(body) : Uuids.parse(body);
        } catch (IllegalArgumentException e) {
            throw notAnId(input, "");
        }
    }

    private static long snowflake(String input, String digits, SnowflakeLayout layout) {
        long id;
        try {
            id = Long.parseUnsignedLong(digits);
        } catch (NumberFormatException e) {
            throw notAnId(input, " is larger than 18446744073709551615, the largest 64-bit ID;");
        }
        if (id < 0 && !layout.usesSignBit()) {
            throw new IllegalArgumentException(quote(input) + " is larger than " + Long.MAX_VALUE
                    + ", the largest ID of layout " + layout.name() + "; layouts that use all 64 bits: "
                    + String.join(", ", SnowflakeLayout.presets().stream()
                            .filter(SnowflakeLayout::usesSignBit).map(SnowflakeLayout::name).toList()));
        }
        return id;
    }

    private static boolean isDecimal(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException notAnId(String input, String problem) {
        String what = problem.isEmpty() ? " is not an ID:" : problem;
        return new IllegalArgumentException(quote(input) + what + " " + EXPECTED);
    }

    /** The input in single quotes, cut after 60 characters so that a pasted blob stays readable. */
    private static String quote(String input) {
        return input.length() <= LONGEST_QUOTE ? "'" + input + "'"
                : "'" + input.substring(0, LONGEST_QUOTE) + "...' (" + input.length() + " characters)";
    }
}
