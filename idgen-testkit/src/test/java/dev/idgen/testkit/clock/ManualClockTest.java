package dev.idgen.testkit.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualClockTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void movesOnlyWhenTold() {
        ManualClock clock = ManualClock.at(T0);
        assertEquals(T0, clock.instant());
        assertEquals(T0.toEpochMilli(), clock.millis());
        clock.advance(Duration.ofMillis(5));
        assertEquals(T0.plusMillis(5), clock.instant());
        clock.stepBack(Duration.ofMillis(7));
        assertEquals(T0.minusMillis(2), clock.instant());
        clock.advanceMillis(2).stepBackMillis(1);
        assertEquals(T0.minusMillis(1), clock.peek());
        clock.set(T0.plusSeconds(60));
        assertEquals(T0.plusSeconds(60), clock.instant());
        clock.setMillis(1000);
        assertEquals(1000, clock.millis());
        assertEquals(6, clock.reads(), "peek is not a read");
    }

    @Test
    void keepsNanoseconds() {
        ManualClock clock = ManualClock.at(T0.plusNanos(456_700));
        assertEquals(456_700, clock.instant().getNano());
        clock.advance(Duration.ofNanos(300));
        assertEquals(457_000, clock.instant().getNano());
    }

    @Test
    void autoAdvanceMovesAfterEachRead() {
        ManualClock clock = ManualClock.at(T0).autoAdvance(Duration.ofMillis(1));
        assertEquals(T0, clock.instant());
        assertEquals(T0.plusMillis(1), clock.instant());
        assertEquals(T0.plusMillis(2).toEpochMilli(), clock.millis());
        assertEquals(T0.plusMillis(3), clock.peek());
        clock.stopAutoAdvance();
        assertEquals(T0.plusMillis(3), clock.instant());
        assertEquals(T0.plusMillis(3), clock.instant());
    }

    @Test
    void autoAdvanceEveryNReads() {
        ManualClock clock = ManualClock.at(T0);
        clock.instant(); // a read before the rule starts does not count towards it
        clock.autoAdvanceEvery(3, Duration.ofMillis(10));
        assertEquals(T0, clock.instant());
        assertEquals(T0, clock.instant());
        assertEquals(T0, clock.instant());
        assertEquals(T0.plusMillis(10), clock.instant());
        assertEquals(T0.plusMillis(10), clock.instant());
        assertEquals(T0.plusMillis(10), clock.instant());
        assertEquals(T0.plusMillis(20), clock.instant());
        assertEquals(8, clock.reads());
    }

    @Test
    void concurrentReadsEachAdvanceExactlyOnce() throws InterruptedException {
        ManualClock clock = ManualClock.at(T0).autoAdvance(Duration.ofNanos(1));
        int threads = 4;
        int reads = 20_000;
        long[][] seen = new long[threads][reads];
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int me = t;
            new Thread(() -> {
                for (int i = 0; i < reads; i++) {
                    Instant now = clock.instant();
                    seen[me][i] = now.getEpochSecond() * 1_000_000_000L + now.getNano();
                }
                done.countDown();
            }).start();
        }
        assertTrue(done.await(30, TimeUnit.SECONDS));
        Set<Long> distinct = new HashSet<>();
        for (long[] mine : seen) {
            for (long v : mine) {
                distinct.add(v);
            }
        }
        assertEquals(threads * reads, distinct.size(), "two reads saw the same instant");
        assertEquals(T0.plusNanos(threads * reads), clock.peek());
        assertEquals(threads * reads, clock.reads());
    }

    @Test
    void refusesBadSteps() {
        ManualClock clock = ManualClock.at(T0);
        IllegalArgumentException back = assertThrows(IllegalArgumentException.class,
                () -> clock.advance(Duration.ofMillis(-1)));
        assertTrue(back.getMessage().contains("stepBack"), back.getMessage());
        assertThrows(IllegalArgumentException.class, () -> clock.stepBack(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> clock.autoAdvance(Duration.ZERO));
        IllegalArgumentException every = assertThrows(IllegalArgumentException.class,
                () -> clock.autoAdvanceEvery(0, Duration.ofMillis(1)));
        assertTrue(every.getMessage().contains("0 reads"), every.getMessage());
        assertEquals(T0, clock.peek(), "a refused step changes nothing");
    }
}
