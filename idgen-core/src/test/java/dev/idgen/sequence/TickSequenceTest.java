package dev.idgen.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The invariant of {@link TickSequence} on its own: strictly greater values, {@code skipThrough} as
 * a CAS-max, exhaustion, every policy, both ends of the range, and the waits (re-judged, bounded).
 * Values are checked as (tick, counter) pairs; the generators' tests are about bits.
 */
class TickSequenceTest {

    /** Tick 0 starts here (Unix ms); 1 ms ticks, 2 counter bits (4 values a tick), ticks 0..1000. */
    private static final long EPOCH = 1_000_000L;
    private static final TickSpace SPACE = new TickSpace(EPOCH, 1, 1000, 2);

    private static ClockBackwardsPolicy waitUpTo(long ms) {
        return ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(ms));
    }

    private static ClockBackwardsPolicy runAhead(long ms) {
        return ClockBackwardsPolicy.runAhead(Duration.ofMillis(ms));
    }

    private static TickSequence sequence(ScriptClock clock, ClockBackwardsPolicy policy) {
        return TickSequence.builder(SPACE, clock).policy(policy).build();
    }

    /** A fake monotonic time source: each read moves it on by {@code stepNanos}. */
    private static LongSupplier fakeNanos(AtomicLong nanos, long stepNanos) {
        return () -> nanos.getAndAdd(stepNanos);
    }

    @Test
    void valuesStrictlyIncreaseUnderARandomClockAndEveryPolicy() {
        for (ClockBackwardsPolicy policy : List.of(ClockBackwardsPolicy.refuse(), waitUpTo(3), runAhead(3))) {
            for (long seed = 1; seed <= 30; seed++) {
                SplittableRandom r = new SplittableRandom(seed);
                ScriptClock clock = new ScriptClock(EPOCH + 100);
                // a still clock under waitUpTo gives up fast: 100 ms of fake time per check
                AtomicLong nanos = new AtomicLong();
                TickSequence seq = TickSequence.builder(SPACE, clock).policy(policy)
                        .waitTimer(fakeNanos(nanos, 100_000_000)).build();
                long previous = -1;
                for (int i = 0; i < 300; i++) {
                    int move = r.nextInt(10);
                    // mostly still or forward; one in ten steps back up to 5 ms
                    clock.set(Math.max(EPOCH, clock.millis() + (move < 5 ? 0 : move < 9 ? 1 : -r.nextInt(6))));
                    clock.stepPerRead(move % 2); // a moving clock lets waits end; a still one exercises runAhead
                    long v;
                    try {
                        v = seq.next();
                    } catch (ClockMovedBackwardsException refused) {
                        assertTrue(refused.millisBehind() > policy.tolerance().toMillis(), policy + " seed " + seed);
                        continue;
                    } catch (IllegalStateException frozen) {
                        continue; // a wait on a clock that stands still: bounded, see below
                    } finally {
                        clock.stepPerRead(0);
                    }
                    assertTrue(v > previous, policy + " seed " + seed + " call " + i + ": " + v + " after " + previous);
                    previous = v;
                }
            }
        }
    }

    @Test
    void threadsGetDistinctValuesEachIncreasing() throws InterruptedException {
        ScriptClock clock = new ScriptClock(EPOCH).afterEachRead(new java.util.function.LongUnaryOperator() {
            private long reads;

            @Override
            public long applyAsLong(long m) {
                return ++reads % 3 == 0 ? m + 1 : m; // 1 ms every 3 reads: exhaustion and waits
            }
        });
        TickSequence seq = TickSequence.builder(new TickSpace(EPOCH, 1, Long.MAX_VALUE >> 2, 2), clock).build();
        int threads = 4;
        int each = 20_000;
        long[][] got = new long[threads][each];
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long[] mine = got[t];
            ts.add(new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    mine[i] = seq.next();
                }
            }));
        }
        ts.forEach(Thread::start);
        for (Thread t : ts) {
            t.join();
        }
        Set<Long> all = new HashSet<>();
        for (long[] mine : got) {
            for (int i = 0; i < each; i++) {
                assertTrue(all.add(mine[i]), "duplicate " + mine[i]);
                if (i > 0) {
                    assertTrue(mine[i] > mine[i - 1], "not increasing within a thread at " + i);
                }
            }
        }
        assertEquals(threads * each, all.size());
    }

    @Test
    void aNewTickStartsAtTheCounterStartAndCountsUp() {
        ScriptClock clock = new ScriptClock(EPOCH + 7);
        TickSequence zero = sequence(clock, ClockBackwardsPolicy.refuse());
        long v = zero.next();
        assertEquals(7, zero.tickOf(v));
        assertEquals(0, zero.counterOf(v));
        assertEquals(1, zero.counterOf(zero.next()));

        TickSequence random = TickSequence.builder(SPACE, clock).counterStart(CounterStart.randomBelow(4, () -> 6)).build();
        assertEquals(2, random.counterOf(random.next())); // 6 mod 4
        assertEquals(3, random.counterOf(random.next()));

        IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> TickSequence.builder(SPACE, clock).counterStart(CounterStart.randomBelow(5, () -> 0)).build());
        assertEquals("counter start bound 5 is outside the allowed range 0..4 (2^2)", tooBig.getMessage());
    }

    @Test
    void skipThroughIsACasMax() {
        ScriptClock clock = new ScriptClock(EPOCH + 10);
        TickSequence seq = sequence(clock, runAhead(1000));
        assertEquals(-1, seq.lastTick());
        seq.skipThrough(EPOCH + 20);
        assertEquals(20, seq.lastTick());
        assertEquals(EPOCH + 20, seq.lastMillisCovered());
        seq.skipThrough(EPOCH + 15); // lower: nothing
        assertEquals(20, seq.lastTick());
        seq.skipThrough(EPOCH - 5); // before the epoch: nothing
        seq.skipThrough(Long.MIN_VALUE);
        assertEquals(20, seq.lastTick());
        // every counter of tick 20 is used: the next value is in tick 21, counter 0
        long v = seq.next();
        assertEquals(21, seq.tickOf(v));
        assertEquals(0, seq.counterOf(v));
        // concurrent raises leave the largest
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            ts.add(new Thread(() -> {
                for (int m = 0; m < 500; m++) {
                    seq.skipThrough(EPOCH + 100 + (m * 7 + id * 13) % 400);
                }
            }));
        }
        ts.forEach(Thread::start);
        ts.forEach(t -> {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(499, seq.lastTick());
        // past the last tick: the whole range is used
        seq.skipThrough(Long.MAX_VALUE);
        assertEquals(1000, seq.lastTick());
        clock.set(EPOCH + 1000);
        IllegalStateException full = assertThrows(IllegalStateException.class, seq::next);
        assertTrue(full.getMessage().startsWith("Every id up to the last tick 1000"), full.getMessage());
    }

    @Test
    void anExhaustedTickWaitsForTheNextUnlessRunningAhead() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.refuse());
        for (int i = 0; i < 4; i++) {
            assertEquals(50, seq.tickOf(seq.next()));
        }
        clock.afterEachRead(m -> m == EPOCH + 50 ? m : m); // still
        clock.stepPerRead(0);
        long readsBefore = clock.reads();
        clock.afterEachRead(new java.util.function.LongUnaryOperator() {
            private int n;

            @Override
            public long applyAsLong(long m) {
                return ++n == 5 ? m + 1 : m; // the tick turns after 5 reads
            }
        });
        long v = seq.next();
        assertEquals(51, seq.tickOf(v));
        assertEquals(0, seq.counterOf(v));
        assertTrue(clock.reads() - readsBefore >= 6, "waited by re-reading the clock");
        assertEquals(1, seq.clockStats().tickWaits());

        ScriptClock still = new ScriptClock(EPOCH + 50);
        TickSequence ahead = sequence(still, runAhead(2));
        for (int i = 0; i < 4 * 3; i++) {
            ahead.next(); // ticks 50, 51, 52 at once: at most 2 ms ahead of the still clock
        }
        assertEquals(52, ahead.lastTick());
        assertEquals(8, ahead.clockStats().runAheads()); // every call in ticks 51 and 52 was ahead of the clock
        assertEquals(0, ahead.clockStats().stepsBack()); // the clock itself never went back
    }

    @Test
    void refuseRefusesAnyStepBack() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.refuse());
        seq.next();
        clock.set(EPOCH + 49);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, seq::next);
        assertEquals(1, e.millisBehind());
        assertEquals("Clock moved backwards. Refusing to generate id for 1 milliseconds (policy refuse())", e.getMessage());
        clock.set(EPOCH + 50);
        assertEquals(50, seq.tickOf(seq.next())); // recovers once the clock is back
    }

    @Test
    void waitUpToWaitsOutAShortStepAndRefusesALongOne() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, waitUpTo(5));
        seq.next();
        clock.set(EPOCH + 47).stepPerRead(1);
        long v = seq.next();
        assertEquals(50, seq.tickOf(v));
        assertEquals(1, seq.counterOf(v));
        clock.stepPerRead(0).set(EPOCH + 44); // 6 ms behind tick 50
        assertEquals(6, assertThrows(ClockMovedBackwardsException.class, seq::next).millisBehind());
        ClockStats stats = seq.clockStats();
        assertEquals(1, stats.refusals());
        assertEquals(EPOCH + 44, stats.lastRefusalMillis());
        assertEquals(6, stats.maxStepBackMillis());
    }

    @Test
    void runAheadCarriesOnWithinItsBoundWithoutWaiting() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, runAhead(5));
        seq.next();
        clock.set(EPOCH + 45); // 5 ms behind: within
        long readsBefore = clock.reads();
        long v = seq.next();
        assertEquals(50, seq.tickOf(v));
        assertTrue(clock.reads() - readsBefore <= 2, "did not wait");
        clock.set(EPOCH + 44);
        assertEquals(6, assertThrows(ClockMovedBackwardsException.class, seq::next).millisBehind());
    }

    @Test
    void aStepBackDuringAWaitForTheNextTickIsJudgedByThePolicy() {
        for (ClockBackwardsPolicy policy : List.of(ClockBackwardsPolicy.refuse(), waitUpTo(5), runAhead(0))) {
            ScriptClock clock = new ScriptClock(EPOCH + 500);
            TickSequence seq = sequence(clock, policy);
            for (int i = 0; i < 4; i++) {
                seq.next();
            }
            // the call waits for tick 501; the clock then steps back 100 ms instead of moving on
            clock.afterEachRead(new java.util.function.LongUnaryOperator() {
                private int n;

                @Override
                public long applyAsLong(long m) {
                    return ++n == 3 ? m - 100 : m;
                }
            });
            ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, seq::next,
                    policy.toString());
            assertEquals(100, e.millisBehind(), policy.toString());
        }
    }

    @Test
    void aWaitOnAFrozenClockGivesUpAtItsBound() {
        AtomicLong nanos = new AtomicLong();
        ScriptClock frozen = new ScriptClock(EPOCH + 50);
        TickSequence seq = TickSequence.builder(SPACE, frozen).policy(waitUpTo(5))
                .waitTimer(fakeNanos(nanos, 1_000_000)).build(); // 1 ms of fake time per check
        for (int i = 0; i < 4; i++) {
            seq.next();
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, seq::next);
        assertEquals("Waited 1006 ms (the bound: tick 1 ms + policy waitUpTo(5 ms) + 1000 ms) for the clock to reach"
                + " 1970-01-01T00:16:40.051Z, but it still reads 1970-01-01T00:16:40.050Z; is it frozen? No id was"
                + " generated", e.getMessage());
        assertFalse(e instanceof ClockMovedBackwardsException);
        // about 1006 checks of the fake timer, not an endless spin
        assertTrue(nanos.get() <= 1_008_000_000L, "gave up at once past the bound: " + nanos.get());
        assertEquals(1, seq.clockStats().refusals());

        // a step back waited out on a clock that then freezes, likewise
        AtomicLong nanos2 = new AtomicLong();
        ScriptClock back = new ScriptClock(EPOCH + 50);
        TickSequence seq2 = TickSequence.builder(SPACE, back).policy(waitUpTo(5)).waitTimer(fakeNanos(nanos2, 1_000_000))
                .build();
        seq2.next();
        back.set(EPOCH + 48);
        assertTrue(assertThrows(IllegalStateException.class, seq2::next).getMessage().startsWith("Waited 1006 ms"));
    }

    @Test
    void anInterruptedWaitIsRefused() {
        ScriptClock frozen = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(frozen, waitUpTo(5));
        for (int i = 0; i < 4; i++) {
            seq.next();
        }
        Thread.currentThread().interrupt();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, seq::next);
            assertTrue(e.getMessage().startsWith("Interrupted while waiting for the clock"), e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void howFarBehindIsInMillisecondsNotTicks() {
        // 10 ms ticks, as Sonyflake: tick 10 starts at EPOCH + 100
        TickSpace tens = new TickSpace(EPOCH, 10, 1000, 8);
        ScriptClock clock = new ScriptClock(EPOCH + 105);
        TickSequence seq = TickSequence.builder(tens, clock).policy(ClockBackwardsPolicy.refuse()).build();
        seq.next();
        clock.set(EPOCH + 99); // 1 ms before the start of tick 10, in tick 9
        assertEquals(1, assertThrows(ClockMovedBackwardsException.class, seq::next).millisBehind());
        // so waitUpTo(5 ms) waits it out instead of refusing "10 ms"
        TickSequence waiting = TickSequence.builder(tens, clock.set(EPOCH + 105)).policy(waitUpTo(5)).build();
        waiting.next();
        clock.set(EPOCH + 99).afterEachRead(new java.util.function.LongUnaryOperator() {
            private int n;

            @Override
            public long applyAsLong(long m) {
                return ++n > 2 ? m + 1 : m; // 99 for the first two reads, then on
            }
        });
        assertEquals(10, waiting.tickOf(waiting.next()));
        assertEquals(1, waiting.clockStats().maxStepBackMillis());
    }

    @Test
    void aRefusalBehindARaisedMarkNamesTheMark() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, waitUpTo(5));
        seq.skipThrough(EPOCH + 900); // an earlier holder's mark, 850 ms ahead of this clock
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, seq::next);
        assertEquals(850, e.millisBehind());
        assertTrue(e.getMessage().contains("the machine id's high-water mark from an earlier holder, "
                + Instant.ofEpochMilli(EPOCH + 900) + ", is 850 ms ahead of the clock (" + Instant.ofEpochMilli(EPOCH + 50)
                + ")"), e.getMessage());
        // once an ID of its own is past the mark, a step back is an ordinary one again
        clock.set(EPOCH + 901);
        seq.next();
        clock.set(EPOCH + 800);
        assertTrue(assertThrows(ClockMovedBackwardsException.class, seq::next).getMessage()
                .startsWith("Clock moved backwards. Refusing to generate id for 101 milliseconds"));
    }

    @Test
    void bothEndsOfTheRange() {
        ScriptClock clock = new ScriptClock(EPOCH);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.refuse());
        assertEquals(0, seq.tickOf(seq.next())); // the first millisecond
        clock.set(EPOCH + 1000); // the last tick
        assertEquals(1000, seq.tickOf(seq.next()));
        for (long millis : new long[] {EPOCH - 1, Long.MIN_VALUE, 0}) {
            clock.set(millis);
            IllegalStateException e = assertThrows(IllegalStateException.class, seq::next);
            assertTrue(e.getMessage().contains(", before the range this generator can encode: "
                    + "1970-01-01T00:16:40Z to 1970-01-01T00:16:41Z"), millis + ": " + e.getMessage());
        }
        for (long millis : new long[] {EPOCH + 1001, Long.MAX_VALUE}) {
            clock.set(millis);
            IllegalStateException e = assertThrows(IllegalStateException.class, seq::next);
            assertTrue(e.getMessage().contains(", after the range"), millis + ": " + e.getMessage());
        }
        // a negative epoch, where millis - epoch would wrap for the largest readings
        TickSpace negative = new TickSpace(-1000, 1, Long.MAX_VALUE >> 2, 2);
        TickSequence wide = TickSequence.builder(negative, clock.set(Long.MAX_VALUE)).build();
        assertTrue(assertThrows(IllegalStateException.class, wide::next).getMessage().contains(", after the range"));
        clock.set(Long.MIN_VALUE);
        assertTrue(assertThrows(IllegalStateException.class, wide::next).getMessage().contains(", before the range"));
    }

    @Test
    void aTickSpaceChecksItselfNamingTheValue() {
        assertEquals("tickMillis 0 is outside the allowed range 1..9223372036854775807",
                assertThrows(IllegalArgumentException.class, () -> new TickSpace(0, 0, 10, 12)).getMessage());
        assertEquals("counterBits 32 is outside the allowed range 1..31",
                assertThrows(IllegalArgumentException.class, () -> new TickSpace(0, 1, 10, 32)).getMessage());
        assertEquals("counterBits 0 is outside the allowed range 1..31",
                assertThrows(IllegalArgumentException.class, () -> new TickSpace(0, 1, 10, 0)).getMessage());
        assertEquals("maxTick 2199023255552 is outside the allowed range 0..2199023255551 (63 - 22 counter bits)",
                assertThrows(IllegalArgumentException.class, () -> new TickSpace(0, 1, 1L << 41, 22)).getMessage());
        assertEquals("maxTick -1 is outside the allowed range 0..2199023255551 (63 - 22 counter bits)",
                assertThrows(IllegalArgumentException.class, () -> new TickSpace(0, 1, -1, 22)).getMessage());
        // a huge tick: the end of the last tick is past any long; named, not an ArithmeticException
        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
                () -> new TickSpace(0, 1L << 40, (1L << 41) - 1, 22));
        assertTrue(huge.getMessage().startsWith("maxTick 2199023255551 of 1099511627776 ms from epoch 0 ends past the"
                + " last Unix millisecond a long holds"), huge.getMessage());
        assertEquals(1000, SPACE.clampedTickAt(Long.MAX_VALUE) - 1);
        assertEquals(-1, SPACE.clampedTickAt(Long.MIN_VALUE));
    }

    @Test
    void theFastPathCountsNothing() {
        ScriptClock clock = new ScriptClock(EPOCH).stepPerRead(1);
        TickSequence seq = sequence(clock, waitUpTo(5));
        for (int i = 0; i < 900; i++) {
            seq.next();
        }
        assertEquals(ClockStats.NONE, seq.clockStats());
    }

    @Test
    void stepsBackAreCountedOncePerStep() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(clock, runAhead(10));
        seq.next();
        clock.set(EPOCH + 47);
        seq.next();
        seq.next(); // the same step, met again
        clock.set(EPOCH + 60); // the clock passes the last tick: the step is over
        seq.next();
        clock.set(EPOCH + 52);
        seq.next();
        ClockStats stats = seq.clockStats();
        assertEquals(2, stats.stepsBack());
        assertEquals(8, stats.maxStepBackMillis());
        assertEquals(3, stats.runAheads());
        assertEquals(0, stats.refusals());
        assertEquals(Long.MIN_VALUE, stats.lastRefusalMillis());
    }

    @Test
    void rebaseGivesUpOrderAcrossALongStepOnly() {
        ScriptClock clock = new ScriptClock(EPOCH + 900);
        TickSequence seq = TickSequence.builder(SPACE, clock).policy(runAhead(10)).rebaseBeyondBound(true).build();
        long beforeBlip = seq.next();
        clock.set(EPOCH + 100); // 800 ms back: beyond the bound
        long rebased = seq.next();
        assertEquals(100, seq.tickOf(rebased));
        assertTrue(rebased < beforeBlip);
        long after = seq.next();
        assertTrue(after > rebased);
        clock.set(EPOCH + 95); // within the bound after the re-base: ordinary run-ahead, order kept
        assertTrue(seq.next() > after);
        assertEquals(0, seq.clockStats().refusals());
        // without the option the same step is refused
        TickSequence strict = TickSequence.builder(SPACE, clock.set(EPOCH + 900)).policy(runAhead(10)).build();
        strict.next();
        clock.set(EPOCH + 100);
        assertThrows(ClockMovedBackwardsException.class, strict::next);
    }
}
