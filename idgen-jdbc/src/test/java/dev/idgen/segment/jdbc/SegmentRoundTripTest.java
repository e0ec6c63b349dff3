package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Store round trips = numbers ÷ step, counted at the source and read back from the table's row. The
 * fetches run on the caller's thread (an inline executor), so the counts are exact when read.
 */
class SegmentRoundTripTest {

    private static final int NUMBERS = 50_000;
    private static final long STEP = 500;

    /** Counts the grants that reach the store. */
    private static final class Counting implements SegmentSource {
        final SegmentSource store;
        final AtomicLong grants = new AtomicLong();

        Counting(SegmentSource store) {
            this.store = store;
        }

        @Override
        public SegmentGrant grant(String name, long step) {
            SegmentGrant granted = store.grant(name, step);
            grants.incrementAndGet();
            return granted;
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void withoutPrefetchOneRoundTripPerStepNumbers(SegmentDatabase db) throws Exception {
        String table = SegmentDatabase.freshTable();
        Counting source = new Counting(JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build());
        try (SegmentGenerator gen = SegmentGenerator.builder().source(source).name("trips").step(STEP)
                .prefetch(0, 0).executor(Runnable::run).build()) {
            for (int i = 1; i <= NUMBERS; i++) {
                assertEquals(i, gen.nextLong());
            }
            assertEquals(NUMBERS / STEP, source.grants.get(), "grants for " + NUMBERS + " numbers of step " + STEP);
            assertEquals(NUMBERS / STEP, gen.fetches());
            assertEquals(NUMBERS, SegmentTwoProcessTest.lastValue(db, table, "trips"), "the store moved on by");
        } finally {
            db.drop(table);
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void withPrefetchEveryRoundTripIsANumberTakenOrStillHeld(SegmentDatabase db) throws Exception {
        String table = SegmentDatabase.freshTable();
        Counting source = new Counting(JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build());
        try (SegmentGenerator gen = SegmentGenerator.builder().source(source).name("trips").step(STEP)
                .prefetch(1, 4).executor(Runnable::run).build()) {
            for (int i = 1; i <= NUMBERS; i++) {
                assertEquals(i, gen.nextLong());
            }
            long grants = source.grants.get();
            assertEquals(grants * STEP, NUMBERS + gen.numbersLeft(), "every granted number is taken or still held");
            assertEquals(grants * STEP, SegmentTwoProcessTest.lastValue(db, table, "trips"), "the store moved on by");
            assertEquals(true, grants > NUMBERS / STEP && grants <= NUMBERS / STEP + 1 + 4,
                    grants + " grants: the " + NUMBERS / STEP + " spent plus at most 1 + 4 ahead");
        } finally {
            db.drop(table);
        }
    }
}
