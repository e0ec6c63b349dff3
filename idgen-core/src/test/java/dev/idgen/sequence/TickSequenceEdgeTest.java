package dev.idgen.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockStats;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The edges of {@link TickSequence}, {@link TickSpace} and {@link CounterStart} one value either
 * side: the last tick, tick 0, the exact wait bound, what counts as a step back (and when a step is
 * over), and every range check of the tick space. Same space as {@link TickSequenceTest}: 1 ms
 * ticks from {@code EPOCH}, 2 counter bits, ticks 0..1000.
 */
class TickSequenceEdgeTest {

    private static final long EPOCH = 1_000_000L;
    private static final TickSpace SPACE = new TickSpace(EPOCH, 1, 1000, 2);
    /** 10 ms ticks (as Sonyflake), 8 counter bits. */
    private static final TickSpace TENS = new TickSpace(EPOCH, 10, 1000, 8);

    private static TickSequence sequence(TickSpace space, ScriptClock clock, ClockBackwardsPolicy policy) {
        return TickSequence.builder(space, clock).policy(policy).build();
    }

    /** After {@code still} reads at the current time, each read moves the clock on 1 ms. */
    private static LongUnaryOperator movesAfter(int still) {
        return new LongUnaryOperator() {
            private int n;

            @Override
            public long applyAsLong(long m) {
                return ++n > still ? m + 1 : m;
            }
        };
    }

    @Test
    void theLastTickIsIssuedAfterWaitingOutTheOneBefore() {
        ScriptClock clock = new ScriptClock(EPOCH + 999);
        TickSequence seq = sequence(SPACE, clock, ClockBackwardsPolicy.refuse());
        for (int i = 0; i < 4; i++) {
            assertEquals(999, seq.tickOf(seq.next()));
        }
        clock.afterEachRead(movesAfter(2));
        long v = seq.next(); // waits for tick 1000, the last one: it must be issued, not refused
        assertEquals(1000, seq.tickOf(v));
        assertEquals(0, seq.counterOf(v));
        assertEquals(EPOCH + 1000, seq.lastMillisCovered());
    }

    @Test
    void runningAheadReachesTheLastTickAndNoFurther() {
        ScriptClock still = new ScriptClock(EPOCH + 999);
        TickSequence seq = sequence(SPACE, still, ClockBackwardsPolicy.runAhead(Duration.ofMillis(5)));
        for (int i = 0; i < 8; i++) {
            seq.next(); // tick 999, then 1000 ahead of the clock
        }
        assertEquals(1000, seq.lastTick());
        IllegalStateException full = assertThrows(IllegalStateException.class, seq::next);
        assertEquals("Every id up to the last tick 1000 (1970-01-01T00:16:41Z) is used; no later id fits the layout",
                full.getMessage());
    }

    @Test
    void tickZeroIsAnOrdinaryTick() {
        ScriptClock clock = new ScriptClock(EPOCH);
        TickSequence seq = sequence(SPACE, clock, ClockBackwardsPolicy.refuse());
        assertSame(SPACE, seq.space());
        assertEquals(Long.MIN_VALUE, seq.lastMillisCovered()); // nothing issued yet
        seq.next();
        assertEquals(0, seq.lastTick());
        assertEquals(EPOCH, seq.lastMillisCovered());

        TickSequence tens = sequence(TENS, new ScriptClock(EPOCH + 3), ClockBackwardsPolicy.refuse());
        tens.next();
        assertEquals(EPOCH + 9, tens.lastMillisCovered()); // the last millisecond of a 10 ms tick 0

        // a mark in tick 0 uses tick 0 up
        TickSequence marked = sequence(SPACE, new ScriptClock(EPOCH + 1), ClockBackwardsPolicy.refuse());
        marked.skipThrough(EPOCH);
        assertEquals(0, marked.lastTick());
        long v = marked.next();
        assertEquals(1, marked.tickOf(v));
        assertEquals(0, marked.counterOf(v));
    }

    @Test
    void anExhaustedTickIsAWaitNotAStepBack() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(SPACE, clock, ClockBackwardsPolicy.refuse());
        for (int i = 0; i < 4; i++) {
            seq.next();
        }
        clock.afterEachRead(movesAfter(3));
        assertEquals(51, seq.tickOf(seq.next()));
        assertEquals(new ClockStats(0, 0, 1, 0, 0, Long.MIN_VALUE), seq.clockStats());
        // so a step back after it is the first one
        clock.stepPerRead(0).set(EPOCH + 48);
        assertThrows(ClockMovedBackwardsException.class, seq::next);
        assertEquals(1, seq.clockStats().stepsBack());
    }

    @Test
    void oneStepMetByManyCallsOrWaitedOutOverManyReadsCountsOnce() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence refusing = sequence(SPACE, clock, ClockBackwardsPolicy.refuse());
        refusing.next();
        clock.set(EPOCH + 47);
        assertThrows(ClockMovedBackwardsException.class, refusing::next);
        assertThrows(ClockMovedBackwardsException.class, refusing::next);
        assertEquals(new ClockStats(1, 3, 0, 2, 0, EPOCH + 47), refusing.clockStats());

        ScriptClock slow = new ScriptClock(EPOCH + 50);
        TickSequence waiting = sequence(SPACE, slow, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        waiting.next();
        slow.set(EPOCH + 47).afterEachRead(movesAfter(4)); // read 3 ms behind five times, then on
        assertEquals(50, waiting.tickOf(waiting.next()));
        assertEquals(new ClockStats(1, 3, 1, 0, 0, Long.MIN_VALUE), waiting.clockStats());
    }

    @Test
    void aReBaseStartsTheClocksTickAtItsCounterStart() {
        ScriptClock clock = new ScriptClock(EPOCH + 900);
        TickSequence seq = TickSequence.builder(SPACE, clock).policy(ClockBackwardsPolicy.refuse())
                .rebaseBeyondBound(true).build();
        seq.next();
        clock.set(EPOCH + 100);
        long rebased = seq.next();
        assertEquals(100, seq.tickOf(rebased));
        assertEquals(0, seq.counterOf(rebased));
        assertEquals(1, seq.counterOf(seq.next()));
    }

    @Test
    void aWaitGivesUpAtTheFirstCheckPastItsBound() {
        long start = 5_000_000_000L; // the monotonic source's origin is arbitrary
        AtomicLong nanos = new AtomicLong(start);
        ScriptClock frozen = new ScriptClock(EPOCH + 50);
        TickSequence seq = TickSequence.builder(SPACE, frozen).policy(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)))
                .waitTimer(() -> nanos.getAndAdd(1_000_000)).build(); // 1 ms of fake time per read
        for (int i = 0; i < 4; i++) {
            seq.next();
        }
        assertThrows(IllegalStateException.class, seq::next);
        // bound 1006 ms: read once to start, then checks at 1, 2, ... 1006 ms (not yet past) and 1007 ms
        assertEquals(start + 1008 * 1_000_000L, nanos.get());
    }

    @Test
    void aStepBackLastsUntilTheClockItselfPassesTheLastTick() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(SPACE, clock, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        seq.next();
        clock.set(EPOCH + 47); // a step back: counted
        seq.next();
        seq.next();
        seq.next(); // tick 50 used up
        assertEquals(51, seq.tickOf(seq.next())); // IDs ran ahead into tick 51; the clock did not pass 50
        clock.set(EPOCH + 45); // further back, the same step: not counted again
        seq.next();
        assertEquals(1, seq.clockStats().stepsBack());
        assertEquals(6, seq.clockStats().maxStepBackMillis()); // 45 is 6 ms before tick 51

        // the clock back in the last tick (not past it) does not end the step either
        ScriptClock c2 = new ScriptClock(EPOCH + 50);
        TickSequence s2 = sequence(SPACE, c2, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        s2.next();
        c2.set(EPOCH + 47);
        s2.next();
        c2.set(EPOCH + 50);
        s2.next();
        c2.set(EPOCH + 46); // further back than the first reading after the step: still the same step
        assertEquals(50, s2.tickOf(s2.next()));
        assertEquals(1, s2.clockStats().stepsBack());
        // passing it does: the next step back is a new one
        c2.set(EPOCH + 51);
        s2.next();
        c2.set(EPOCH + 48);
        s2.next();
        assertEquals(2, s2.clockStats().stepsBack());
    }

    @Test
    void aStepBackWhileRunningAheadIsStillAStepBack() {
        ScriptClock still = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(SPACE, still, ClockBackwardsPolicy.runAhead(Duration.ofMillis(5)));
        for (int i = 0; i < 5; i++) {
            seq.next(); // tick 50, then tick 51 ahead of the still clock
        }
        assertEquals(51, seq.lastTick());
        assertEquals(0, seq.clockStats().stepsBack()); // ahead of a clock that never went back
        still.set(EPOCH + 49); // now the clock does go back, below where the run ahead began
        assertEquals(51, seq.tickOf(seq.next()));
        assertEquals(1, seq.clockStats().stepsBack());
        assertEquals(2, seq.clockStats().maxStepBackMillis());
    }

    @Test
    void aRefusalNamesTheHighestMarkInItsTick() {
        ScriptClock clock = new ScriptClock(EPOCH + 50);
        TickSequence seq = sequence(TENS, clock, ClockBackwardsPolicy.refuse());
        seq.skipThrough(EPOCH + 105);
        seq.skipThrough(EPOCH + 103); // lower, in the same tick 10: changes nothing
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, seq::next);
        assertEquals(50, e.millisBehind()); // from 50 to the start of tick 10 at 100
        assertTrue(e.getMessage().contains(Instant.ofEpochMilli(EPOCH + 105) + ", is 55 ms ahead of the clock"),
                e.getMessage());
    }

    @Test
    void tickSpaceRangesOneEitherSide() {
        // the smallest and largest values are accepted
        assertEquals(0, new TickSpace(0, 1, 0, 1).maxTick());
        assertEquals(31, new TickSpace(0, 1, 10, 31).counterBits());
        assertEquals((1L << 31) - 1, new TickSpace(0, 1, 10, 31).counterMask());
        assertEquals(Long.MAX_VALUE >> 1, new TickSpace(0, 1, Long.MAX_VALUE >> 1, 1).maxTick());
        // a positive epoch leaves fewer ticks: (2^63 - 1 - 2^62) / 2 - 1 = 2^61 - 2 of 2 ms fit
        long epoch = 1L << 62;
        TickSpace widest = new TickSpace(epoch, 2, (1L << 61) - 2, 1);
        assertEquals(Long.MAX_VALUE - 2, widest.lastMillis(widest.maxTick()));
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                () -> new TickSpace(epoch, 2, (1L << 61) - 1, 1));
        assertEquals("maxTick 2305843009213693951 of 2 ms from epoch 4611686018427387904 ends past the last Unix"
                + " millisecond a long holds (9223372036854775807); the allowed range is 0..2305843009213693950",
                past.getMessage());
        // epoch 0: (2^63 - 1) / 2^40 - 1 = 2^23 - 2 ticks of 2^40 ms fit
        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
                () -> new TickSpace(0, 1L << 40, (1L << 41) - 1, 22));
        assertTrue(huge.getMessage().endsWith("; the allowed range is 0.." + ((1L << 23) - 2)), huge.getMessage());
        // clamping, from below and above
        assertEquals(-1, TENS.clampedTickAt(EPOCH - 1));
        assertEquals(0, TENS.clampedTickAt(EPOCH));
        assertEquals(0, TENS.clampedTickAt(EPOCH + 9));
        assertEquals(1, TENS.clampedTickAt(EPOCH + 10));
        assertEquals(1000, TENS.clampedTickAt(EPOCH + 10_009));
        assertEquals(1001, TENS.clampedTickAt(EPOCH + 10_010));
        assertEquals(Instant.ofEpochMilli(EPOCH + 10_009), TENS.last());
        assertEquals(Instant.ofEpochMilli(EPOCH), TENS.first());
    }

    @Test
    void counterStartBoundsOneEitherSide() {
        assertEquals(0, new CounterStart(0, () -> 7).draw()); // bound 0: always 0, the bits unused
        assertEquals(0, CounterStart.randomBelow(1, () -> 7).draw());
        assertEquals(3, CounterStart.randomBelow(4, () -> -1).draw()); // floorMod, never negative
        assertEquals("counter start bound -1 is negative; 0 (start at 0) or more",
                assertThrows(IllegalArgumentException.class, () -> new CounterStart(-1, () -> 0)).getMessage());
        assertEquals("random counter start bound 0 is outside 1..9223372036854775807",
                assertThrows(IllegalArgumentException.class, () -> CounterStart.randomBelow(0, () -> 0)).getMessage());
        assertEquals(0, CounterStart.zero().draw());
        assertEquals(0, CounterStart.zero().bound());
    }
}
