package dev.idgen.testkit.lease;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The scenarios every machine-id lease backend must pass, run against real coordinators through a
 * {@link LeaseBackend}: a new backend's test calls {@link #check(LeaseBackend, Duration)} and gets
 * them all. Each failure throws an {@link AssertionError} that names what overlapped or repeated.
 *
 * <ul>
 *   <li>{@link #churn}: many claimers acquire and release over and over; no two ever hold one id at
 *       once, and no ID repeats.</li>
 *   <li>{@link #handOverAboveTheMark}: a holder whose clock runs ahead releases; the next holder
 *       of the id, its clock behind, still starts above every ID the first made.</li>
 *   <li>{@link #fencingOnLoss}: a holder making IDs as fast as it can is cut off from the
 *       coordinator; another claimer takes the id once the coordinator lets it. The old holder
 *       makes no ID at or after the time the new holder starts, and none of the new holder's.</li>
 * </ul>
 *
 * <p>The backend's timings decide how long the scenarios wait: keep its TTL at a few seconds.
 */
public final class LeaseScenarios {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;

    private LeaseScenarios() {
    }

    /**
     * What one run of the three scenarios measured.
     *
     * @param churn what {@link #churn} counted
     * @param handOver what {@link #handOverAboveTheMark} saw
     * @param loss what {@link #fencingOnLoss} measured
     */
    public record Report(Churn churn, HandOver handOver, Loss loss) {
    }

    /**
     * @param claims how many acquisitions succeeded
     * @param full how many found every id held
     * @param ids how many IDs the holders made, all distinct
     */
    public record Churn(int claims, int full, int ids) {
    }

    /**
     * @param firstMark the mark the first holder recorded (Unix ms)
     * @param secondFirstId the next holder's first ID, above every ID of the first
     */
    public record HandOver(long firstMark, long secondFirstId) {
    }

    /**
     * @param oldIds IDs the cut-off holder made
     * @param oldRefusals calls it was refused
     * @param refusedAfterMillis from the cut to its first refusal
     * @param takenAfterMillis from the cut to the new holder's claim
     * @param oldLastMillis the time in the old holder's last ID
     * @param newStartMillis the new holder's clock when it held the id
     * @param newIds IDs the new holder made
     */
    public record Loss(int oldIds, long oldRefusals, long refusedAfterMillis, long takenAfterMillis,
            long oldLastMillis, long newStartMillis, int newIds) {
    }

    /**
     * Runs the three scenarios: {@link #churn(LeaseBackend, int, int)} with 4 claimers of 6 rounds,
     * {@link #handOverAboveTheMark(LeaseBackend, Duration, Duration)} with a clock 300 ms ahead, and
     * {@link #fencingOnLoss(LeaseBackend, Duration)}.
     *
     * @param backend claimers on one fresh coordinator whose id space is the single id 0
     * @param limit how long a claimer may wait for the coordinator to give the id on (a few TTLs)
     * @return what was measured
     */
    public static Report check(LeaseBackend backend, Duration limit) {
        return new Report(churn(backend, 4, 6), handOverAboveTheMark(backend, Duration.ofMillis(300), limit),
                fencingOnLoss(backend, limit));
    }

    /**
     * Claimers acquire, make IDs and release, concurrently, round after round.
     *
     * @param backend the backend
     * @param claimers how many claim at once
     * @param rounds how many times each tries
     * @return counts
     * @throws AssertionError if two claimers held one id at once, an ID repeated, or a claimer failed
     */
    public static Churn churn(LeaseBackend backend, int claimers, int rounds) {
        ConcurrentMap<Long, String> holding = new ConcurrentHashMap<>();
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        int[] claims = new int[claimers];
        int[] full = new int[claimers];
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < claimers; t++) {
            int me = t;
            String name = "churn-" + t;
            threads.add(new Thread(() -> {
                try (LeaseBackend.Claimer claimer = backend.claimer(name, InstantSource.system())) {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        FencingLease lease = claimer.tryAcquire();
                        if (lease == null) {
                            full[me]++;
                            continue;
                        }
                        claims[me]++;
                        String other = holding.putIfAbsent(lease.machineId(), name);
                        if (other != null) {
                            failures.add(name + " and " + other + " both hold machine id " + lease.machineId());
                        }
                        SnowflakeGenerator g = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).build();
                        for (int i = 0; i < 100; i++) {
                            long id = g.nextLong();
                            if (!ids.add(id)) {
                                failures.add(name + " repeated ID " + id + " (" + g.decode(id) + ")");
                            }
                        }
                        holding.remove(lease.machineId(), name); // before the release frees it
                        claimer.release();
                    }
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(name + ": " + e);
                }
            }, name));
        }
        threads.forEach(Thread::start);
        start.countDown();
        joinAll(threads);
        if (!failures.isEmpty()) {
            throw new AssertionError("churn: " + failures);
        }
        int c = Arrays.stream(claims).sum();
        if (c == 0) {
            throw new AssertionError("churn: no claimer ever got an id");
        }
        return new Churn(c, Arrays.stream(full).sum(), ids.size());
    }

    /**
     * A holder whose clock runs {@code ahead} of real time makes IDs and releases; the next holder,
     * on real time, reads the mark and starts above it.
     *
     * @param backend the backend (id space: the single id 0)
     * @param ahead how far the first holder's clock runs ahead; within the backend's skew bound
     * @param limit how long each holder may wait for the id to be free (a release that failed before
     *     leaves it held until it expires)
     * @return the mark and the next holder's first ID
     * @throws AssertionError if the next holder's first ID is not above the first holder's last
     */
    public static HandOver handOverAboveTheMark(LeaseBackend backend, Duration ahead, Duration limit) {
        InstantSource aheadClock = offset(ahead.toMillis());
        long last = 0;
        long mark;
        try (LeaseBackend.Claimer a = backend.claimer("hand-over-A", aheadClock)) {
            FencingLease la = claimWithin(a, limit, "hand-over-A finds the id free");
            SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).clock(aheadClock).machineId(la).build();
            for (int i = 0; i < 1000; i++) {
                last = ga.nextLong();
            }
            mark = ga.highWaterMark();
            a.release();
        }
        try (LeaseBackend.Claimer b = backend.claimer("hand-over-B", InstantSource.system())) {
            FencingLease lb = claimWithin(b, limit, "hand-over-B finds the released id free");
            if (lb.highWaterMark() < mark) {
                throw new AssertionError("hand-over: the next holder read mark " + lb.highWaterMark()
                        + ", below the " + mark + " the first recorded");
            }
            SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lb)
                    .onClockBackwards(ClockBackwardsPolicy.waitUpTo(ahead.plusSeconds(1))).build();
            long first = gb.nextLong();
            if (first <= last) {
                throw new AssertionError("hand-over: the next holder's first ID " + first + " (" + gb.decode(first)
                        + ") is not above the first holder's last " + last + " (" + gb.decode(last) + ")");
            }
            b.release();
            return new HandOver(mark, first);
        }
    }

    /**
     * A holder makes IDs on a thread of its own until the end; it is cut off from the coordinator;
     * another claimer tries until it gets the id, then makes IDs for a while.
     *
     * @param backend the backend (id space: the single id 0)
     * @param limit how long the second claimer may wait for the id
     * @return what was measured
     * @throws AssertionError if the old holder made an ID at or after the new holder's start, an ID
     *     of the new holder, or was never refused; or the id was not given on within {@code limit}
     */
    public static Loss fencingOnLoss(LeaseBackend backend, Duration limit) {
        InstantSource clock = InstantSource.system();
        try (LeaseBackend.Claimer a = backend.claimer("loss-A", clock);
                LeaseBackend.Claimer b = backend.claimer("loss-B", clock)) {
            FencingLease la = claimWithin(a, limit, "loss-A finds the id free");
            SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).machineId(la).build();
            Maker maker = new Maker(ga);
            Thread t = new Thread(maker, "loss-A-ids");
            t.start();
            awaitIds(maker);
            long cut = System.nanoTime();
            a.cutOff();
            FencingLease lb = null;
            long end = cut + limit.toNanos();
            while (lb == null) {
                if (System.nanoTime() - end > 0) {
                    maker.stop = true;
                    joinAll(List.of(t));
                    throw new AssertionError("fencing on loss: the id was not given to another claimer within "
                            + limit.toMillis() + " ms of the cut");
                }
                lb = b.tryAcquire();
                if (lb == null) {
                    LockSupport.parkNanos(20_000_000);
                }
            }
            long takenAfter = (System.nanoTime() - cut) / 1_000_000;
            long newStart = clock.millis();
            SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lb).build();
            Set<Long> newIds = new HashSet<>();
            long until = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() - until < 0) {
                newIds.add(gb.nextLong());
                LockSupport.parkNanos(20_000);
            }
            maker.stop = true;
            joinAll(List.of(t));
            long[] old = maker.ids();
            long oldLast = Long.MIN_VALUE;
            for (long id : old) {
                long ms = LAYOUT.decode(id).timestamp().toEpochMilli();
                oldLast = Math.max(oldLast, ms);
                if (newIds.contains(id)) {
                    throw new AssertionError("fencing on loss: both holders made ID " + id + " (" + LAYOUT.decode(id) + ")");
                }
            }
            if (oldLast >= newStart) {
                throw new AssertionError("fencing on loss: the cut-off holder made an ID at " + Instant.ofEpochMilli(oldLast)
                        + ", at or after the new holder started at " + Instant.ofEpochMilli(newStart));
            }
            if (maker.refusals == 0) {
                throw new AssertionError("fencing on loss: the cut-off holder was never refused");
            }
            long refusedAfter = (maker.firstRefusalNanos - cut) / 1_000_000;
            b.release();
            return new Loss(old.length, maker.refusals, refusedAfter, takenAfter, oldLast, newStart, newIds.size());
        }
    }

    /** Makes IDs in small bursts (a few thousand a second) until stopped, keeping each. */
    private static final class Maker implements Runnable {
        final SnowflakeGenerator ids;
        volatile boolean stop;
        volatile long made;
        volatile long refusals;
        volatile long firstRefusalNanos;
        private long[] buf = new long[1 << 14];
        private int n;

        Maker(SnowflakeGenerator ids) {
            this.ids = ids;
        }

        @Override
        public void run() {
            while (!stop) {
                for (int i = 0; i < 4; i++) {
                    try {
                        long id = ids.nextLong();
                        if (n == buf.length) {
                            buf = Arrays.copyOf(buf, n * 2);
                        }
                        buf[n++] = id;
                        made = n;
                    } catch (MachineIdLostException e) {
                        if (refusals++ == 0) {
                            firstRefusalNanos = System.nanoTime();
                        }
                    }
                }
                LockSupport.parkNanos(200_000);
            }
        }

        long[] ids() {
            return Arrays.copyOf(buf, n);
        }
    }

    private static void awaitIds(Maker maker) {
        long end = System.nanoTime() + 5_000_000_000L;
        while (maker.made < 100) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("fencing on loss: the holder made no IDs in 5 s");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Tries until the id is free or {@code limit} has passed: an earlier holder whose release failed
     * (a timeout on a loaded machine) leaves the id to expire, which is within the contract.
     */
    private static FencingLease claimWithin(LeaseBackend.Claimer claimer, Duration limit, String what) {
        long end = System.nanoTime() + limit.toNanos();
        FencingLease lease = claimer.tryAcquire();
        while (lease == null && System.nanoTime() - end < 0) {
            pause(50);
            lease = claimer.tryAcquire();
        }
        return require(lease, what);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the id", e);
        }
    }

    private static FencingLease require(FencingLease lease, String what) {
        if (lease == null) {
            throw new AssertionError("expected: " + what + "; every id was held");
        }
        if (!lease.isHeld()) {
            throw new AssertionError("expected: " + what + "; the lease returned is not held: " + lease);
        }
        return lease;
    }

    private static InstantSource offset(long millis) {
        return new InstantSource() {
            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis());
            }

            @Override
            public long millis() {
                return System.currentTimeMillis() + millis;
            }
        };
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + t.getName(), e);
            }
        }
    }
}
