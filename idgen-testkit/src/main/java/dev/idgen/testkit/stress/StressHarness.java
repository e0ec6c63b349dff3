package dev.idgen.testkit.stress;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.check.UuidChecks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs N threads that each take M IDs, all started together, and checks what came back: every ID
 * unique across all threads, and each thread's IDs strictly increasing (the promise of Snowflake
 * and monotonic UUIDv7 generators: calls from one thread follow one another).
 *
 * <p>Threads wait at a start gate until all are ready, so they contend from the first call. The
 * run is bounded: past the timeout the workers are interrupted (a generator spinning for its clock
 * gives up when interrupted) and the run fails, saying how far each thread got. {@code long} IDs go
 * into one {@code long[]} per thread, no boxing; UUIDs into two.
 *
 * <p>The result reports IDs per second of wall time. It is a rough figure for the report only:
 * never assert on it; speed is measured with JMH.
 *
 * <pre>{@code
 * StressResult r = StressHarness.builder().threads(8).idsPerThread(100_000).build().run(generator);
 * System.out.println(r);   // 800000 ids from 8 threads in ... ms (... ids/s)
 * }</pre>
 */
public final class StressHarness {

    private final int threads;
    private final int idsPerThread;
    private final Duration timeout;
    private final ThreadFactory threadFactory;
    private final boolean increasingPerThread;

    private StressHarness(Builder b) {
        this.threads = b.threads;
        this.idsPerThread = b.idsPerThread;
        this.timeout = b.timeout;
        this.threadFactory = b.threadFactory;
        this.increasingPerThread = b.increasingPerThread;
    }

    /**
     * A builder: 4 threads, 10,000 IDs each, 60 s timeout, daemon platform threads, per-thread order
     * checked.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * All threads share one generator.
     *
     * @param generator the generator under test
     * @return what the threads got
     * @throws AssertionError if an ID repeats, a thread's IDs are out of order, a call threw, or the
     *     run timed out
     */
    public StressResult run(LongIdGenerator generator) {
        Objects.requireNonNull(generator, "generator");
        return run(List.of(generator));
    }

    /**
     * Thread {@code t} uses generator {@code t % generators.size()}: several generators (say on
     * different machine ids) writing one ID space. IDs must be unique across all of them.
     *
     * @param generators the generators, at least one
     * @return what the threads got
     * @throws AssertionError if an ID repeats, a thread's IDs are out of order, a call threw, or the
     *     run timed out
     */
    public StressResult run(List<? extends LongIdGenerator> generators) {
        List<? extends LongIdGenerator> gens = requireGenerators(generators);
        long[][] ids = new long[threads][idsPerThread];
        Duration elapsed = runThreads((thread, progress) -> {
            LongIdGenerator generator = gens.get(thread % gens.size());
            long[] mine = ids[thread];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = generator.nextLong();
                progress[thread] = i + 1;
            }
        });
        StressResult result = new StressResult(ids, gens.size(), elapsed);
        IdChecks.assertAllUnique(ids);
        if (increasingPerThread) {
            for (int t = 0; t < threads; t++) {
                try {
                    IdChecks.assertStrictlyIncreasing(ids[t]);
                } catch (AssertionError e) {
                    throw new AssertionError("thread " + t + " (generator " + t % gens.size() + "): " + e.getMessage(), e);
                }
            }
        }
        return result;
    }

    /**
     * All threads share one UUID generator; order per thread is checked in unsigned order (turn
     * it off with {@link Builder#increasingPerThread(boolean)} for UUIDv4).
     *
     * @param generator the generator under test
     * @return what the threads got, each thread's UUIDs in a list
     * @throws AssertionError if a UUID repeats, a thread's UUIDs are out of order, a call threw, or
     *     the run timed out
     */
    public UuidStressResult runUuids(IdGenerator<UUID> generator) {
        Objects.requireNonNull(generator, "generator");
        long[][] high = new long[threads][idsPerThread];
        long[][] low = new long[threads][idsPerThread];
        Duration elapsed = runThreads((thread, progress) -> {
            long[] h = high[thread];
            long[] l = low[thread];
            for (int i = 0; i < h.length; i++) {
                UUID u = generator.next();
                h[i] = u.getMostSignificantBits();
                l[i] = u.getLeastSignificantBits();
                progress[thread] = i + 1;
            }
        });
        UuidStressResult result = new UuidStressResult(high, low, elapsed);
        List<UUID> all = new ArrayList<>(threads * idsPerThread);
        for (int t = 0; t < threads; t++) {
            List<UUID> mine = result.uuids(t);
            if (increasingPerThread) {
                try {
                    UuidChecks.assertStrictlyIncreasing(mine);
                } catch (AssertionError e) {
                    throw new AssertionError("thread " + t + ": " + e.getMessage(), e);
                }
            }
            all.addAll(mine);
        }
        UuidChecks.assertAllUnique(all);
        return result;
    }

    /** The work of one thread: fill its own slots, recording how many it has made so far. */
    private interface Worker {
        void work(int thread, int[] progress);
    }

    private Duration runThreads(Worker worker) {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(threads);
        int[] progress = new int[threads]; // each slot written by its own thread; read after done or for a message
        List<Thread> workers = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = threadFactory.newThread(() -> {
                try {
                    ready.countDown();
                    start.await();
                    worker.work(thread, progress);
                } catch (Throwable e) { // reported below, with the thread it came from
                    failures.set(thread, e);
                } finally {
                    done.countDown();
                }
            });
            workers.add(w);
            w.start();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long began;
        try {
            if (!ready.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw abort(workers, done, "threads did not all start within " + timeout, progress);
            }
            began = System.nanoTime();
            start.countDown();
            if (!done.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw abort(workers, done, "run did not finish within " + timeout, progress);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw abort(workers, done, "interrupted while waiting for the workers", progress);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - began);
        for (int t = 0; t < threads; t++) {
            Throwable failure = failures.get(t);
            if (failure != null) {
                throw new AssertionError("thread " + t + " failed after " + progress[t] + " of " + idsPerThread
                        + " ids: " + failure, failure);
            }
        }
        return elapsed;
    }

    private AssertionError abort(List<Thread> workers, CountDownLatch done, String why, int[] progress) {
        workers.forEach(Thread::interrupt);
        try {
            done.await(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        StringBuilder made = new StringBuilder();
        for (int t = 0; t < progress.length; t++) {
            made.append(t == 0 ? "" : ", ").append(progress[t]);
        }
        return new AssertionError(why + "; ids made per thread (of " + idsPerThread + "): [" + made + "]");
    }

    /** Daemon threads, so that a worker stuck in a generator that ignores interrupts cannot keep the JVM up. */
    private static Thread daemonWorker(Runnable work) {
        Thread t = new Thread(work, "idgen-stress-worker");
        t.setDaemon(true);
        return t;
    }

    private static <G> List<G> requireGenerators(List<G> generators) {
        Objects.requireNonNull(generators, "generators");
        if (generators.isEmpty()) {
            throw new IllegalArgumentException("no generators given; the harness needs at least one");
        }
        return List.copyOf(generators);
    }

    @Override
    public String toString() {
        return "StressHarness[" + threads + " threads x " + idsPerThread + " ids, timeout " + timeout + "]";
    }

    /** Configures a {@link StressHarness}. */
    public static final class Builder {
        private int threads = 4;
        private int idsPerThread = 10_000;
        private Duration timeout = Duration.ofSeconds(60);
        private ThreadFactory threadFactory = StressHarness::daemonWorker;
        private boolean increasingPerThread = true;

        private Builder() {
        }

        /**
         * @param count worker threads, 1 to 1024; default 4
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder threads(int count) {
            if (count < 1 || count > 1024) {
                throw new IllegalArgumentException("threads " + count + " is out of range; allowed 1..1024");
            }
            this.threads = count;
            return this;
        }

        /**
         * @param count IDs each thread takes, 1 to 50,000,000; default 10,000
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder idsPerThread(int count) {
            if (count < 1 || count > 50_000_000) {
                throw new IllegalArgumentException("ids per thread " + count + " is out of range; allowed 1..50000000");
            }
            this.idsPerThread = count;
            return this;
        }

        /**
         * @param limit how long the whole run may take before it fails, more than zero; default 60 s
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder timeout(Duration limit) {
            Objects.requireNonNull(limit, "limit");
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("timeout " + limit + " is not allowed; it must be more than zero");
            }
            this.timeout = limit;
            return this;
        }

        /**
         * @param factory makes the worker threads (on Java 21, {@code Thread.ofVirtual().factory()}
         *     runs them on virtual threads); default daemon platform threads
         * @return this builder
         */
        public Builder threadFactory(ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * @param check whether each thread's IDs must strictly increase; default {@code true}. Turn
         *     off for generators that do not promise order, such as UUIDv4.
         * @return this builder
         */
        public Builder increasingPerThread(boolean check) {
            this.increasingPerThread = check;
            return this;
        }

        /** {@return a new harness} */
        public StressHarness build() {
            return new StressHarness(this);
        }
    }
}
