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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DecodeCommandTest {

    /** Discord's documented example (developer docs, "Snowflakes"). */
    static final String DISCORD_ID = "175928847299117063";

    /** RFC 9562 Appendix A.6. */
    static final String RFC_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";

    /** The table's rows as field -> value (the first line is the ID itself). */
    static Map<String, String> table(String text) {
        return Arrays.stream(text.split("\n")).skip(1).filter(l -> l.startsWith("  ") && !l.startsWith("   "))
                .map(String::strip).filter(l -> !l.startsWith("warning:") && !l.startsWith("readings")
                        && !l.startsWith("reading ") && !l.startsWith("no other"))
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
        assertEquals("decimal, layout discord", f.get("read as"));
        assertEquals("2016-04-30T11:18:25.796Z", f.get("time"));
        assertEquals("32", f.get("machine"));
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
        assertEquals("urn", json(r.lines()[1], "read_as"));
    }

    @Test
    void badInputIsOneLineOnStderrAndExitOneWhileGoodIdsAreStillDecoded() {
        Cli.Run r = Cli.runWithStdin("12-34\n" + DISCORD_ID + "\n", "decode", "--json", "--layout", "discord");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertEquals(1, r.lines().length, r.out());
        String[] err = r.err().split("\n");
        assertEquals(1, err.length, r.err());
        assertTrue(err[0].startsWith("idgen decode: '12-34' (5 characters) is not an ID: expected a decimal Snowflake"),
                err[0]);
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
        assertTrue(r.err().contains("'snowflake' is not a layout; expected one of " + SnowflakeLayout.presetNames()),
                r.err());
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
            String line = "Snowflake (decimal, layout " + layout.name() + ")";
            if (layout.maxId() < id || layout == SnowflakeLayout.SONYFLAKE) {
                assertFalse(r.out().contains(line), r.out());
                continue;
            }
            SnowflakeId read = layout.decode(id);
            boolean plausible = !read.timestamp().isAfter(Cli.NOW.plus(java.time.Duration.ofDays(1)));
            assertEquals(plausible, r.out().lines().anyMatch(l -> l.contains(line) && l.contains(read.timestamp().toString())),
                    () -> layout.name() + " reads " + read.timestamp() + ":\n" + r.out());
        }
        assertTrue(r.out().lines().anyMatch(l -> l.matches("    Snowflake \\(decimal, layout twitter\\) +2022-.*")),
                "the ID is Twitter's: " + r.out());
    }

    @Test
    void aMachineFirstIdIsReadWithItsFieldOrderAndTheOrderIsPrinted() {
        // machine 700 (datacenter 21, worker 28) on top, 500,000,000,000 ms after twepoch, sequence 3
        long id = 700L << 53 | 500_000_000_000L << 12 | 3;
        Cli.Run r = Cli.run("decode", "--field-order", "machine-time-sequence", Long.toString(id));
        assertEquals(0, r.exit(), r.err());
        Map<String, String> f = table(r.out());
        assertEquals("decimal, layout twitter, order machine-time-sequence", f.get("read as"));
        assertEquals("machine-time-sequence", f.get("order"));
        assertEquals(java.time.Instant.ofEpochMilli(1288834974657L + 500_000_000_000L).toString(), f.get("time"));
        assertEquals("700", f.get("machine"));
        assertEquals("21", f.get("datacenter"));
        assertEquals("28", f.get("worker"));
        assertEquals("3", f.get("sequence"));

        // read with the default order, the time is implausible and the machine-first reading is offered
        Cli.Run plain = Cli.run("decode", "--json", Long.toString(id));
        String o = plain.lines()[0];
        assertEquals("false", json(o, "plausible"));
        assertEquals("time-machine-sequence", json(o, "order"));
        assertTrue(o.contains("\"alternatives\":[{\"kind\":\"Snowflake\",\"read_as\":\"decimal, layout twitter,"
                + " order machine-time-sequence\",\"time\":\"" + java.time.Instant.ofEpochMilli(1288834974657L
                + 500_000_000_000L) + "\"}"), o);
    }

    @Test
    void wrongLayoutInJsonSaysNotPlausibleWithAlternatives() {
        Cli.Run r = Cli.run("decode", "--json", "--layout", "sonyflake", "1541815603606036480");
        String o = r.lines()[0];
        assertEquals("false", json(o, "plausible"));
        assertTrue(o.contains("\"alternatives\":[{\"kind\":\"Snowflake\",\"read_as\":\"decimal, layout twitter\",\"time\":\""
                + SnowflakeLayout.TWITTER.decode(1541815603606036480L).timestamp() + "\"}"), o);
    }

    /** One published vector per format (sources in core's IdDecoderTest), and the time each gives. */
    @ParameterizedTest
    @CsvSource({
        "01ARYZ6S41TSV4RRFFQ69G5FAV, ULID, 2016-07-30T22:36:16.385Z",
        "0ujtsYcgvSTl8PAuAdqWYSMnLOv, KSUID, 2017-10-10T04:00:47Z",
        "FZZZZZZZW0000, TSID, 2159-05-15T07:35:11.103Z",
        "0123456789ABC, TSID, 2020-04-15T22:31:02.458Z",
        "507c7f79bcf86cd7994f6c0e, ObjectId, 2012-10-15T21:26:17Z",
        "9m4e2mr0ui3e8a215n4g, xid, 2011-03-22T17:50:19Z",
        "c232ab00-9414-11ec-b3c8-9f6bdeced846, UUID, 2022-02-22T19:22:22Z",
        "1ec9414c-232a-6b00-b3c8-9f6bdeced846, UUID, 2022-02-22T19:22:22Z",
        "0xfa000000, Snowflake, 2010-11-04T01:42:55.657Z",
    })
    void everyFormatIsPrinted(String input, String kind, String time) {
        Cli.Run r = Cli.run("decode", input);
        assertEquals(0, r.exit(), r.err());
        Map<String, String> f = table(r.out());
        assertEquals(kind, f.get("kind"), r.out());
        assertEquals(time, f.get("time"), r.out());
        Cli.Run j = Cli.run("decode", "--json", input);
        assertEquals(kind, json(j.lines()[0], "kind"));
        assertEquals(time, json(j.lines()[0], "time"));
    }

    @Test
    void nilAndMaxUuidsHaveNoTime() {
        Cli.Run r = Cli.run("decode", "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Nil UUID") && r.out().contains("Max UUID"), r.out());
        assertFalse(r.out().contains("  time "), r.out());
    }

    @Test
    void aStringOfTwoFormatsGetsBothReadings() {
        Cli.Run r = Cli.run("decode", "0123456789012");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("  reading 1 of 2: Snowflake (decimal, layout twitter), plausible\n"), r.out());
        assertTrue(r.out().contains("  reading 2 of 2: TSID (Crockford base32), plausible\n"), r.out());
        Cli.Run j = Cli.run("decode", "--json", "0123456789012");
        assertEquals(1, j.lines().length, j.out());
        assertEquals("Snowflake", json(j.lines()[0], "kind"));
        assertTrue(j.lines()[0].contains("\"other_readings\":[{\"kind\":\"TSID\""), j.lines()[0]);
    }

    @Test
    void everyFieldCoreGivesIsPrintedForEveryPresetWithoutTheCliKnowingThem() {
        for (SnowflakeLayout layout : SnowflakeLayout.presets()) {
            long id = layout.encode(1000, layout.maxMachineId() / 3, layout.maxSequence() / 2);
            Cli.Run r = Cli.run("decode", "--layout", layout.name(), Long.toString(id));
            assertEquals(0, r.exit(), r.err());
            Map<String, String> f = table(r.out());
            for (dev.idgen.decode.IdField field : dev.idgen.decode.IdDecoder.decode(Long.toString(id), layout).fields()) {
                assertTrue(f.get(field.name()) != null && f.get(field.name()).startsWith(field.value()),
                        () -> layout.name() + " " + field + ":\n" + r.out());
            }
        }
    }

    @Test
    void terminalEscapesInBadInputAreShownEscaped() {
        Cli.Run r = Cli.runWithStdin("\u001b[2J\u001b]0;owned\u0007\n", "decode");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertFalse(r.err().chars().anyMatch(c -> c == 0x1b || c == 0x07), r.err());
        assertTrue(r.err().startsWith("idgen decode: '\\u001b[2J\\u001b]0;owned\\u0007' (14 characters) is not an ID"), r.err());
    }
}
