package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import java.time.Duration;
import java.time.Instant;
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
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link SnowflakeGenerator#fill(long[])}: blocks of the sequence, across ticks, fenced, from many threads. */
class SnowflakeFillTest {

    private static final long T = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();

    /** 1 ms ticks, 4 sequence bits: 16 ids a tick, so blocks cross ticks often. */
    private static final SnowflakeLayout NARROW = SnowflakeLayout.custom("narrow").epoch(Instant.parse("2020-01-01T00:00:00Z"))
            .timestampBits(49).machineBits(10).sequenceBits(4).build();

    private static SnowflakeGenerator generator(SnowflakeLayout layout, StepClock clock, ClockBackwardsPolicy policy) {
        return generator(layout, clock, policy, 5);
    }

    private static SnowflakeGenerator generator(SnowflakeLayout layout, StepClock clock, ClockBackwardsPolicy policy,
            long machineId) {
        return SnowflakeGenerator.builder().layout(layout).machineId(machineId).clock(clock).onClockBackwards(policy).build();
    }

    private static void assertStrictlyIncreasing(long[] ids) {
        for (int i = 1; i < ids.length; i++) {
            assertTrue(ids[i] > ids[i - 1], "at " + i + ": " + ids[i - 1] + " then " + ids[i]);
        }
    }

    @Test
    void aBlockInsideATickIsConsecutiveSequenceNumbers() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(SnowflakeLayout.TWITTER, clock, ClockBackwardsPolicy.refuse());
        long before = ids.nextLong();
        long[] out = new long[10];
        ids.fill(out);
        for (int i = 0; i < out.length; i++) {
            SnowflakeId d = ids.decode(out[i]);
            assertEquals(T, d.timestamp().toEpochMilli());
            assertEquals(5, d.machineId());
            assertEquals(i + 1, d.sequence(), "sequence 0 went to the call before");
        }
        assertEquals(before + 1, out[0]);
        assertEquals(11, ids.decode(ids.nextLong()).sequence(), "the next call follows the block");
    }

    @Test
    void aBlockInTimeSequenceMachineOrderPutsEachFieldInItsPlace() {
        StepClock clock = new StepClock(Instant.parse("2026-12-03T10:00:00.120Z").toEpochMilli());
        SnowflakeGenerator ids = generator(SnowflakeLayout.SONYFLAKE, clock, ClockBackwardsPolicy.refuse());
        long[] out = new long[300]; // 256 fit one 10 ms tick
        clock.stepPerRead(10);
        ids.fill(out);
        assertStrictlyIncreasing(out);
        SnowflakeId first = ids.decode(out[0]);
        SnowflakeId last = ids.decode(out[299]);
        assertEquals(5, first.machineId());
        assertEquals(0, first.sequence());
        assertEquals(5, last.machineId());
        assertEquals(299 - 256, last.sequence());
        assertEquals(first.timestamp().plusMillis(10), last.timestamp());
    }

    @Test
    void aBlockCrossingATickWaitsForTheClockOrRunsAheadAsThePolicySays() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator waiting = generator(NARROW, clock, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        clock.stepPerRead(1);
        long[] out = new long[40];
        waiting.fill(out);
        assertStrictlyIncreasing(out);
        assertEquals(T, waiting.decode(out[15]).timestamp().toEpochMilli());
        assertEquals(T + 1, waiting.decode(out[16]).timestamp().toEpochMilli());
        assertEquals(0, waiting.decode(out[16]).sequence());
        assertEquals(0, waiting.clockStats().runAheads());

        StepClock still = new StepClock(T);
        // another machine id: the first generator is still live, and at the same ticks it made the same IDs
        SnowflakeGenerator ahead = generator(NARROW, still, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)), 6);
        long[] more = new long[40];
        ahead.fill(more);
        assertStrictlyIncreasing(more);
        assertEquals(T + 2, ahead.decode(more[39]).timestamp().toEpochMilli(), "16 + 16 + 8 over three ticks");
        assertEquals(2, ahead.clockStats().runAheads());
        assertTrue(ahead.nextLong() > more[39]);
    }

    @Test
    void aBlockAfterAStepBackIsRefusedUnderRefuse() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(SnowflakeLayout.TWITTER, clock, ClockBackwardsPolicy.refuse());
        ids.fill(new long[3]);
        clock.set(T - 3);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, () -> ids.fill(new long[3]));
        assertEquals(3, e.millisBehind());
        ids.fill(new long[0]); // reads no clock, so nothing to refuse
    }

    /** A coordinator lease reduced to its fence, moved by the test. */
    private static final class FenceLease implements FencingLease {
        final AtomicReference<MachineIdUser> user = new AtomicReference<>();

        @Override
        public long machineId() {
            return 7;
        }

        @Override
        public boolean isHeld() {
            return true;
        }

        @Override
        public void attach(MachineIdUser generator) {
            user.set(generator);
            generator.fenceFrom(Long.MAX_VALUE);
        }
    }

    @Test
    void aBlockWhoseLastTickReachesTheFenceIsRefused() {
        StepClock clock = new StepClock(T);
        FenceLease lease = new FenceLease();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(NARROW).machineId(lease).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofMillis(10))).build();
        lease.user.get().fenceFrom(T + 1); // ids may carry T, not T + 1
        long[] fits = new long[16];
        ids.fill(fits);
        assertEquals(T, ids.decode(fits[15]).timestamp().toEpochMilli());
        assertThrows(MachineIdLostException.class, () -> ids.fill(new long[1]), "the next block is in T + 1");

        StepClock clock2 = new StepClock(T);
        FenceLease lease2 = new FenceLease();
        SnowflakeGenerator ids2 = SnowflakeGenerator.builder().layout(NARROW).machineId(lease2).clock(clock2)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofMillis(10))).build();
        lease2.user.get().fenceFrom(T + 1);
        assertThrows(MachineIdLostException.class, () -> ids2.fill(new long[20]),
                "16 fit before the fence, the block's last 4 would not: the whole block is refused");
        lease2.user.get().fenceFrom(T + 100); // renewed
        long[] after = new long[4];
        ids2.fill(after);
        assertEquals(T + 1, ids2.decode(after[0]).timestamp().toEpochMilli());
    }

    @Test
    void blocksFromManyThreadsNeverOverlap() throws Exception {
        int threads = 4;
        int callsPerThread = 2_000;
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(NARROW, clock, ClockBackwardsPolicy.runAhead(Duration.ofDays(1)));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SplittableRandom random = new SplittableRandom(77 + t);
                results.add(pool.submit((Callable<long[]>) () -> {
                    long[] mine = new long[callsPerThread * 50];
                    int n = 0;
                    start.await();
                    for (int c = 0; c < callsPerThread; c++) {
                        if (random.nextInt(4) == 0) {
                            mine[n++] = ids.nextLong();
                        } else {
                            long[] block = new long[1 + random.nextInt(49)];
                            ids.fill(block);
                            System.arraycopy(block, 0, mine, n, block.length);
                            n += block.length;
                        }
                        if (c % 100 == 0) {
                            clock.advance(1);
                        }
                    }
                    return Arrays.copyOf(mine, n);
                }));
            }
            start.countDown();
            long[] all = new long[0];
            for (Future<long[]> f : results) {
                long[] mine = f.get(60, TimeUnit.SECONDS);
                assertStrictlyIncreasing(mine);
                int old = all.length;
                all = Arrays.copyOf(all, old + mine.length);
                System.arraycopy(mine, 0, all, old, mine.length);
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertTrue(all[i] != all[i - 1], "id " + all[i] + " handed out twice");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
