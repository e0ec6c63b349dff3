package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SegmentGeneratorTest {

    /** Runs the prefetch task on the thread that asks for it: every grant happens at a known point. */
    private static final java.util.concurrent.Executor INLINE = Runnable::run;

    /** A clock the test moves by hand. */
    static final class HandClock implements InstantSource {
        final AtomicLong millis = new AtomicLong(1_800_000_000_000L);

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        void advance(long ms) {
            millis.addAndGet(ms);
        }
    }

    /** Grants from an in-memory counter, the first {@code good} times; then fails (or blocks). */
    static final class ScriptedSource implements SegmentSource {
        final InMemorySegmentSource memory = new InMemorySegmentSource(InstantSource.fixed(Instant.EPOCH));
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger threadsSeen = new AtomicInteger();
        volatile int good = Integer.MAX_VALUE;
        volatile CountDownLatch gate;
        volatile Thread fetchThread;
        /** Counted down when a grant has begun, and when one was interrupted. */
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch interrupted = new CountDownLatch(1);

        @Override
        public SegmentGrant grant(String name, long step) {
            int call = calls.incrementAndGet();
            fetchThread = Thread.currentThread();
            entered.countDown();
            CountDownLatch g = gate;
            if (g != null) {
                try {
                    g.await();
                } catch (InterruptedException e) {
                    interrupted.countDown();
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted");
                }
            }
            if (call > good) {
                throw new IllegalStateException("connection refused (scripted)");
            }
            return memory.grant(name, step);
        }

        @Override
        public String describe() {
            return "scripted-store";
        }
    }

    /** Grants the ranges it is given, in order, whatever the step; then the last one again. */
    static final class ListedSource implements SegmentSource {
        private final long[][] ranges;
        private final AtomicInteger calls = new AtomicInteger();

        ListedSource(long[]... ranges) {
            this.ranges = ranges;
        }

        @Override
        public SegmentGrant grant(String name, long step) {
            int call = Math.min(calls.getAndIncrement(), ranges.length - 1);
            return new SegmentGrant(ranges[call][0], ranges[call][1], Instant.EPOCH);
        }
    }

    private static SegmentGenerator.Builder inline(SegmentSource source) {
        return SegmentGenerator.builder().source(source).name("orders").executor(INLINE).clock(new HandClock());
    }

    @Test
    void numbersStartAtOneAndCountUpThroughRanges() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        try (SegmentGenerator g = inline(source).step(3).prefetch(0, 0).build()) {
            for (long expected = 1; expected <= 10; expected++) {
                assertEquals(expected, g.nextLong());
            }
        }
    }

    @Test
    void withoutPrefetchRoundTripsAreNumbersDividedByStep() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        AtomicInteger tasks = new AtomicInteger();
        try (SegmentGenerator g = inline(source).executor(task -> {
            tasks.incrementAndGet();
            task.run();
        }).step(100).prefetch(0, 0).build()) {
            for (int i = 0; i < 50_000; i++) {
                g.nextLong();
            }
            assertEquals(500, source.grants());
            assertEquals(500, tasks.get(), "without prefetch the task runs only when a caller finds the range spent");
            assertEquals(500, g.fetches());
            assertEquals(0, g.numbersLeft());
            g.nextLong();
            assertEquals(501, source.grants());
        }
    }

    @Test
    void withOneRangeAheadRoundTripsAreNumbersDividedByStepPlusTheOneAhead() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        try (SegmentGenerator g = inline(source).step(100).prefetch(1, 1).build()) {
            for (int i = 0; i < 50_000; i++) {
                g.nextLong();
            }
            // the last range is spent but not left yet; the one ahead was fetched when it began
            assertEquals(501, source.grants());
            assertEquals(100, g.numbersLeft());
            assertEquals(50_000 + 100, source.lastGranted("orders"), "every granted number is used or held");
        }
    }

    @Test
    void prefetchGrowsWhileRangesGoFastAndShrinksWhenIdle() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        HandClock clock = new HandClock();
        try (SegmentGenerator g = inline(source).clock(clock).step(10).prefetch(1, 8).horizon(Duration.ofMillis(100))
                .build()) {
            assertEquals(1, g.prefetchTarget());
            for (int i = 0; i < 20; i++) { // two ranges, no time passes: lifetime 0 ms
                g.nextLong();
            }
            g.nextLong(); // third range: the move measures the second's lifetime (0 ms)
            assertEquals(8, g.prefetchTarget(), "a range that lasted under 1 ms wants the maximum");
            // the target reached 8 at the move to range 2, which fetched up to range 10; the move to
            // range 3 left 7 ready, more than half the target, so it did not wake the task
            assertEquals(10, source.grants(), "three ranges begun and seven ready");
            // now slow: every range lasts 1 s, beyond the horizon; the target steps down one per range
            List<Integer> targets = new ArrayList<>();
            for (int r = 0; r < 9; r++) {
                clock.advance(1000);
                for (int i = 0; i < 10; i++) {
                    g.nextLong();
                }
                targets.add(g.prefetchTarget());
            }
            assertEquals(List.of(7, 6, 5, 4, 3, 2, 1, 1, 1), targets);
            // medium: 25 ms per range wants 100/25 = 4 ahead, reached at once
            for (int r = 0; r < 2; r++) {
                clock.advance(25);
                for (int i = 0; i < 10; i++) {
                    g.nextLong();
                }
            }
            assertEquals(4, g.prefetchTarget());
        }
    }

    @Test
    void aFastCallerWakesTheTaskOnceHalfTheTargetIsSpentNotOnEveryRange() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        try (SegmentGenerator g = inline(source).step(10).prefetch(1, 8).horizon(Duration.ofMillis(100)).build()) {
            for (int i = 0; i < 11; i++) { // the move to range 2 measures range 1 (0 ms): target 8
                g.nextLong();
            }
            assertEquals(8, g.prefetchTarget());
            assertEquals(10, source.grants(), "range 2 begun, ranges 3 to 10 ready");
            List<Long> grantsAtEachMove = new ArrayList<>();
            for (int range = 3; range <= 11; range++) {
                for (int i = 0; i < 10; i++) {
                    g.nextLong();
                }
                grantsAtEachMove.add(source.grants());
            }
            // moves to ranges 3..11; the task tops up to 8 ready when 4 or fewer are left (ranges 6 and 10)
            assertEquals(List.of(10L, 10L, 10L, 14L, 14L, 14L, 14L, 18L, 18L), grantsAtEachMove);
            assertEquals(102, g.nextLong(), "101 numbers handed out before: none skipped across the moves");
        }
    }

    @Test
    void prefetchRunsOffTheCallersThreadByDefault() throws Exception {
        ScriptedSource source = new ScriptedSource();
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(5).build()) {
            assertEquals(1, g.nextLong());
            assertEquals("idgen-segment-orders", source.fetchThread.getName());
            assertTrue(source.fetchThread.isDaemon(), "the fetch thread never keeps the JVM alive");
        }
    }

    @Test
    void failingStoreIsSilentUntilEveryRangeIsSpentThenNamesStoreNameAndWhatWasTried() {
        ScriptedSource source = new ScriptedSource();
        source.good = 3;
        try (SegmentGenerator g = inline(source).step(10).prefetch(2, 2).maxWait(Duration.ofMillis(60))
                .retryPause(Duration.ofMillis(10)).build()) {
            long[] got = new long[30];
            for (int i = 0; i < 30; i++) {
                got[i] = g.nextLong(); // every granted number comes out although the store fails behind
            }
            assertEquals(1, got[0]);
            assertEquals(30, got[29]);
            assertTrue(g.failedFetches() > 0, "the store failed while ranges were left");
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            String m = e.getMessage();
            assertTrue(m.contains("scripted-store"), m);
            assertTrue(m.contains("'orders'"), m);
            assertTrue(m.contains("step 10"), m);
            assertTrue(m.matches(".*tried \\d+ grants?.*"), m);
            assertTrue(m.contains("connection refused (scripted)"), m);
            assertTrue(m.contains("maxWait PT0.06S"), m);
            // the store comes back: numbers continue above everything handed out
            source.good = Integer.MAX_VALUE;
            assertEquals(31, g.nextLong());
        }
    }

    @Test
    void aRangeBelowTheLastOneIsRefused() {
        // a store restored from an old backup: the second grant repeats the first
        ListedSource goesBack = new ListedSource(new long[] {1, 2}, new long[] {1, 2});
        try (SegmentGenerator g = inline(goesBack).step(2).prefetch(0, 0).maxWait(Duration.ofMillis(30))
                .retryPause(Duration.ofMillis(10)).waitClock(new CountingWaits()).build()) {
            assertEquals(1, g.nextLong());
            assertEquals(2, g.nextLong());
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getMessage().contains("not above the last range held [1, 2]"), e.getMessage());
        }
    }

    @Test
    void aRangeMayStartAtZeroAndHoldOneNumber() {
        ListedSource fromZero = new ListedSource(new long[] {0, 0}, new long[] {1, 1}, new long[] {2, 4},
                new long[] {5, 5});
        try (SegmentGenerator g = inline(fromZero).step(1).prefetch(0, 0).build()) {
            for (long expected = 0; expected <= 5; expected++) {
                assertEquals(expected, g.nextLong());
            }
        }
    }

    @Test
    void stepOneHandsOutEveryNumberWithAndWithoutPrefetch() {
        for (int prefetch = 0; prefetch <= 2; prefetch++) {
            InMemorySegmentSource source = new InMemorySegmentSource();
            try (SegmentGenerator g = inline(source).step(1).prefetch(prefetch, prefetch).build()) {
                for (long expected = 1; expected <= 20; expected++) {
                    assertEquals(expected, g.nextLong(), "prefetch " + prefetch);
                }
            }
        }
    }

    @Test
    void rangesOfOneNumberAdaptThePrefetchTooAndEqualDemandKeepsIt() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        HandClock clock = new HandClock();
        try (SegmentGenerator g = inline(source).clock(clock).step(1).prefetch(1, 8).horizon(Duration.ofMillis(100))
                .build()) {
            g.nextLong();
            g.nextLong(); // the move to range 2 measures range 1: under 1 ms
            assertEquals(8, g.prefetchTarget());
            // 30 ms a range wants ceil(100 / 30) = 4 ranges ahead: down one a range to 4, then it stays
            List<Integer> targets = new ArrayList<>();
            for (int r = 0; r < 6; r++) {
                clock.advance(30);
                g.nextLong();
                targets.add(g.prefetchTarget());
            }
            assertEquals(List.of(7, 6, 5, 4, 4, 4), targets);
        }
    }

    @Test
    void numbersLeftCountsTheRestOfTheCurrentRangeAndTheReadyOnes() {
        InMemorySegmentSource source = new InMemorySegmentSource();
        try (SegmentGenerator g = inline(source).step(10).prefetch(1, 1).build()) {
            for (int i = 0; i < 3; i++) {
                g.nextLong();
            }
            assertEquals(7 + 10, g.numbersLeft());
        }
    }

    @Test
    void aFailingStoreIsReportedFromItsFirstFailureUntilItAnswers() {
        ScriptedSource source = new ScriptedSource();
        source.good = 1;
        HandClock clock = new HandClock();
        Instant firstFailure = clock.instant().plusMillis(5);
        try (SegmentGenerator g = inline(source).clock(clock).step(2).prefetch(0, 0).maxWait(Duration.ofMillis(10))
                .retryPause(Duration.ofMillis(10)).waitClock(new CountingWaits()).build()) {
            g.nextLong();
            g.nextLong();
            assertFalse(g.storeFailing());
            assertEquals(null, g.failingSince());
            assertEquals(null, g.lastError());
            clock.advance(5);
            assertThrows(SegmentUnavailableException.class, g::nextLong);
            clock.advance(100);
            assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(g.storeFailing());
            assertEquals(firstFailure, g.failingSince(), "since the first failure of the run, not the last");
            assertEquals("connection refused (scripted)", g.lastError().getMessage());
            source.good = Integer.MAX_VALUE;
            assertEquals(3, g.nextLong());
            assertFalse(g.storeFailing());
            assertEquals(null, g.failingSince());
        }
    }

    @Test
    void describesItself() {
        try (SegmentGenerator g = inline(new InMemorySegmentSource()).step(7).prefetch(1, 3).build()) {
            assertEquals("orders", g.name());
            assertEquals(7, g.step());
            assertEquals("SegmentGenerator[orders on in-memory, step 7, prefetch 1..3 (now 1)]", g.toString());
        }
    }

    @Test
    void threadsGetDistinctNumbersEachIncreasingAllFromGrantedRanges() throws Exception {
        InMemorySegmentSource source = new InMemorySegmentSource();
        int threads = 4;
        int each = 250_000;
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(64).prefetch(1, 8)
                .maxWait(Duration.ofSeconds(10)).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    long[] mine = new long[each];
                    for (int i = 0; i < each; i++) {
                        mine[i] = g.nextLong();
                    }
                    return mine;
                }));
            }
            start.countDown();
            long[] all = new long[threads * each];
            int k = 0;
            for (Future<long[]> f : results) {
                long[] mine = f.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < mine.length; i++) {
                    assertTrue(mine[i] > mine[i - 1], "a thread saw " + mine[i - 1] + " then " + mine[i]);
                }
                System.arraycopy(mine, 0, all, k, each);
                k += each;
            }
            pool.shutdown();
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertFalse(all[i] == all[i - 1], "repeated " + all[i]);
            }
            assertTrue(all[0] >= 1);
            assertTrue(all[all.length - 1] <= source.lastGranted("orders"), "a number beyond every grant");
            assertEquals(source.lastGranted("orders"), all.length + g.numbersLeft(),
                    "granted = handed out + held: no number lost while running");
        }
    }

    @Test
    void badInputIsNamed() {
        SegmentGenerator.Builder b = SegmentGenerator.builder();
        assertEquals("segment step 0 is out of range: 1 to 1,099,511,627,776 (2^40)",
                assertThrows(IllegalArgumentException.class, () -> b.step(0)).getMessage());
        assertEquals(SegmentGenerator.MAX_STEP, SegmentGenerator.checkStep(SegmentGenerator.MAX_STEP));
        assertThrows(IllegalArgumentException.class, () -> b.step(SegmentGenerator.MAX_STEP + 1));
        assertEquals("x".repeat(128), SegmentGenerator.checkName("x".repeat(128)));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.step(-5)).getMessage().contains("-5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.name(" ")).getMessage()
                .contains("must be 1 to 128 characters, not blank"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.name("x".repeat(129))).getMessage()
                .contains("length 129"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.name("a\nb")).getMessage()
                .contains("control"));
        assertEquals("prefetch bounds (3, 2) must satisfy 0 <= min <= max <= 1024",
                assertThrows(IllegalArgumentException.class, () -> b.prefetch(3, 2)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.prefetch(-1, 2)).getMessage().contains("-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.maxWait(Duration.ZERO)).getMessage()
                .contains("maxWait PT0S is out of range"));
        assertTrue(assertThrows(IllegalStateException.class, b::build).getMessage().contains("source missing"));
        assertTrue(assertThrows(IllegalStateException.class,
                () -> SegmentGenerator.builder().source(new InMemorySegmentSource()).build()).getMessage()
                .endsWith("(source set, name missing)"));
        assertEquals("prefetch bounds (0, 1025) must satisfy 0 <= min <= max <= 1024",
                assertThrows(IllegalArgumentException.class, () -> b.prefetch(0, 1025)).getMessage());
        b.prefetch(0, SegmentGenerator.MAX_PREFETCH);
        assertThrows(IllegalArgumentException.class, () -> new SegmentGrant(5, 4, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new SegmentGrant(-1, 4, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new SegmentGrant(1, Long.MAX_VALUE, Instant.EPOCH));
    }
}
