package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Says what an ID written as text is, and what is inside: the one entry point for people (and the
 * {@code idgen decode} command) debugging IDs, ours or not.
 *
 * <p>Recognised by shape, after trimming surrounding white space and one pair of matching quotes
 * around the whole ({@code "…"}, {@code '…'} or {@code `…`}: an ID pasted from JSON, SQL or
 * Markdown):
 * <ul>
 *   <li>a Snowflake in decimal (0 to 18446744073709551615) or in hex ({@code 0x} and 1 to 16 hex
 *       digits, or exactly 16 hex digits), read with the layout given; a value above the layout's
 *       largest ID is refused, naming the presets it fits;</li>
 *   <li>a UUID of any variant and version, Nil and Max included, as {@code 8-4-4-4-12} hex digits,
 *       32 hex digits, either in {@code {braces}}, or after {@code urn:uuid:}; any case
 *       ({@link UuidForm});</li>
 *   <li>a ULID: 26 Crockford base32 characters, 48-bit Unix milliseconds and 80 random bits;</li>
 *   <li>a KSUID: 27 base62 characters, 32-bit seconds since 2014-05-13T16:53:20Z and 128 random bits;</li>
 *   <li>a TSID: 13 Crockford base32 characters, 42-bit milliseconds since 2020-01-01 and 22 bits of
 *       node and counter;</li>
 *   <li>a MongoDB ObjectId: 24 hex digits, 32-bit Unix seconds, 5 random bytes, a 24-bit counter;</li>
 *   <li>an xid: 20 lower-case base32hex characters, 32-bit Unix seconds, machine, process id, counter.</li>
 * </ul>
 * Some strings fit more than one format: 13 decimal digits are a decimal Snowflake and a TSID, 16
 * decimal digits a Snowflake in decimal and in hex, 20 decimal digits a Snowflake and (ending in 0)
 * an xid. {@link #readings(String, SnowflakeLayout, Instant)} gives every reading and which are
 * plausible; {@link #decode(String, SnowflakeLayout)} gives the first in the order above. (32
 * decimal digits are a UUID: no 64-bit number has 32 digits.)
 *
 * <p>Input that is no ID is refused in one line that quotes it (control characters escaped, see
 * {@link Quote}) and says what was expected: for each format whose shape it has, what is wrong;
 * otherwise every shape accepted.
 *
 * <pre>{@code
 * IdDecoder.decode("175928847299117063", SnowflakeLayout.DISCORD)
 *   // Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z,
 *   //   machine 32 (worker 1, process 0), increment 7
 * IdDecoder.decode("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
 *   // UUID 017f22e2-79b0-7cc3-98c4-dc0c0c07398f: RFC 9562 version 7, Unix Epoch time-based;
 *   //   time 2022-02-22T19:22:22Z; unix_ts_ms=0x017f22e279b0 rand_a=0xcc3 rand_b=0x18c4dc0c0c07398f
 * }</pre>
 */
public final class IdDecoder {

    /** Every format, in the order readings are listed when none is more plausible than another. */
    private static final List<TextFormat> FORMATS = List.of(SnowflakeText.DECIMAL, SnowflakeText.HEX,
            UuidText.INSTANCE, UlidText.INSTANCE, KsuidText.INSTANCE, TsidText.INSTANCE, ObjectIdText.INSTANCE,
            XidText.INSTANCE);

    /** What is accepted, for messages. */
    static final String EXPECTED = "expected " + FORMATS.stream().map(TextFormat::shape)
            .collect(Collectors.joining(", "));

    private IdDecoder() {
    }

    /**
     * Decodes an ID, a Snowflake with Twitter's layout.
     *
     * @param input the ID as text
     * @return its first reading (see {@link #decode(String, SnowflakeLayout)})
     * @throws IllegalArgumentException if it is no ID; the message quotes it and says what is expected
     */
    public static DecodedId decode(String input) {
        return decode(input, SnowflakeLayout.TWITTER);
    }

    /**
     * Decodes an ID, a Snowflake with the layout given. Where the string fits more than one format,
     * this is the first reading in the order of the class description; {@link #readings} gives all.
     *
     * @param input the ID as text
     * @param layout the layout to read a Snowflake with
     * @return what it is and what is inside
     * @throws IllegalArgumentException if it is no ID, or a number the layout cannot hold; the
     *     message quotes the input and says what is expected
     */
    public static DecodedId decode(String input, SnowflakeLayout layout) {
        return readAll(input, layout).get(0);
    }

    /**
     * Every reading of a string, the plausible ones first (then in the order of the class
     * description). A reading is plausible when its time, if any, lies from 1970 to a day after
     * {@code now}. A Snowflake whose time is not plausible under the layout given carries, as
     * {@link Reading#alternatives()}, the layouts that give a plausible one: the layout given with the
     * machine id above the time ({@link SnowflakeLayout.FieldOrder#MACHINE_TIME_SEQUENCE}), then the
     * other presets.
     *
     * @param input the ID as text
     * @param layout the layout to read a Snowflake with
     * @param now the present
     * @return one or more readings
     * @throws IllegalArgumentException if the string is no ID; the message quotes it and says what is expected
     */
    public static List<Reading> readings(String input, SnowflakeLayout layout, Instant now) {
        Objects.requireNonNull(now, "now");
        List<Reading> out = new ArrayList<>();
        for (DecodedId id : readAll(input, layout)) {
            out.add(Reading.of(id, now, id instanceof DecodedSnowflake s ? otherLayouts(s, now) : List.of()));
        }
        out.sort(Comparator.comparing(r -> !r.plausible()));   // stable: format order within each group
        return out;
    }

    private static List<DecodedId> readAll(String input, SnowflakeLayout layout) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(layout, "layout");
        String s = unquoted(input.strip());
        List<DecodedId> read = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (TextFormat format : FORMATS) {
            if (format.fits(s)) {
                try {
                    read.add(format.read(input, s, layout));
                } catch (IllegalArgumentException e) {
                    problems.add("as " + format.shape() + ": " + e.getMessage());
                }
            }
        }
        if (!read.isEmpty()) {
            return read;
        }
        String quoted = Quote.of(input) + " (" + input.length() + " characters)";
        throw new IllegalArgumentException(problems.isEmpty() ? quoted + " is not an ID: " + EXPECTED
                : quoted + " is not an ID: " + String.join("; ", problems));
    }

    /** The text inside one pair of matching quotes around the whole, stripped; else the text itself. */
    private static String unquoted(String s) {
        if (s.length() >= 2) {
            char first = s.charAt(0);
            if ((first == '"' || first == '\'' || first == '`') && s.charAt(s.length() - 1) == first) {
                return s.substring(1, s.length() - 1).strip();
            }
        }
        return s;
    }

    /**
     * The same bits under the layout given with the machine id on top (when it is not already and
     * can be), then under every other preset, each kept when it fits them and gives a plausible time.
     */
    private static List<DecodedId> otherLayouts(DecodedSnowflake read, Instant now) {
        List<DecodedId> out = new ArrayList<>();
        long id = read.id().id();
        List<SnowflakeLayout> candidates = new ArrayList<>();
        SnowflakeLayout given = read.id().layout();
        // the layout itself is skipped below when it is already machine-first
        if (given.machineBits() > 0 && given.totalBits() < Long.SIZE) {
            candidates.add(given.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE));
        }
        candidates.addAll(SnowflakeLayout.presets());
        for (SnowflakeLayout layout : candidates) {
            if (!layout.equals(read.id().layout()) && SnowflakeText.fitsLayout(id, layout)) {
                DecodedSnowflake other = new DecodedSnowflake(read.input(), read.hex(), layout.decode(id));
                if (Reading.plausible(other, now)) {
                    out.add(other);
                }
            }
        }
        return out;
    }
}
