package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DecodeCommandTest {

    /** Discord's documented example (developer docs, "Snowflakes"). */
    static final String DISCORD_ID = "175928847299117063";

    /** RFC 9562 Appendix A.6. */
    static final String RFC_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";

    /** The table's rows as field -> value (the first line is the ID itself). */
    static Map<String, String> table(String text) {
        return Arrays.stream(text.split("\n")).skip(1).filter(l -> l.startsWith("  ") && !l.startsWith("   "))
                .map(String::strip).filter(l -> !l.startsWith("warning:") && !l.startsWith("layouts"))
                .collect(Collectors.toMap(l -> l.split("\\s{2,}", 2)[0], l -> l.split("\\s{2,}", 2)[1]));
    }

    static String json(String object, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\"([^\"]*)\"|[^,}]*)").matcher(object);
        assertTrue(m.find(), () -> "no key " + key + " in " + object);
        return m.group(2) != null ? m.group(2) : m.group(1);
    }

    @Test
    void discordsDocumentedIdGivesItsDocumentedFields() {
        Cli.Run r = Cli.run("decode", DISCORD_ID, "--layout", "discord");
        assertEquals(0, r.exit(), r.err());
        Map<String, String> f = table(r.out());
        assertEquals("Snowflake", f.get("kind"));
        assertEquals("2016-04-30T11:18:25.796Z", f.get("time"));
        assertEquals("1", f.get("worker"));
        assertEquals("0", f.get("process"));
        assertEquals("7", f.get("increment"));
        assertEquals("10 years ago", f.get("age"), "2016-04-30 seen from " + Cli.NOW);
        assertEquals("", r.err());
    }

    @Test
    void discordIdAsJson() {
        Cli.Run r = Cli.run("decode", "--json", "--layout", "DISCORD", DISCORD_ID);
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.lines().length, r.out());
        String o = r.lines()[0];
        assertTrue(o.startsWith("{") && o.endsWith("}"), o);
        assertEquals("2016-04-30T11:18:25.796Z", json(o, "time"));
        assertEquals("1", json(o, "worker"));
        assertEquals("0", json(o, "process"));
        assertEquals("7", json(o, "increment"));
        assertEquals("true", json(o, "plausible"));
    }

    @Test
    void rfcVersion7Example() {
        Cli.Run r = Cli.run("decode", RFC_V7.toUpperCase(java.util.Locale.ROOT));
        assertEquals(0, r.exit(), r.err());
        Map<String, String> f = table(r.out());
        assertEquals("UUID", f.get("kind"));
        assertEquals(RFC_V7, f.get("uuid"));
        assertEquals("7", f.get("version"));
        assertEquals("2022-02-22T19:22:22Z", f.get("time"));
        assertEquals("0x017f22e279b0", f.get("unix_ts_ms"));
        assertEquals("0xcc3", f.get("rand_a"));
        assertEquals("0x18c4dc0c0c07398f", f.get("rand_b"));
    }

    @Test
    void readsStandardInputOneIdALineSkippingBlankLines() {
        Cli.Run r = Cli.runWithStdin(DISCORD_ID + "\n\n  urn:uuid:" + RFC_V7 + "  \n", "decode", "--json", "--layout", "discord");
        assertEquals(0, r.exit(), r.err());
        assertEquals(2, r.lines().length, r.out());
        assertEquals("2016-04-30T11:18:25.796Z", json(r.lines()[0], "time"));
        assertEquals("2022-02-22T19:22:22Z", json(r.lines()[1], "time"));
        assertEquals("urn", json(r.lines()[1], "written_as"));
    }

    @Test
    void badInputIsOneLineOnStderrAndExitOneWhileGoodIdsAreStillDecoded() {
        Cli.Run r = Cli.runWithStdin("12-34\n" + DISCORD_ID + "\n", "decode", "--json", "--layout", "discord");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertEquals(1, r.lines().length, r.out());
        String[] err = r.err().split("\n");
        assertEquals(1, err.length, r.err());
        assertTrue(err[0].startsWith("idgen decode: '12-34' is not an ID: expected a decimal Snowflake"), err[0]);
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Test
    void numberAbove63BitsUnderTwitterNamesTheLayoutsThatFit() {
        Cli.Run r = Cli.run("decode", "18446744073709551615");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertTrue(r.err().contains("'18446744073709551615'") && r.err().contains("discord"), r.err());
        assertEquals(1, r.err().split("\n").length, r.err());
    }

    @Test
    void nothingToDecodeIsBadInput() {
        Cli.Run r = Cli.runWithStdin("\n", "decode");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertEquals("idgen decode: no ID given; expected IDs as arguments or one a line on standard input\n", r.err());
    }

    @Test
    void noArgumentsWithATerminalForInputIsAUsageErrorNotAWait() {
        Cli.Run r = Cli.runAt(dev.idgen.testkit.clock.ManualClock.at(Cli.NOW), DISCORD_ID + "\n", true, "decode");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("idgen decode: no ID given; expected IDs as arguments, or one a line piped"), r.err());
    }

    @Test
    void unknownLayoutIsAUsageError() {
        Cli.Run r = Cli.run("decode", "--layout", "snowflake", DISCORD_ID);
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().contains("'snowflake' is not a layout; expected one of twitter, discord, instagram, sonyflake"), r.err());
    }

    @Test
    void wrongLayoutIsCaughtAndTheLayoutsGivingPlausibleTimesAreSuggested() {
        long id = 1541815603606036480L;   // a Twitter (X) post ID from 2022
        Cli.Run r = Cli.run("decode", Long.toString(id), "--layout", "sonyflake");
        assertEquals(0, r.exit(), r.err());
        SnowflakeId asSonyflake = SnowflakeLayout.SONYFLAKE.decode(id);
        assertTrue(asSonyflake.timestamp().isAfter(Cli.NOW.plus(java.time.Duration.ofDays(365))), "premise: far future");
        assertTrue(r.out().contains("warning: time " + asSonyflake.timestamp() + " is in the future"), r.out());
        for (SnowflakeLayout layout : SnowflakeLayout.presets()) {
            SnowflakeId read = layout.decode(id);
            boolean plausible = !read.timestamp().isAfter(Cli.NOW) && !read.timestamp().isBefore(layout.epoch());
            String line = "--layout " + layout.name();
            assertEquals(plausible && layout != SnowflakeLayout.SONYFLAKE, r.out().contains(line),
                    () -> layout.name() + " reads " + read.timestamp() + ":\n" + r.out());
            if (plausible && layout != SnowflakeLayout.SONYFLAKE) {
                assertTrue(r.out().lines().anyMatch(l -> l.contains(line) && l.contains(read.timestamp().toString())), r.out());
            }
        }
        assertTrue(r.out().contains("--layout twitter"), "the ID is Twitter's: " + r.out());
    }

    @Test
    void wrongLayoutInJsonSaysNotPlausibleWithSuggestions() {
        Cli.Run r = Cli.run("decode", "--json", "--layout", "sonyflake", "1541815603606036480");
        String o = r.lines()[0];
        assertEquals("false", json(o, "plausible"));
        assertTrue(o.contains("\"suggestions\":[{\"layout\":\"twitter\",\"time\":\""
                + SnowflakeLayout.TWITTER.decode(1541815603606036480L).timestamp() + "\"}"), o);
    }
}
