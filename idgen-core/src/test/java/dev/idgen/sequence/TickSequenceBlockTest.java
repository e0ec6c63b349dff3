package dev.idgen.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link TickSequence#nextBlock(int)}: blocks inside a tick, across ticks, and from many threads. */
class TickSequenceBlockTest {

    private static final long EPOCH = 1_000_000L;
    /** 1 ms ticks, 4 counter bits: 16 values a tick. */
    private static final TickSpace SPACE = new TickSpace(EPOCH, 1, 1_000_000, 4);

    private static TickSequence sequence(ScriptClock clock, ClockBackwardsPolicy policy) {
        return TickSequence.builder(SPACE, clock).policy(policy).build();
    }

    @Test
    void aBlockInsideATickIsOneClockReadAndTheNextValueFollowsIt() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.refuse());
        long readsBefore = clock.reads();
        long first = seq.nextBlock(5);
        assertEquals(readsBefore + 1, clock.reads(), "one clock read for the block");
        assertEquals(100, seq.tickOf(first));
        assertEquals(0, seq.counterOf(first));
        assertEquals(5, seq.blockSize(first, 5));
        long after = seq.next();
        assertEquals(100, seq.tickOf(after));
        assertEquals(5, seq.counterOf(after), "values 0..4 were the block's; the next value is 5");
    }

    @Test
    void aBlockLargerThanWhatIsLeftTakesTheRestOfTheTick() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.refuse());
        seq.next(); // counter 0
        long first = seq.nextBlock(40);
        assertEquals(1, seq.counterOf(first));
        assertEquals(15, seq.blockSize(first, 40), "counters 1..15 are left in the tick");
        assertEquals(100, seq.lastTick());
    }

    @Test
    void theNextBlockRunsAheadUnderRunAhead() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.runAhead(Duration.ofMillis(5)));
        long a = seq.nextBlock(16);
        assertEquals(16, seq.blockSize(a, 16));
        long b = seq.nextBlock(16); // the clock still reads tick 100
        assertEquals(101, seq.tickOf(b));
        assertEquals(0, seq.counterOf(b));
        assertEquals(1, seq.clockStats().runAheads());
    }

    @Test
    void theNextBlockWaitsForTheClockUnderWaitUpTo() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        seq.nextBlock(16);
        AtomicLong reads = new AtomicLong();
        clock.afterEachRead(m -> reads.incrementAndGet() == 3 ? m + 1 : m); // moves on after 3 reads: waited for
        long b = seq.nextBlock(3);
        assertEquals(101, seq.tickOf(b));
        assertEquals(3, seq.blockSize(b, 3));
        assertEquals(1, seq.clockStats().tickWaits());
        assertEquals(0, seq.clockStats().runAheads());
    }

    @Test
    void aBlockAfterAStepBackMeetsThePolicy() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence refusing = sequence(clock, ClockBackwardsPolicy.refuse());
        refusing.nextBlock(3);
        clock.set(EPOCH + 90);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, () -> refusing.nextBlock(3));
        assertEquals(10, e.millisBehind());

        ScriptClock clock2 = new ScriptClock(EPOCH + 100);
        TickSequence running = sequence(clock2, ClockBackwardsPolicy.runAhead(Duration.ofMillis(20)));
        long a = running.nextBlock(3);
        clock2.set(EPOCH + 90);
        long b = running.nextBlock(20);
        assertEquals(100, running.tickOf(b), "carries on in the last tick");
        assertEquals(running.counterOf(a) + 3, running.counterOf(b));
        assertEquals(13, running.blockSize(b, 20));
    }

    @Test
    void aRandomCounterStartAppliesToABlock() {
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        TickSequence seq = TickSequence.builder(SPACE, clock)
                .counterStart(CounterStart.randomBelow(8, () -> 6)).build();
        long first = seq.nextBlock(16);
        assertEquals(6, seq.counterOf(first));
        assertEquals(10, seq.blockSize(first, 16));
    }

    @Test
    void aBlockOfLessThanOneIsRefused() {
        TickSequence seq = sequence(new ScriptClock(EPOCH), ClockBackwardsPolicy.refuse());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> seq.nextBlock(0));
        assertTrue(e.getMessage().contains("block size 0") && e.getMessage().contains("1.."), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> seq.nextBlock(-3));
    }

    @Test
    void blocksFromManyThreadsNeverOverlapAndEachThreadsBlocksIncrease() throws Exception {
        int threads = 4;
        int blocksPerThread = 3_000;
        ScriptClock clock = new ScriptClock(EPOCH + 100);
        AtomicLong reads = new AtomicLong();
        clock.afterEachRead(m -> reads.incrementAndGet() % 7 == 0 ? m + 1 : m); // creeps: ticks fill up and roll over
        TickSequence seq = sequence(clock, ClockBackwardsPolicy.runAhead(Duration.ofDays(1)));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SplittableRandom random = new SplittableRandom(1000 + t);
                results.add(pool.submit((Callable<long[]>) () -> {
                    long[] values = new long[blocksPerThread * 40];
                    int n = 0;
                    start.await();
                    for (int b = 0; b < blocksPerThread; b++) {
                        int wanted = 1 + random.nextInt(40);
                        long first = seq.nextBlock(wanted);
                        int size = seq.blockSize(first, wanted);
                        for (int k = 0; k < size; k++) {
                            values[n++] = first + k;
                        }
                    }
                    return Arrays.copyOf(values, n);
                }));
            }
            start.countDown();
            long[] all = new long[0];
            for (Future<long[]> f : results) {
                long[] mine = f.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < mine.length; i++) {
                    assertTrue(mine[i] > mine[i - 1], "one thread's values increase: " + mine[i - 1] + " then " + mine[i]);
                }
                int old = all.length;
                all = Arrays.copyOf(all, old + mine.length);
                System.arraycopy(mine, 0, all, old, mine.length);
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertTrue(all[i] != all[i - 1], "value " + all[i] + " handed out twice");
            }
            assertTrue(all.length >= threads * blocksPerThread, "every block has at least one value");
        } finally {
            pool.shutdownNow();
        }
    }
}
