package dev.idgen.jcstress.soak;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import dev.idgen.jcstress.broken.RacySnowflakeGenerator;
import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.UuidV7Generator;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * The soak run. Each run shares one generator between several threads, each thread keeping its IDs
 * in its own {@code long[]}; afterwards every thread's IDs must strictly increase and no ID may
 * appear twice across threads. Prints IDs/s per run (wall time of the generating phase, for the
 * report only: speed claims come from JMH) and closes with {@code soak: N passed, M failed}; exits 1
 * on any failure.
 *
 * <p>Runs, for {@code --ids N} (default 10^8):
 * <ol>
 *   <li>Snowflake 41/6/16, system clock, N IDs: the 16 sequence bits lift the layout's ceiling to
 *       65,536,000 IDs/s, so the run measures the CAS rather than waits for the clock (Twitter's
 *       41/10/12 stops at 4,096,000 IDs/s: 10^8 IDs would take at least 25 s);</li>
 *   <li>the same with a {@link StepBackClock} (steps of up to 4 ms, about once per 100,000 reads)
 *       under the default policy {@code waitUpTo(5 ms)}, N IDs;</li>
 *   <li>Snowflake with Twitter's layout, system clock, N/5 IDs: exhausts its 4,096 IDs a
 *       millisecond all the time, so the threads keep waiting for the next tick;</li>
 *   <li>monotonic UUIDv7 (defaults: {@code runAhead(10 s)}, the CSPRNG), system clock, N;</li>
 *   <li>the same with the step-back clock, N;</li>
 *   <li>the control: {@link RacySnowflakeGenerator} (no CAS), system clock, up to 10^7 IDs. It
 *       passes only if the checks DO find duplicates, so the soak is known to be able to fail.</li>
 * </ol>
 * Options: {@code --ids N}, {@code --threads T} (default 4), {@code --seed S} (default 20261203),
 * {@code --budget SECONDS} (default 120: a run still generating then fails).
 */
public final class Soak {

    private final int threads;
    private final long seed;
    private final long budgetSeconds;

    private Soak(int threads, long seed, long budgetSeconds) {
        this.threads = threads;
        this.seed = seed;
        this.budgetSeconds = budgetSeconds;
    }

    /**
     * @param args see the class documentation
     */
    public static void main(String[] args) {
        long ids = 100_000_000L;
        int threads = 4;
        long seed = 20261203L;
        long budget = 120;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--ids" -> ids = Long.parseLong(value.replace("_", ""));
                case "--threads" -> threads = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--budget" -> budget = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; known: --ids N, --threads T, --seed S, --budget SECONDS");
            }
            i++;
        }
        Soak soak = new Soak(threads, seed, budget);
        int passed = 0;
        int failed = 0;
        List<Boolean> results = new ArrayList<>();
        results.add(soak.snowflake("snowflake 41/6/16, system clock", BenchLayouts.SIXTEEN_SEQUENCE_BITS,
                InstantSource.system(), ids));
        results.add(soak.snowflake("snowflake 41/6/16, step-back clock", BenchLayouts.SIXTEEN_SEQUENCE_BITS,
                soak.stepBackClock(), ids));
        results.add(soak.snowflake("snowflake twitter 41/10/12, system clock", SnowflakeLayout.TWITTER,
                InstantSource.system(), ids / 5));
        results.add(soak.uuidV7("uuidv7 monotonic, system clock", InstantSource.system(), ids));
        results.add(soak.uuidV7("uuidv7 monotonic, step-back clock", soak.stepBackClock(), ids));
        results.add(soak.brokenIsCaught(Math.min(ids, 10_000_000L)));
        for (boolean ok : results) {
            if (ok) {
                passed++;
            } else {
                failed++;
            }
        }
        System.out.println("soak: " + passed + " passed, " + failed + " failed");
        if (failed > 0) {
            System.exit(1);
        }
    }

    private StepBackClock stepBackClock() {
        return new StepBackClock(InstantSource.system(), seed, 100_000, 4);
    }

    private boolean snowflake(String name, SnowflakeLayout layout, InstantSource clock, long ids) {
        // each run checks its own IDs; runs one after another reuse machine id 1
        LongIdGenerator generator = SnowflakeGenerator.builder().layout(layout).machineId(1).clock(clock)
                .skipMachineIdRegistry().build();
        return run(name, clock, ids, false, (ledger) -> (thread, filled) -> {
            long[] mine = ledger.high(thread);
            for (int i = 0; i < mine.length; i++) {
                mine[i] = generator.nextLong();
                filled[thread] = i + 1;
            }
        });
    }

    private boolean brokenIsCaught(long ids) {
        LongIdGenerator generator = new RacySnowflakeGenerator(BenchLayouts.SIXTEEN_SEQUENCE_BITS, 1,
                InstantSource.system());
        boolean clean = run("control: racy generator (must be caught)", InstantSource.system(), ids, false,
                (ledger) -> (thread, filled) -> {
                    long[] mine = ledger.high(thread);
                    for (int i = 0; i < mine.length; i++) {
                        mine[i] = generator.nextLong();
                        filled[thread] = i + 1;
                    }
                });
        System.out.println("  control " + (clean ? "NOT caught: the soak checks have lost their power" : "caught: OK"));
        return !clean;
    }

    private boolean uuidV7(String name, InstantSource clock, long ids) {
        IdGenerator<UUID> generator = UuidV7Generator.builder().clock(clock).build();
        return run(name, clock, ids, true, (ledger) -> (thread, filled) -> {
            long[] high = ledger.high(thread);
            long[] low = ledger.low(thread);
            for (int i = 0; i < high.length; i++) {
                UUID u = generator.next();
                high[i] = u.getMostSignificantBits();
                low[i] = u.getLeastSignificantBits();
                filled[thread] = i + 1;
            }
        });
    }

    /** The work of one thread: fill its slots, counting how many so far. */
    private interface Worker {
        void work(int thread, int[] filled);
    }

    private boolean run(String name, InstantSource clock, long ids, boolean pairs,
            Function<IdLedger, Worker> workerFor) {
        int perThread = Math.toIntExact(ids / threads);
        IdLedger ledger = new IdLedger(threads, perThread, pairs);
        Worker worker = workerFor.apply(ledger);
        int[] filled = new int[threads];
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(threads);
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    worker.work(thread, filled);
                } catch (Throwable e) { // reported below with its thread
                    failures.set(thread, e);
                } finally {
                    done.countDown();
                }
            }, "soak-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        long began = System.nanoTime();
        start.countDown();
        boolean finished;
        try {
            finished = done.await(budgetSeconds, TimeUnit.SECONDS);
            if (!finished) {
                workers.forEach(Thread::interrupt);
                done.await(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("soak interrupted", e);
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        IdLedger.Verdict verdict = ledger.check(filled);
        String problem = null;
        if (!finished) {
            problem = "not finished within the budget of " + budgetSeconds + " s";
        }
        for (int t = 0; t < threads && problem == null; t++) {
            if (failures.get(t) != null) {
                problem = "thread " + t + " failed after " + filled[t] + " ids: " + failures.get(t);
            }
        }
        if (problem == null && !verdict.clean()) {
            problem = verdict.firstProblem();
        }
        String clockNote = clock instanceof StepBackClock s
                ? String.format(Locale.ROOT, ", %d steps back (seed %d)", s.stepsBack(), s.seed()) : "";
        System.out.printf(Locale.ROOT, "%-42s %,d ids, %d threads, %.1f s, %,.0f ids/s; %d duplicates, "
                + "%d order violations%s: %s%n", name, verdict.ids(), threads, seconds, verdict.ids() / seconds,
                verdict.duplicates(), verdict.orderViolations(), clockNote, problem == null ? "OK" : "FAILED, " + problem);
        return problem == null;
    }
}
