package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.decode.DecodedId;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BusinessNumberTest {

    private static final BusinessNumberFormat INV = BusinessNumberFormat.builder().prefix("INV").group(DateGroup.DAY)
            .width(6).build();

    @Test
    void writesAndReadsNumbersOfEachGroup() {
        LocalDate d = LocalDate.of(2026, 12, 3);
        assertEquals("INV-20261203-000042", INV.format(d, 42));
        assertEquals("INV-yyyyMMdd-NNNNNN", INV.pattern());
        BusinessNumber n = INV.parse("INV-20261203-000042");
        assertEquals("INV", n.prefix());
        assertEquals(d, n.date());
        assertEquals(42, n.counter());

        BusinessNumberFormat month = BusinessNumberFormat.builder().prefix("ORD").group(DateGroup.MONTH).width(4)
                .separator("/").build();
        assertEquals("ORD/202612/0007", month.format(d, 7));
        assertEquals(LocalDate.of(2026, 12, 1), month.parse("ORD/202612/0007").date());

        BusinessNumberFormat year = BusinessNumberFormat.builder().group(DateGroup.YEAR).width(3).build();
        assertEquals("2026-999", year.format(d, 999));
        assertEquals(999, year.parse("2026-999").counter());
        assertEquals(LocalDate.of(2026, 1, 1), year.parse("2026-999").date());
        assertEquals("invoice:2026", year.counterName("invoice", d));
        assertEquals("invoice:20261203", INV.counterName("invoice", d));
    }

    @Test
    void decodesToNamedFields() {
        DecodedId id = INV.decode("INV-20261203-000042");
        assertEquals("business number", id.kind());
        assertEquals(Instant.parse("2026-12-03T00:00:00Z"), id.time().orElseThrow());
        assertEquals(List.of("prefix=INV", "date=2026-12-03 (day group)", "counter=42"),
                id.fields().stream().map(Object::toString).toList());
    }

    @Test
    void refusesWhatIsNotOfThePattern() {
        for (String bad : List.of("INV-20261203-00042", "INX-20261203-000042", "INV-20261332-000042",
                "INV-20261203-000000", "INV-20261203-00004x", "INV_20261203-000042", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> INV.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("not a business number of pattern INV-yyyyMMdd-NNNNNN: '" + bad + "'"),
                    e.getMessage());
        }
        assertEquals("business number counter 1000000 is out of range 1..999999 for pattern INV-yyyyMMdd-NNNNNN"
                + " (group 20261203); widen the pattern",
                assertThrows(IllegalArgumentException.class, () -> INV.format(LocalDate.of(2026, 12, 3), 1_000_000))
                        .getMessage());
        assertEquals("width 19 is out of range 1..18",
                assertThrows(IllegalArgumentException.class, () -> BusinessNumberFormat.builder().width(19))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> BusinessNumberFormat.builder().separator("1"));
        assertThrows(IllegalArgumentException.class, () -> BusinessNumberFormat.builder().prefix("IN V"));
    }

    @Test
    void theStoresDateDecidesTheGroupNotTheLocalClock() {
        SegmentGeneratorTest.HandClock store = new SegmentGeneratorTest.HandClock();
        store.millis.set(Instant.parse("2026-12-03T23:59:58Z").toEpochMilli());
        // the local clock is a day and a half ahead; only durations measured on it count
        SegmentGeneratorTest.HandClock local = new SegmentGeneratorTest.HandClock();
        local.millis.set(Instant.parse("2026-12-05T12:00:00Z").toEpochMilli());
        InMemorySegmentSource source = new InMemorySegmentSource(store);
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(source).name("invoice").format(INV)
                .step(5).clock(local).build();

        assertEquals("INV-20261203-000001", g.next());
        assertEquals("INV-20261203-000002", g.next());
        store.advance(3000); // the store passes midnight; so does the local estimate
        local.advance(3000);
        assertEquals("INV-20261204-000001", g.next(), "a new store day starts at 1");
        assertEquals("INV-20261204-000002", g.next());
        assertEquals(5, source.lastGranted("invoice:20261203"), "one range of the old day, its rest dropped");
        assertEquals(0, source.lastGranted("invoice:20261205"), "the local date was never used");

        // a restarted process (new generator) on the same store day continues above, never repeats
        BusinessNumberGenerator restarted = BusinessNumberGenerator.builder().source(source).name("invoice")
                .format(INV).step(5).clock(local).build();
        assertEquals("INV-20261204-000006", restarted.next());
    }

    @Test
    void aLocalClockThatRunsFastOnlyCostsAStoreReading() {
        SegmentGeneratorTest.HandClock store = new SegmentGeneratorTest.HandClock();
        store.millis.set(Instant.parse("2026-12-03T23:59:58Z").toEpochMilli());
        SegmentGeneratorTest.HandClock local = new SegmentGeneratorTest.HandClock();
        InMemorySegmentSource source = new InMemorySegmentSource(store);
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(source).name("invoice").format(INV)
                .step(10).clock(local).build();
        assertEquals("INV-20261203-000001", g.next());
        local.advance(5000); // the local estimate passes midnight, the store has not
        assertEquals("INV-20261203-000002", g.next(), "the store still says the 3rd: same group, same range");
        assertEquals(10, source.lastGranted("invoice:20261203"));
        assertEquals(0, source.lastGranted("invoice:20261204"), "no range taken under the estimate's day");
    }

    @Test
    void aGrantStampedInTheNextGroupIsDroppedAndTakenAgainUnderIt() {
        SegmentGeneratorTest.HandClock store = new SegmentGeneratorTest.HandClock();
        store.millis.set(Instant.parse("2026-12-04T00:00:00.001Z").toEpochMilli());
        InMemorySegmentSource memory = new InMemorySegmentSource(store);
        SegmentSource lagging = new SegmentSource() {
            @Override
            public SegmentGrant grant(String name, long step) {
                return memory.grant(name, step);
            }

            @Override
            public String recordPattern(String name, String pattern) {
                return memory.recordPattern(name, pattern);
            }

            @Override
            public Instant now() { // read just before midnight; the grant lands just after
                return Instant.parse("2026-12-03T23:59:59.999Z");
            }
        };
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(lagging).name("invoice").format(INV)
                .build();
        assertEquals("INV-20261204-000001", g.next());
        assertEquals(1, memory.lastGranted("invoice:20261203"), "a gap at the old day's end, never a repeat");
    }

    @Test
    void groupsInAZoneFollowThatZonesDate() {
        BusinessNumberFormat tokyo = BusinessNumberFormat.builder().prefix("T").zone(ZoneId.of("Asia/Tokyo")).build();
        assertEquals(LocalDate.of(2026, 12, 4), tokyo.groupOf(Instant.parse("2026-12-03T15:00:00Z")));
        assertEquals(LocalDate.of(2026, 12, 3), tokyo.groupOf(Instant.parse("2026-12-03T14:59:59Z")));
    }

    @Test
    void twoGeneratorsOnOneNameNeverRepeatANumberOfAGroup() {
        InMemorySegmentSource source = new InMemorySegmentSource(
                java.time.InstantSource.fixed(Instant.parse("2026-12-03T10:00:00Z")));
        BusinessNumberGenerator a = BusinessNumberGenerator.builder().source(source).name("invoice").format(INV)
                .step(3).build();
        BusinessNumberGenerator b = BusinessNumberGenerator.builder().source(source).name("invoice").format(INV)
                .step(3).build();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertTrue(seen.add(a.next()));
            assertTrue(seen.add(b.next()));
        }
        assertEquals(2 * 334 * 3, source.lastGranted("invoice:20261203"), "each took ceil(1000 / 3) ranges of 3");
    }

    @Test
    void anotherPatternUnderTheSameNameIsRefusedNamingBoth() {
        SegmentGeneratorTest.HandClock store = new SegmentGeneratorTest.HandClock();
        store.millis.set(Instant.parse("2026-12-03T10:00:00Z").toEpochMilli());
        InMemorySegmentSource source = new InMemorySegmentSource(store);
        BusinessNumberFormat daily = BusinessNumberFormat.builder().pattern("INVyyyyMMddNN").build();
        BusinessNumberFormat monthly = BusinessNumberFormat.builder().pattern("INVyyyyMMNNNN").build();
        BusinessNumberGenerator days = BusinessNumberGenerator.builder().source(source).name("invoice").format(daily)
                .build();
        Set<String> written = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            written.add(days.next());
        }
        assertTrue(written.contains("INV2026120301"));
        BusinessNumberGenerator months = BusinessNumberGenerator.builder().source(source).name("invoice")
                .format(monthly).build();
        PatternConflictException e = assertThrows(PatternConflictException.class, months::next);
        assertEquals("INVyyyyMMddNN", e.recorded());
        assertEquals("INVyyyyMMNNNN", e.requested());
        assertTrue(e.getMessage().startsWith("business numbers 'invoice' are recorded on in-memory with pattern"
                + " INVyyyyMMddNN; pattern INVyyyyMMNNNN is refused under the same name"), e.getMessage());
        assertEquals(0, source.lastGranted("invoice:202612"), "nothing granted to the refused pattern");
        assertThrows(PatternConflictException.class, months::checkPattern, "refused again, not only once");

        // the same pattern under the same name goes on counting; the new pattern under a name of its own too
        BusinessNumberGenerator again = BusinessNumberGenerator.builder().source(source).name("invoice").format(daily)
                .build();
        again.checkPattern();
        assertTrue(written.add(again.next()));
        BusinessNumberGenerator renamed = BusinessNumberGenerator.builder().source(source).name("invoice-monthly")
                .format(monthly).build();
        assertEquals("INV2026120001", renamed.next());
    }

    @Test
    void aStoreThatCannotRecordPatternsIsRefusedBeforeAnyGrant() {
        InMemorySegmentSource memory = new InMemorySegmentSource();
        SegmentSource noPatterns = new SegmentSource() {
            @Override
            public SegmentGrant grant(String name, long step) {
                return memory.grant(name, step);
            }

            @Override
            public Instant now() {
                return memory.now();
            }

            @Override
            public String describe() {
                return "patternless";
            }
        };
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(noPatterns).name("invoice").format(INV)
                .build();
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertTrue(e.getMessage().contains("could not record its pattern INV-yyyyMMdd-NNNNNN with patternless")
                && e.getMessage().contains("patternless cannot record the pattern of business numbers"), e.getMessage());
        assertEquals(0, memory.grants());
    }
}
