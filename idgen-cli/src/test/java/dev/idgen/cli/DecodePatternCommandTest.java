package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.BusinessNumberFormat;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code idgen decode --pattern}: business numbers read back into prefix, date and counter. */
class DecodePatternCommandTest {

    @Test
    void readsPrefixDateAndCounter() {
        Cli.Run r = Cli.run("decode", "--pattern", "INV-yyyyMMdd-NNNNNN", "INV-20261203-000042");
        assertEquals(0, r.exit(), r.err());
        Map<String, String> f = DecodeCommandTest.table(r.out());
        assertEquals("business number", f.get("kind"));
        assertEquals("INV", f.get("prefix"));
        assertEquals("2026-12-03 (day group)", f.get("date"));
        assertEquals("42", f.get("counter"));
        assertEquals("2026-12-03T00:00:00Z", f.get("time"));
        assertEquals("", r.err());
    }

    @Test
    void whatTheFormatWritesTheDecoderReadsBack() {
        String pattern = "ORD/yyyyMM/NNNN";
        BusinessNumberFormat format = BusinessNumberFormat.builder().pattern(pattern).build();
        String number = format.format(LocalDate.of(2025, 7, 19), 317);
        assertEquals("ORD/202507/0317", number);
        Cli.Run r = Cli.run("decode", "--json", "--pattern", pattern, number);
        assertEquals(0, r.exit(), r.err());
        String o = r.lines()[0];
        assertEquals("ORD", DecodeCommandTest.json(o, "prefix"));
        assertEquals("2025-07-01", DecodeCommandTest.json(o, "date"));
        assertEquals("317", DecodeCommandTest.json(o, "counter"));
    }

    @Test
    void aNumberThatDoesNotFitIsBadInputNamingThePatternAndTheOthersAreStillRead() {
        Cli.Run r = Cli.run("decode", "--pattern", "INV-yyyyMMdd-NNNNNN", "INV-2026123-000042", "INV-20261203-000001");
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertTrue(r.err().contains("not a business number of pattern INV-yyyyMMdd-NNNNNN: 'INV-2026123-000042'"),
                r.err());
        assertEquals("1", DecodeCommandTest.table(r.out()).get("counter"));
    }

    @Test
    void aBadPatternIsAUsageErrorQuotingIt() {
        Cli.Run r = Cli.run("decode", "--pattern", "INV-ddMMyyyy-NNN", "INV-03122026-001");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--pattern: business number pattern 'INV-ddMMyyyy-NNN' cannot be read"), r.err());
    }

    @Test
    void snowflakeFlagsDoNotMixWithAPattern() {
        Cli.Run r = Cli.run("decode", "--pattern", "yyyy-NNN", "--layout", "discord", "2026-001");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--layout applies to Snowflakes, not to --pattern"), r.err());
    }

    /**
     * Formats built from parts drawn from the grammar's own letters (N, y, M, d), digits and
     * punctuation: each one that builds writes a number that {@code decode --pattern} with its
     * pattern reads back to the same counter and date.
     */
    @Test
    void readsEveryNumberAFormatCanWrite() {
        java.util.Random random = new java.util.Random(34);
        String letters = "NyMdA0/."; // no leading '-': the command line would take the number for an option
        int read = 0;
        for (int i = 0; i < 60; i++) {
            BusinessNumberFormat f;
            try {
                f = BusinessNumberFormat.builder().prefix(draw(random, letters, random.nextInt(4)))
                        .separator(draw(random, "NyMdA-/.", random.nextInt(3)))
                        .group(dev.idgen.segment.DateGroup.values()[random.nextInt(3)]).width(1 + random.nextInt(9))
                        .build();
            } catch (IllegalArgumentException refusedWhenBuilt) {
                continue; // parts whose pattern reads as other parts: no number of theirs is ever written
            }
            LocalDate day = LocalDate.of(1990 + random.nextInt(60), 1 + random.nextInt(12), 1 + random.nextInt(28));
            long counter = 1 + random.nextInt((int) Math.min(f.maxCounter(), 999_999));
            String number = f.format(day, counter);
            Cli.Run r = Cli.run("decode", "--json", "--pattern", f.pattern(), number);
            assertEquals(0, r.exit(), f.pattern() + " " + number + ": " + r.err());
            assertEquals(Long.toString(counter), DecodeCommandTest.json(r.lines()[0], "counter"), number);
            assertEquals(f.group().start(day).toString(), DecodeCommandTest.json(r.lines()[0], "date"), number);
            read++;
        }
        assertTrue(read > 20, read + " formats built of 60: the draw must reach the decoder");
    }

    private static String draw(java.util.Random random, String alphabet, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }
}
