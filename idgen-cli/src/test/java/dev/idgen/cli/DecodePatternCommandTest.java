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
}
