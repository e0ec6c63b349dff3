package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** The edges of what the segment values accept: ranges, date groups, prefixes, counters. */
class SegmentBoundsTest {

    @Test
    void aGrantMayStartAtZeroAndEndAtItsLimit() {
        SegmentGrant zero = new SegmentGrant(0, 0, Instant.EPOCH);
        assertEquals(1, zero.size());
        SegmentGrant top = new SegmentGrant(SegmentGrant.MAX_LAST - 9, SegmentGrant.MAX_LAST, Instant.EPOCH);
        assertEquals(10, top.size());
        assertThrows(IllegalArgumentException.class, () -> new SegmentGrant(-1, 0, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new SegmentGrant(0, SegmentGrant.MAX_LAST + 1, Instant.EPOCH));
    }

    @Test
    void dateGroupsCoverYearsOneTo9999() {
        assertEquals("00010101", DateGroup.DAY.key(LocalDate.of(1, 1, 1)));
        assertEquals("999912", DateGroup.MONTH.key(LocalDate.of(9999, 12, 31)));
        assertEquals(LocalDate.of(1, 1, 1), DateGroup.YEAR.parse("0001"));
        assertEquals(LocalDate.of(2026, 12, 1), DateGroup.MONTH.parse("202612"));
        assertEquals(LocalDate.of(2026, 12, 3), DateGroup.DAY.parse("20261203"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DateGroup.YEAR.key(LocalDate.of(10_000, 1, 1)))
                .getMessage().startsWith("year 10000 of +10000-01-01 is out of range 1..9999"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DateGroup.YEAR.key(LocalDate.of(0, 1, 1)))
                .getMessage().startsWith("year 0 of"));
        assertEquals("date group '0000' is no date yyyy in years 1..9999 (year 0000)",
                assertThrows(IllegalArgumentException.class, () -> DateGroup.YEAR.parse("0000")).getMessage());
        assertEquals("date group '2026x203' is not 8 digits yyyyMMdd",
                assertThrows(IllegalArgumentException.class, () -> DateGroup.DAY.parse("2026x203")).getMessage());
    }

    @Test
    void prefixesArePrintableAsciiWithoutSpacesUpTo32() {
        String edges = "!~" + "P".repeat(30);
        assertEquals(edges, BusinessNumberFormat.builder().prefix(edges).build().prefix());
        for (String bad : new String[] {"A B", "A\u007fB", "P".repeat(33)}) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> BusinessNumberFormat.builder().prefix(bad))
                    .getMessage().endsWith("must be 0 to 32 printable ASCII characters without spaces"), bad);
        }
    }

    @Test
    void aPatternOfCounterAloneHasNoDate() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BusinessNumberFormat.builder().pattern("NNNNNN")).getMessage()
                .contains("it has no date yyyyMMdd, yyyyMM or yyyy before the counter"));
    }

    @Test
    void formatsSayWhatTheyAre() {
        BusinessNumberFormat tokyo = BusinessNumberFormat.builder().pattern("T-yyyyMM-NNN").zone(ZoneId.of("Asia/Tokyo"))
                .build();
        assertEquals(ZoneId.of("Asia/Tokyo"), tokyo.zone());
        assertEquals("T-yyyyMM-NNN (Asia/Tokyo)", tokyo.toString());
        BusinessNumber n = tokyo.parse("T-202612-007");
        assertEquals("T-202612-007", n.toString());
        assertEquals(1, new BusinessNumber("x", "", LocalDate.EPOCH, 1).counter());
        assertThrows(IllegalArgumentException.class, () -> new BusinessNumber("x", "", LocalDate.EPOCH, 0));
    }

    @Test
    void aMalformedNumberReadBackIsItsOwnExceptionNamingTextAndPattern() {
        BusinessNumberFormat inv = BusinessNumberFormat.builder().pattern("INV-yyyyMMdd-NNNNNN").build();
        MalformedBusinessNumberException e = assertThrows(MalformedBusinessNumberException.class,
                () -> inv.parse("INV-2026-7"));
        assertEquals("INV-2026-7", e.text());
        assertEquals("INV-yyyyMMdd-NNNNNN", e.pattern());
        assertTrue(e.getMessage().startsWith("not a business number of pattern INV-yyyyMMdd-NNNNNN: 'INV-2026-7': "),
                e.getMessage());
        assertThrows(MalformedBusinessNumberException.class, () -> inv.parse("INV-20261332-000001"));
    }

    @Test
    void sourcesNameThemselves() {
        assertEquals("in-memory", new InMemorySegmentSource().describe());
        assertEquals("Named", new Named().describe());
        SegmentSource anonymous = new SegmentSource() {
            @Override
            public SegmentGrant grant(String name, long step) {
                return null;
            }
        };
        assertEquals(anonymous.getClass().getName(), anonymous.describe());
    }

    @Test
    void theWaitAfterALostWriteDoublesUpToTheSixthAndStartsAtOneNanosecond() {
        java.util.random.RandomGenerator highest = new java.util.random.RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public long nextLong(long origin, long bound) {
                return bound - 1;
            }
        };
        long[] longest = new long[9];
        for (int lost = 0; lost <= 8; lost++) {
            longest[lost] = SegmentSource.backOffNanos(lost, highest) + 1;
        }
        // 100 µs × 2^min(lost, 6), lost counted from 1
        assertEquals(java.util.List.of(200_000L, 200_000L, 400_000L, 800_000L, 1_600_000L, 3_200_000L, 6_400_000L,
                6_400_000L, 6_400_000L), java.util.Arrays.stream(longest).boxed().toList());
        java.util.random.RandomGenerator lowest = new java.util.random.RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public long nextLong(long origin, long bound) {
                return origin;
            }
        };
        assertEquals(1, SegmentSource.backOffNanos(3, lowest));
    }

    private static final class Named implements SegmentSource {
        @Override
        public SegmentGrant grant(String name, long step) {
            return null;
        }
    }
}
