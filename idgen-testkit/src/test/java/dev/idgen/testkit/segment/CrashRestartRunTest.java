package dev.idgen.testkit.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link CrashRestartRun} on stores in memory: one that keeps its counter, one that loses it, one that refuses. */
class CrashRestartRunTest {

    @Test
    void aStoreThatKeepsItsCounterShowsNoRepeat() throws Exception {
        InMemorySegmentSource kept = new InMemorySegmentSource();
        CrashRestartRun.Report r = CrashRestartRun.run(round -> kept, outage(() -> { }), "orders", 10, 4, 2,
                Duration.ofSeconds(1));
        assertEquals(4, r.rounds());
        assertEquals(9, r.grants());
        assertEquals(90, r.numbers());
        assertEquals(0, r.repeats());
        assertNull(r.refusal());
    }

    @Test
    void aStoreThatComesBackEmptyShowsEachLostRangeAgain() throws Exception {
        AtomicReference<InMemorySegmentSource> store = new AtomicReference<>(new InMemorySegmentSource());
        CrashRestartRun.Report r = CrashRestartRun.run(round -> store.get(),
                outage(() -> store.set(new InMemorySegmentSource())), "orders", 10, 3, 2, Duration.ofSeconds(1));
        // rounds 1 and 2 take 1..20 again, the grant after the last restart 1..10
        assertEquals(2 * 20 + 10, r.repeats(), r.summary());
    }

    @Test
    void aRefusalEndsTheRunWithItsMessage() throws Exception {
        SegmentSource refusing = new SegmentSource() {
            @Override
            public SegmentGrant grant(String name, long step) {
                throw new SegmentStoreRefusedException("appendonly is no");
            }
        };
        CrashRestartRun.Report r = CrashRestartRun.run(round -> refusing, outage(() -> { }), "orders", 10, 3, 2,
                Duration.ofSeconds(1));
        assertEquals("appendonly is no", r.refusal());
        assertEquals(0, r.rounds());
        assertEquals(0, r.grants());
    }

    @Test
    void overlapsAreCountedNumberByNumber() {
        Instant t = Instant.EPOCH;
        assertEquals(0, CrashRestartRun.repeats(List.of(new SegmentGrant(1, 10, t), new SegmentGrant(11, 20, t))));
        assertEquals(5, CrashRestartRun.repeats(List.of(new SegmentGrant(11, 20, t), new SegmentGrant(6, 15, t))));
        assertEquals(3, CrashRestartRun.repeats(List.of(new SegmentGrant(1, 10, t), new SegmentGrant(4, 6, t))));
    }

    private static StoreOutage outage(Runnable onStop) {
        return new StoreOutage() {
            @Override
            public void stop() {
                onStop.run();
            }

            @Override
            public void start() {
            }
        };
    }
}
