package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.SegmentGeneratorTest.HandClock;
import dev.idgen.segment.SegmentGeneratorTest.ScriptedSource;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import org.junit.jupiter.api.Test;

/**
 * A caller that finds every range spent: how long it waits, how often it asks the store again, what
 * wakes it and what it says when nothing comes. Waits are counted through {@link CountingWaits}
 * (no test sleeps); the tests that need a real wake-up block on a condition with an hour's bound
 * and are released by the event under test, within a generous timeout.
 */
class SegmentGeneratorWaitTest {

    /** How long a test waits for something another thread does; generous, never a measurement. */
    private static final long TIMEOUT_SECONDS = 30;

    private static final Duration MS_10 = Duration.ofMillis(10);

    private static SegmentGenerator.Builder inline(SegmentSource source, CountingWaits waits) {
        return SegmentGenerator.builder().source(source).name("orders").executor(Runnable::run)
                .clock(new HandClock()).waitClock(waits);
    }

    @Test
    void aCallerWaitsMaxWaitForAHangingStoreThenNamesTheGrantInFlight() throws Exception {
        ScriptedSource source = new ScriptedSource();
        source.gate = new CountDownLatch(1);
        CountingWaits waits = new CountingWaits();
        // the store call is under way before the caller's time runs: the message can say for how long
        waits.during(n -> assertTrue(source.entered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)));
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(10)
                .maxWait(Duration.ofMillis(80)).waitClock(waits).build()) {
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            // retryPause (100 ms) is longer than maxWait: one wait, of all of maxWait
            assertEquals(List.of(Duration.ofMillis(80)), waits.waits());
            String m = e.getMessage();
            assertTrue(m.contains("no new one came within 80 ms (maxWait PT0.08S)"), m);
            assertTrue(m.contains("a grant of step 10 has been in flight for 80 ms without an answer"), m);
            assertNull(e.getCause(), "no grant failed");
            assertEquals(1, g.waits());
            assertEquals(0, g.fetches());
        } finally {
            source.gate.countDown();
        }
    }

    @Test
    void aWaitingCallerAsksTheStoreAgainEveryRetryPauseUntilMaxWait() {
        ScriptedSource source = new ScriptedSource();
        source.good = 1;
        CountingWaits waits = new CountingWaits();
        try (SegmentGenerator g = inline(source, waits).step(2).prefetch(0, 0).maxWait(Duration.ofMillis(60))
                .retryPause(MS_10).build()) {
            assertEquals(1, g.nextLong());
            assertEquals(2, g.nextLong());
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            // asked when the range ran out, and again at 10, 20, 30, 40 and 50 ms; at 60 ms it gives up
            assertEquals(Collections.nCopies(6, MS_10), waits.waits());
            assertEquals(1 + 6, source.calls.get());
            String m = e.getMessage();
            assertTrue(m.contains("no new one came within 60 ms"), m);
            assertTrue(m.contains("tried 6 grants of step 2 since "), m);
            assertTrue(m.endsWith("the last with: java.lang.IllegalStateException: connection refused (scripted)"), m);
            assertSame(g.lastError(), e.getCause());
            assertEquals(6, g.failedFetches());
        }
    }

    @Test
    void aWaitingCallerGetsTheRangeTheStoreGrantsWhenAskedAgain() {
        ScriptedSource source = new ScriptedSource();
        source.good = 1;
        CountingWaits waits = new CountingWaits();
        waits.during(n -> {
            if (n == 3) {
                source.good = Integer.MAX_VALUE; // the store is back for the ask at 30 ms
            }
        });
        try (SegmentGenerator g = inline(source, waits).step(2).prefetch(0, 0).maxWait(Duration.ofSeconds(1))
                .retryPause(MS_10).build()) {
            g.nextLong();
            g.nextLong();
            assertEquals(3, g.nextLong());
            assertEquals(Collections.nCopies(3, MS_10), waits.waits());
            assertEquals(1, g.waits(), "one call waited");
            assertEquals(3, g.failedFetches(), "the asks at 0, 10 and 20 ms failed");
            assertFalse(g.storeFailing());
            assertNull(g.failingSince());
            assertEquals(4, g.nextLong(), "the range granted on asking again is used to its end");
        }
    }

    @Test
    void aGrantOverlappingTheLastRangeByOneNumberIsRefusedAndTheNextOneAboveIsUsed() {
        SegmentGeneratorTest.ListedSource source = new SegmentGeneratorTest.ListedSource(
                new long[] {1, 2}, new long[] {2, 3}, new long[] {3, 4});
        CountingWaits waits = new CountingWaits();
        try (SegmentGenerator g = inline(source, waits).step(2).prefetch(0, 0).maxWait(Duration.ofSeconds(1))
                .retryPause(MS_10).build()) {
            assertEquals(1, g.nextLong());
            assertEquals(2, g.nextLong());
            // [2, 3] would hand out 2 a second time: refused, and the caller asks again after a pause
            assertEquals(3, g.nextLong());
            assertEquals(4, g.nextLong());
            assertEquals(List.of(MS_10), waits.waits());
            assertEquals(1, g.failedFetches());
            assertTrue(g.lastError().getMessage().startsWith(
                    "store granted [2, 3], not above the last range held [1, 2]; refused"), g.lastError().getMessage());
        }
    }

    @Test
    void aStoreThatGrantsNothingIsRefusedByName() {
        SegmentSource nothing = (name, step) -> null;
        CountingWaits waits = new CountingWaits();
        try (SegmentGenerator g = inline(nothing, waits).maxWait(MS_10).build()) {
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getCause().getMessage().startsWith("store granted nothing, not above the last range held"),
                    e.getCause().getMessage());
        }
    }

    @Test
    void aStoreThatThrowsAnErrorIsAFailedGrantNamedInTheMessage() {
        SegmentSource broken = (name, step) -> {
            throw new AssertionError("boom");
        };
        CountingWaits waits = new CountingWaits();
        try (SegmentGenerator g = inline(broken, waits).maxWait(MS_10).build()) {
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getMessage().contains("tried 1 grant of step 1000 since "), e.getMessage());
            assertTrue(e.getMessage().endsWith("the last with: java.lang.AssertionError: boom"), e.getMessage());
        }
    }

    @Test
    void anExecutorThatNeverRunsTheFetchIsNamed() {
        CountingWaits waits = new CountingWaits();
        AtomicInteger submitted = new AtomicInteger();
        try (SegmentGenerator g = SegmentGenerator.builder().source(new InMemorySegmentSource()).name("orders")
                .executor(task -> submitted.incrementAndGet()).waitClock(waits).maxWait(Duration.ofMillis(30)).build()) {
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getMessage().endsWith("the fetch task has not run (is the executor busy or shut down?)"),
                    e.getMessage());
            assertNull(e.getCause());
            assertEquals(1, submitted.get(), "asked once; asking again while it is pending does not queue it twice");
        }
    }

    @Test
    void aRejectingExecutorIsAFailedGrantAndIsAskedAgainLater() {
        AtomicInteger executions = new AtomicInteger();
        java.util.concurrent.Executor rejectsFirst = task -> {
            if (executions.incrementAndGet() == 1) {
                throw new RejectedExecutionException("queue full (scripted)");
            }
            task.run();
        };
        CountingWaits waits = new CountingWaits();
        try (SegmentGenerator g = SegmentGenerator.builder().source(new InMemorySegmentSource()).name("orders")
                .executor(rejectsFirst).clock(new HandClock()).waitClock(waits).retryPause(MS_10).build()) {
            assertEquals(1, g.nextLong());
            assertEquals(List.of(MS_10), waits.waits());
            assertEquals(1, g.failedFetches());
            assertTrue(g.lastError() instanceof RejectedExecutionException, String.valueOf(g.lastError()));
        }
    }

    @Test
    void anInterruptedWaitEndsTheCallAndKeepsTheInterrupt() {
        ScriptedSource source = new ScriptedSource();
        source.good = 0;
        CountingWaits waits = new CountingWaits();
        waits.during(n -> {
            throw new InterruptedException("scripted");
        });
        try (SegmentGenerator g = inline(source, waits).build()) {
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertEquals("interrupted while waiting for a range of 'orders' from scripted-store", e.getMessage());
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller's caller");
        }
    }

    @Test
    void theTimeAGrantTakesIsCounted() {
        CountingWaits waits = new CountingWaits();
        InMemorySegmentSource memory = new InMemorySegmentSource();
        SegmentSource slow = (name, step) -> {
            waits.advance(Duration.ofMillis(7));
            return memory.grant(name, step);
        };
        try (SegmentGenerator g = inline(slow, waits).step(5).prefetch(0, 0).build()) {
            g.nextLong();
            g.nextLong();
            assertEquals(Duration.ofMillis(7).toNanos(), g.fetchNanos());
            assertEquals(1, g.fetches());
        }
    }

    /** A wait clock over the real condition that says when a caller is about to block in it. */
    private static final class ObservedWaits implements WaitClock {
        final CountDownLatch waiting = new CountDownLatch(1);

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void await(Condition arrived, long nanos) throws InterruptedException {
            // the caller holds the lock until awaitNanos releases it: a signal cannot come in between
            waiting.countDown();
            arrived.awaitNanos(nanos);
        }
    }

    @Test
    void aCallerBlockedInTheWaitIsWokenByTheRangeThatArrivesAndLeavesTheLockFree() throws Exception {
        ScriptedSource source = new ScriptedSource();
        source.gate = new CountDownLatch(1);
        ObservedWaits waits = new ObservedWaits();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(10)
                .maxWait(Duration.ofHours(1)).retryPause(Duration.ofHours(1)).waitClock(waits).build()) {
            Future<Long> number = caller.submit(g::nextLong);
            assertTrue(waits.waiting.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            source.gate.countDown();
            // without a signal the caller would sleep its hour out
            assertEquals(1L, number.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            // the caller's thread is still alive; had it kept the lock, closing (which signals) would block
            CompletableFuture.runAsync(g::close).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void closingWakesABlockedCallerAndEndsTheFetchThreadMidGrant() throws Exception {
        ScriptedSource source = new ScriptedSource();
        source.gate = new CountDownLatch(1);
        ObservedWaits waits = new ObservedWaits();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(10)
                .maxWait(Duration.ofHours(1)).retryPause(Duration.ofHours(1)).waitClock(waits).build();
        try {
            Future<Long> number = caller.submit(g::nextLong);
            assertTrue(waits.waiting.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertTrue(source.entered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            g.close();
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> number.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals("segment generator for 'orders' on scripted-store is closed and every range it fetched is"
                    + " spent", e.getCause().getMessage());
            // the store call in flight was interrupted, and the generator's own thread ended
            assertTrue(source.interrupted.await(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            source.fetchThread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertFalse(source.fetchThread.isAlive());
        } finally {
            caller.shutdownNow();
            source.gate.countDown();
        }
    }
}
