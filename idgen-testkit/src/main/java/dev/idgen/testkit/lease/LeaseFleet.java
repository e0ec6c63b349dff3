package dev.idgen.testkit.lease;

import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A fleet of claimers of one machine-id space in one JVM, run against a real coordinator through a
 * small per-backend {@link Backend}: the same check for every lease backend.
 *
 * <ol>
 *   <li>{@code n} members connect, then claim at once (from {@link Settings#parallelism()} threads);
 *       the space is exactly {@code 0..n-1}. Every member gets an id of its own; the time from the
 *       first claim to the last is measured.</li>
 *   <li>One member more is refused with a message naming the space ({@code 0..n-1}) and how to
 *       widen it (it must name a layout).</li>
 *   <li>Over a steady window the server's count of lease operations ({@link Backend#serverOps()})
 *       gives the renewal load; no holder may lose its lease meanwhile.</li>
 *   <li>{@link Settings#die()} holders die at once ({@link Member#die()}: renewals stop and the
 *       connection goes, nothing is released). As many new members try to claim until they get an
 *       id. Each must get one of the dead holders' ids, and only after the dead lease's fence and
 *       after the server's own expiry of it, where the backend can read that
 *       ({@link Backend#serverExpiryMillis(FencingLease)}). The surviving holders keep theirs.</li>
 * </ol>
 *
 * <p>The size comes from the system property {@value #CLAIMERS_PROPERTY} (default 200, the CI
 * setting; 1000 is the large one). Failures throw {@link AssertionError}s naming what went wrong.
 */
public final class LeaseFleet {

    /** The system property that sets the number of claimers. */
    public static final String CLAIMERS_PROPERTY = "idgen.test.fleet.claimers";

    private static final long MB = 1 << 20;

    private LeaseFleet() {
    }

    /** A lease backend's side of the fleet: members on one fresh coordinator, and the server's counters. */
    public interface Backend {

        /**
         * A new member, connected, with the timings of the fleet's {@link Settings#ttl()}.
         *
         * @param index 0, 1, 2, ... in the order the fleet asks; members of one index range may share
         *     a client where the backend says so, and then die together
         * @param maxMachineId the largest id of the space to claim from
         * @return the member, not yet holding an id
         */
        Member member(int index, long maxMachineId);

        /**
         * {@return a cumulative count, read from the server, of the operations the leases cause
         *     (statements, commands, requests); the fleet divides its change by time}
         */
        long serverOps();

        /** {@return what {@link #serverOps()} counts, for the report, e.g. {@code "EVAL"}} */
        String opsName();

        /**
         * When the server lets another claimer have the id of a holder that has just died, by the
         * server's own clock and rules, where the backend can read it.
         *
         * @param dead the dead holder's lease
         * @return Unix milliseconds, or -1 if the backend cannot tell
         */
        default long serverExpiryMillis(FencingLease dead) {
            return -1;
        }
    }

    /** One would-be holder, as one process of the fleet. */
    public interface Member {

        /**
         * Claims a free id of the space, renewing in the background as in production.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is held (the message says so), or the claim failed
         */
        FencingLease acquire();

        /** {@return the fence of the lease {@link #acquire()} returned: it makes no ID at or after it} */
        Instant fence();

        /**
         * Dies as a process does: renewals stop and the connection to the coordinator goes, with no
         * release. Members sharing a client die with it.
         */
        void die();

        /** Releases what is held (if alive) and frees the member's resources. */
        void close();
    }

    /**
     * A member around a backend's lease builder: {@link Member#acquire()} calls {@code claim},
     * {@link Member#fence()} reads the lease's fence, {@link Member#die()} runs {@code die}, and
     * {@link Member#close()} releases the lease while {@code reachable} says its coordinator can still
     * be reached (a member cut off with others, by a silenced shared connection, would only wait out
     * its call timeout).
     *
     * @param claim acquires a lease, renewing in the background
     * @param die cuts the member off from its coordinator, releasing nothing
     * @param reachable whether a release can reach the coordinator
     * @return the member
     */
    public static Member member(Supplier<? extends StoreLease> claim, Runnable die, BooleanSupplier reachable) {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(die, "die");
        Objects.requireNonNull(reachable, "reachable");
        return new Member() {
            private volatile StoreLease lease;

            @Override
            public FencingLease acquire() {
                lease = claim.get();
                return lease;
            }

            @Override
            public Instant fence() {
                return lease.fence();
            }

            @Override
            public void die() {
                die.run();
            }

            @Override
            public void close() {
                StoreLease l = lease;
                if (l != null && reachable.getAsBoolean()) {
                    l.close();
                }
            }
        };
    }

    /**
     * How the fleet runs.
     *
     * @param claimers how many members claim, and the size of the space
     * @param die how many holders die at once
     * @param parallelism how many threads make the first claims
     * @param ttl the lease TTL (or session timeout) the backend's members use, for the report and
     *     the limits
     * @param steadyWindow how long the renewal load is measured
     * @param reclaimLimit how long the new members may take to get the dead holders' ids
     */
    public record Settings(int claimers, int die, int parallelism, Duration ttl, Duration steadyWindow,
            Duration reclaimLimit) {

        /**
         * Checks the counts.
         *
         * @param claimers how many members claim, and the size of the space (at least 2)
         * @param die how many holders die at once (at least 1, fewer than {@code claimers})
         * @param parallelism how many threads make the first claims (at least 1)
         * @param ttl the lease TTL or session timeout
         * @param steadyWindow how long the renewal load is measured
         * @param reclaimLimit how long the new members may take to get the dead holders' ids
         * @throws IllegalArgumentException if a count is out of range
         */
        public Settings {
            Objects.requireNonNull(ttl, "ttl");
            Objects.requireNonNull(steadyWindow, "steadyWindow");
            Objects.requireNonNull(reclaimLimit, "reclaimLimit");
            if (claimers < 2 || die < 1 || die >= claimers || parallelism < 1) {
                throw new IllegalArgumentException("claimers " + claimers + ", die " + die + ", parallelism "
                        + parallelism + ": need claimers >= 2, 1 <= die < claimers, parallelism >= 1");
            }
        }

        /**
         * The fleet's defaults for a backend whose leases live {@code ttl}: the size from
         * {@value #CLAIMERS_PROPERTY} (default 200), 100 deaths (at most half the fleet), 32 claiming
         * threads, a steady window of the larger of 6 s and the TTL, and 3 TTLs plus 30 s for the
         * reclaim.
         *
         * @param ttl the lease TTL or session timeout
         * @return the settings
         */
        public static Settings forTtl(Duration ttl) {
            int n = Integer.getInteger(CLAIMERS_PROPERTY, 200);
            Duration window = ttl.compareTo(Duration.ofSeconds(6)) > 0 ? ttl : Duration.ofSeconds(6);
            return new Settings(n, Math.min(100, n / 2), 32, ttl, window, ttl.multipliedBy(3).plusSeconds(30));
        }

        /**
         * @param threads how many threads make the first claims
         * @return these settings with that many
         */
        public Settings withParallelism(int threads) {
            return new Settings(claimers, die, threads, ttl, steadyWindow, reclaimLimit);
        }
    }

    /**
     * What one fleet run measured.
     *
     * @param backend the backend's name
     * @param claimers how many held an id at once
     * @param allClaimedMillis from the first claim to the last
     * @param opsPerSecond the server's lease operations per second over the steady window
     * @param opsName what was counted
     * @param threads live threads in the JVM during the steady window (claimers, clients, the
     *     coordinator if it runs in the JVM)
     * @param heapMb heap in use then
     * @param died how many holders died at once
     * @param firstReclaimMillis from the deaths to the first of their ids claimed again
     * @param allReclaimedMillis from the deaths to the last of them claimed again
     * @param minMarginMillis the smallest time between a dead holder's fence and its id's new claim
     * @param minServerMarginMillis the smallest time between the server's expiry of a dead holder
     *     and its id's new claim, or -1 if the backend cannot read the expiry
     * @param ttl the TTL (or session timeout) the members used
     */
    public record Result(String backend, int claimers, long allClaimedMillis, double opsPerSecond, String opsName,
            int threads, long heapMb, int died, long firstReclaimMillis, long allReclaimedMillis, long minMarginMillis,
            long minServerMarginMillis, Duration ttl) {

        @Override
        public String toString() {
            return String.format("%s fleet of %d: all claimed in %d ms; renew load %.0f %s/s on the server (%d threads,"
                    + " %d MB heap); %d die at once (ttl %d ms) -> first reclaimed %d ms later, all %d ms later; every"
                    + " reclaim %d ms or more after the dead holder's fence%s", backend, claimers, allClaimedMillis,
                    opsPerSecond, opsName, threads, heapMb, died, ttl.toMillis(), firstReclaimMillis,
                    allReclaimedMillis, minMarginMillis, minServerMarginMillis < 0 ? ""
                            : " and " + minServerMarginMillis + " ms or more after the server expired it");
        }
    }

    /**
     * Runs the fleet.
     *
     * @param name the backend's name, for messages and the report
     * @param backend members on one fresh coordinator
     * @param s the settings
     * @return what was measured
     * @throws AssertionError if two members got one id, a claim failed, the refusal did not name
     *     the space and how to widen it, a healthy holder lost its lease, or a dead holder's id was
     *     claimed again before its fence or its expiry on the server, or not within the limit
     */
    public static Result run(String name, Backend backend, Settings s) {
        int n = s.claimers();
        long max = n - 1;
        ExecutorService pool = Executors.newFixedThreadPool(s.parallelism());
        List<Member> members = new ArrayList<>();
        List<Member> extra = new ArrayList<>();
        List<FencingLease> leases = new ArrayList<>();
        try {
            List<Callable<Member>> connects = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                connects.add(() -> backend.member(index, max));
            }
            members.addAll(all(pool, connects, name + ": connecting member"));

            long start = System.nanoTime();
            List<Callable<FencingLease>> claims = new ArrayList<>();
            for (Member m : members) {
                claims.add(m::acquire);
            }
            leases.addAll(all(pool, claims, name + ": claim"));
            long allClaimed = (System.nanoTime() - start) / 1_000_000;
            TreeSet<Long> ids = new TreeSet<>();
            leases.forEach(l -> ids.add(l.machineId()));
            if (ids.size() != n || ids.first() != 0 || ids.last() != max) {
                throw new AssertionError(name + ": " + n + " claimers hold " + ids.size() + " distinct ids from "
                        + ids.first() + " to " + ids.last() + "; expected each its own of 0.." + max);
            }

            Member one = backend.member(n, max);
            extra.add(one);
            try {
                FencingLease l = one.acquire();
                throw new AssertionError(name + ": claimer " + (n + 1) + " got id " + l.machineId() + " of the space 0.."
                        + max + " that the other " + n + " hold");
            } catch (MachineIdLeaseException e) {
                String m = e.getMessage();
                if (m == null || !m.contains("0.." + max) || !m.contains("layout")) {
                    throw new AssertionError(name + ": the refusal past the space must name it (0.." + max
                            + ") and how to widen it (a layout): " + m, e);
                }
            }

            long ops0 = backend.serverOps();
            long t0 = System.nanoTime();
            LockSupport.parkNanos(s.steadyWindow().toNanos());
            long ops1 = backend.serverOps();
            double opsPerSecond = (ops1 - ops0) * 1e9 / (System.nanoTime() - t0);
            int threads = Thread.getAllStackTraces().size();
            Runtime rt = Runtime.getRuntime();
            long heapMb = (rt.totalMemory() - rt.freeMemory()) / MB;
            requireHeld(name, "during the steady window", leases.subList(0, n));

            // the deaths
            Map<Long, Integer> deadIndex = new HashMap<>();
            for (int i = 0; i < s.die(); i++) {
                deadIndex.put(leases.get(i).machineId(), i);
            }
            // a lease shut on losing its connection shows no fence any more: keep the last one it had
            long[] fenceAtDeath = new long[s.die()];
            for (int i = 0; i < s.die(); i++) {
                fenceAtDeath[i] = millis(members.get(i).fence());
            }
            long diedAt = System.currentTimeMillis();
            for (int i = 0; i < s.die(); i++) {
                members.get(i).die();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // renewals in flight land or fail
            Map<Long, Long> serverExpiry = new HashMap<>();
            for (int i = 0; i < s.die(); i++) {
                serverExpiry.put(leases.get(i).machineId(), backend.serverExpiryMillis(leases.get(i)));
            }

            Map<Long, Long> reclaimedAt = new ConcurrentHashMap<>();
            List<String> wrong = Collections.synchronizedList(new ArrayList<>());
            long limit = System.nanoTime() + s.reclaimLimit().toNanos();
            ExecutorService reclaimers = Executors.newFixedThreadPool(s.die());
            List<Callable<FencingLease>> again = new ArrayList<>();
            for (int k = 0; k < s.die(); k++) {
                Member m = backend.member(n + 1 + k, max);
                extra.add(m);
                again.add(() -> {
                    while (true) {
                        try {
                            FencingLease l = m.acquire();
                            long now = System.currentTimeMillis();
                            Long prev = reclaimedAt.putIfAbsent(l.machineId(), now);
                            if (prev != null) {
                                wrong.add("id " + l.machineId() + " claimed twice after the deaths");
                            }
                            return l;
                        } catch (MachineIdLeaseException e) {
                            if (!e.getMessage().startsWith("Every machine id") || System.nanoTime() - limit > 0) {
                                throw e;
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                        }
                    }
                });
            }
            List<FencingLease> second;
            try {
                second = all(reclaimers, again, name + ": claim after the deaths");
            } finally {
                reclaimers.shutdownNow();
            }
            long allReclaimed = reclaimedAt.values().stream().mapToLong(Long::longValue).max().orElseThrow() - diedAt;
            long firstReclaim = reclaimedAt.values().stream().mapToLong(Long::longValue).min().orElseThrow() - diedAt;
            if (!reclaimedAt.keySet().equals(deadIndex.keySet())) {
                Set<Long> other = new TreeSet<>(reclaimedAt.keySet());
                other.removeAll(deadIndex.keySet());
                wrong.add("ids of live holders were claimed: " + other);
            }
            long minMargin = Long.MAX_VALUE;
            long minServerMargin = Long.MAX_VALUE;
            for (Map.Entry<Long, Long> e : reclaimedAt.entrySet()) {
                Integer i = deadIndex.get(e.getKey());
                if (i == null) {
                    continue;
                }
                long fence = Math.max(fenceAtDeath[i], millis(members.get(i).fence())); // a renewal in flight
                long margin = e.getValue() - fence;
                minMargin = Math.min(minMargin, margin);
                if (margin <= 0) {
                    wrong.add("id " + e.getKey() + " claimed again at " + Instant.ofEpochMilli(e.getValue())
                            + ", not after its dead holder's fence " + Instant.ofEpochMilli(fence));
                }
                long expiry = serverExpiry.get(e.getKey());
                if (expiry >= 0) {
                    minServerMargin = Math.min(minServerMargin, e.getValue() - expiry);
                    if (e.getValue() <= expiry) {
                        wrong.add("id " + e.getKey() + " claimed again at " + Instant.ofEpochMilli(e.getValue())
                                + ", before the server expired it at " + Instant.ofEpochMilli(expiry));
                    }
                } else {
                    minServerMargin = -1;
                }
            }
            if (!wrong.isEmpty()) {
                throw new AssertionError(name + ": after " + s.die() + " holders died: " + wrong);
            }
            requireHeld(name, "after the deaths", leases.subList(s.die(), n));
            requireHeld(name, "after the deaths (the new holders)", second);
            return new Result(name, n, allClaimed, opsPerSecond, backend.opsName(), threads, heapMb, s.die(),
                    firstReclaim, allReclaimed, minMargin, minServerMargin, s.ttl());
        } finally {
            pool.shutdownNow();
            List<Member> closing = new ArrayList<>(extra);
            closing.addAll(members);
            closeAll(closing);
        }
    }

    private static long millis(Instant fence) {
        return fence.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : fence.toEpochMilli();
    }

    private static void requireHeld(String name, String when, List<FencingLease> leases) {
        List<Long> lost = new ArrayList<>();
        for (FencingLease l : leases) {
            if (!l.isHeld()) {
                lost.add(l.machineId());
            }
        }
        if (!lost.isEmpty()) {
            throw new AssertionError(name + ": " + lost.size() + " healthy holders lost their lease " + when
                    + " (ids " + lost + "); the timings are too tight for this machine's load");
        }
    }

    private static <T> List<T> all(ExecutorService pool, List<Callable<T>> tasks, String what) {
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> t : tasks) {
            futures.add(pool.submit(t));
        }
        List<T> out = new ArrayList<>();
        AssertionError failed = null;
        for (int i = 0; i < futures.size(); i++) {
            try {
                out.add(futures.get(i).get());
            } catch (ExecutionException e) {
                if (failed == null) {
                    failed = new AssertionError(what + " " + i + " failed: " + e.getCause(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(what + ": interrupted", e);
            }
        }
        if (failed != null) {
            // what did succeed is closed by the caller only if it was recorded: close it here
            for (T t : out) {
                if (t instanceof Member m) {
                    m.close();
                } else if (t instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        failed.addSuppressed(e);
                    }
                }
            }
            throw failed;
        }
        return out;
    }

    private static void closeAll(List<Member> members) {
        ExecutorService closer = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Member m : members) {
                done.add(closer.submit(m::close));
            }
            for (Future<?> f : done) {
                try {
                    f.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    // closing anyway; the coordinator is thrown away after the run
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        } finally {
            closer.shutdownNow();
        }
    }
}
