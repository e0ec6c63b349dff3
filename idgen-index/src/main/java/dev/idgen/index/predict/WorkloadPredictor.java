package dev.idgen.index.predict;

import dev.idgen.index.engine.ClientStyle;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import dev.idgen.index.model.IndexModel;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeyType;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Predicts an engine's primary-key leaf pages and fill from a workload alone, before any engine
 * runs: it simulates how the workload's writers interleave (each makes its transaction's keys when
 * the transaction starts, then sends its statements, each taking a drawn time, then commits), puts
 * the rows in the order they would reach the tree, and feeds them to the engine's calibrated model
 * ({@link IndexEngine}, the rules the {@code --real} replay uses). Seeded: the same input gives the
 * same prediction.
 *
 * <p>How writers interleave is what moves the figure, and it depends on how the server shares
 * itself out, which is not known in advance. So half the simulations let each writer's statements
 * take their own times ({@code INDEPENDENT}: a busy server whose stalls hit one writer at a time,
 * many writers' keys arriving late), and half make the writers queue for a few server slots
 * ({@code QUEUED}: a saturated server serving them nearly in turn). The figure is the median of
 * all of them, the range their extremes.
 *
 * <pre>{@code
 * Prediction p = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE)
 *         .workload(new Workload(100_000, 4, 1, 10, 0, 0, false, 1))
 *         .build().predict();
 * }</pre>
 */
public final class WorkloadPredictor {

    /** Twitter-epoch milliseconds the simulated clock starts at (late 2026). */
    private static final long START_MS = 1_795_000_000_000L - 1_288_834_974_657L;

    private final IndexEngine engine;
    private final RealKey key;
    private final Workload workload;
    private final ClientStyle client;
    private final Timing timing;
    private final int seeds;
    private final boolean secondary;
    private final RealKey primaryKey;
    private final double rate;

    private WorkloadPredictor(Builder b) {
        this.secondary = b.secondary;
        this.primaryKey = b.primaryKey;
        this.engine = b.engine;
        this.key = b.key;
        this.workload = b.workload;
        this.client = b.workload.client();
        this.rate = b.workload.rowsPerSecond();
        this.timing = b.timing != null ? b.timing : Calibration.timing(b.engine, b.workload, rate);
        this.seeds = b.seeds;
    }

    /**
     * @param engine whose rules the model follows
     * @param key the key kind, with its field order
     * @return a builder
     */
    public static Builder builder(IndexEngine engine, RealKey key) {
        return new Builder(engine, key);
    }

    /** @return the timing the simulation uses (given, or the engine's calibrated one) */
    public Timing timing() {
        return timing;
    }

    /** @return the client style simulated */
    public ClientStyle client() {
        return client;
    }

    /**
     * Runs the simulations: {@code seeds} with independent writers and as many with queued ones.
     *
     * @return leaf pages and fill, each simulation's and their range
     */
    public Prediction predict() {
        int n = 2 * seeds;
        long[] pages = new long[n];
        double[] fill = new double[n];
        for (int i = 0; i < n; i++) {
            IndexStats stats = simulate(i < seeds ? Interleaving.INDEPENDENT : Interleaving.QUEUED,
                    workload.seed() * 1_000_003L + i);
            pages[i] = stats.leafPages();
            fill[i] = engine.leafFill(stats, rowBytes());
        }
        return new Prediction(pages, fill);
    }

    /** @return bytes of each row besides the key that live in the index's leaves */
    int rowBytes() {
        if (secondary) {
            // a secondary entry carries the row's locator: SQLite its rowid, an integer in as few
            // bytes as its value needs (a Snowflake id takes 8); PostgreSQL's tid sits in the tuple
            // header the model counts already; InnoDB's primary key is in keyType()
            if (engine != IndexEngine.SQLITE) {
                return 0;
            }
            return primaryKey == RealKey.AUTO_INCREMENT ? integerBytes(workload.rows()) : 8;
        }
        return workload.payloadBytes();
    }

    private static int integerBytes(long max) {
        return max <= 127 ? 1 : max <= 32_767 ? 2 : max <= 8_388_607 ? 3 : 4;
    }

    /** The key column as the engine stores it: SQLite keeps its own counter's integers in 1 to 3 bytes. */
    KeyType keyType() {
        if (secondary && engine == IndexEngine.INNODB) {
            // an InnoDB secondary record is a 5-byte header, the key and the 8-byte BIGINT primary
            // key, with no transaction id or roll pointer; the engine's record size adds 13 bytes of
            // those to the key's stored size, so the stored size given here is key + 8 - 13
            KeyType k = key.keyType();
            return new KeyType(k.name() + " + BIGINT primary key", k.kind(), k.storedBytes() + 8 - 13, k.words());
        }
        if (key == RealKey.AUTO_INCREMENT && engine == IndexEngine.SQLITE) {
            long rows = workload.rows();
            return new KeyType("INTEGER", KeyType.Kind.LONG, rows <= 127 ? 1 : rows <= 32_767 ? 2 : rows <= 8_388_607 ? 3 : 4, 1);
        }
        return key.keyType();
    }

    /**
     * One simulated run.
     *
     * @param mode how the writers share the server
     * @param seed the seed of every draw
     * @return the model's figures
     */
    IndexStats simulate(Interleaving mode, long seed) {
        return feed(arrive(mode, seed));
    }

    /**
     * The writer of each row, in the order the rows reach the tree, for comparing a simulation's
     * interleaving with a recorded run's.
     *
     * @param mode how the writers share the server
     * @param seed the seed of every draw
     * @return writer ids, 0 to writers - 1
     */
    int[] arrivalWriters(Interleaving mode, long seed) {
        Rows rows = arrive(mode, seed);
        int[] order = rows.order();
        int[] writers = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            writers[i] = rows.writer[order[i]];
        }
        return writers;
    }

    private Rows arrive(Interleaving mode, long seed) {
        Rows rows = new Rows(Math.toIntExact(workload.rows()));
        if (mode == Interleaving.INDEPENDENT) {
            independent(rows, seed);
        } else if (rate > 0) {
            // the queued writers' rate follows from the slots and the service times; scale every
            // duration so that it is the given one (the order of events does not change, only
            // which millisecond each key falls in)
            queued(rows, seed, 1);
            queued(rows, seed, rows.rowsPerSecond() / rate);
        } else {
            queued(rows, seed, 1);
        }
        return rows;
    }

    /**
     * Writers that do not wait for each other: each statement and commit takes its own drawn time,
     * as on a server with a core per writer whose stalls hit one writer at a time.
     */
    private void independent(Rows rows, long seed) {
        Timing t = timing;
        PriorityQueue<Writer> queue = writers(seed, t);
        SplittableRandom shared = new SplittableRandom(~seed);
        long[] counter = {0};
        // invariant: the writer taken next is the one whose transaction starts first, so rows are
        // handed out (and shared counters advance) in the order the writers would ask for them
        while (rows.filled < rows.size()) {
            Writer w = queue.poll();
            int size = w.begin(rows.size() - rows.filled);
            w.makeKeys(key, client, counter, shared);
            if (client == ClientStyle.MULTI_ROW) {
                double d = draw(w.random, t.statementMicros(), t.sigma()) * (1 + 0.2 * (size - 1));
                rows.add(w, 0, size, w.time + d / 2);
                w.time += d;
            } else {
                for (int i = 0; i < size; i++) {
                    double d = draw(w.random, statementMicros(t), t.sigma());
                    rows.add(w, i, 1, w.time + d / 2);
                    w.time += d;
                }
            }
            w.time += draw(w.random, t.commitMicros(), t.sigma()) + think(w, t);
            queue.add(w);
        }
    }

    /**
     * Writers that queue for the server: it runs {@link Calibration#SERVER_SLOTS} jobs at once,
     * first come first served; an INSERT is one job, a commit {@link Calibration#COMMIT_JOBS}, each
     * taking a drawn service time. A saturated server (more writers than cores) interleaves them
     * so, nearly in turn.
     *
     * @param scale factor on every duration
     */
    private void queued(Rows rows, long seed, double scale) {
        rows.clear();
        Timing t = timing;
        PriorityQueue<Writer> queue = writers(seed, t);
        SplittableRandom shared = new SplittableRandom(~seed);
        long[] counter = {0};
        double[] free = new double[Calibration.SERVER_SLOTS];
        int handedOut = 0;
        // invariant: writers are taken in the order they become ready, and each job goes to the
        // slot that frees first, so the server serves jobs in the order they arrive
        while (rows.filled < rows.size()) {
            Writer w = queue.poll();
            if (w.jobsLeft == 0) {
                if (handedOut == rows.size()) {
                    continue; // every row is taken; this writer is done
                }
                int size = w.begin(rows.size() - handedOut);
                handedOut += size;
                w.makeKeys(key, client, counter, shared);
                w.jobsLeft = (client == ClientStyle.MULTI_ROW ? 1 : size) + Calibration.COMMIT_JOBS;
            }
            int slot = 0;
            for (int i = 1; i < free.length; i++) {
                if (free[i] < free[slot]) {
                    slot = i;
                }
            }
            double begin = Math.max(w.time, free[slot]);
            double d;
            if (w.jobsLeft > Calibration.COMMIT_JOBS) {
                int row = w.size - (w.jobsLeft - Calibration.COMMIT_JOBS);
                if (client == ClientStyle.MULTI_ROW) {
                    d = draw(w.random, t.statementMicros(), t.sigma()) * (1 + 0.2 * (w.size - 1)) * scale;
                    rows.add(w, 0, w.size, begin + d / 2);
                } else {
                    d = draw(w.random, statementMicros(t), t.sigma()) * scale;
                    rows.add(w, row, 1, begin + d / 2);
                }
            } else {
                d = draw(w.random, t.statementMicros(), t.sigma()) * scale;
            }
            free[slot] = begin + d;
            w.time = begin + d;
            if (--w.jobsLeft == 0) {
                w.time += think(w, t) * scale;
            }
            queue.add(w);
        }
    }

    private PriorityQueue<Writer> writers(long seed, Timing t) {
        PriorityQueue<Writer> queue = new PriorityQueue<>((a, b) -> a.time != b.time ? Double.compare(a.time, b.time)
                : Integer.compare(a.id, b.id));
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int i = 0; i < workload.writers(); i++) {
            Writer w = new Writer(i, new SplittableRandom(seeds.nextLong()), workload);
            // writers start within one transaction's time of each other, as threads started together do
            w.time = w.random.nextDouble() * (t.statementMicros() + t.commitMicros());
            queue.add(w);
        }
        return queue;
    }

    /**
     * A statement's time. A JDBC batch's rows take the time single INSERTs take: the driver sends them
     * one after another without waiting, but on InnoDB the recorded batch runs filled pages as the
     * single-INSERT runs did (a quarter of the time, the round trip left out, predicted 13-21 % too
     * few pages at 4 writers).
     */
    private double statementMicros(Timing t) {
        return t.statementMicros();
    }

    private static double think(Writer w, Timing t) {
        return t.thinkMicros() > 0 ? -t.thinkMicros() * Math.log(1 - w.random.nextDouble()) : 0;
    }

    /** Puts the rows in the order they reach the tree and feeds them to the engine's model. */
    private IndexStats feed(Rows rows) {
        int n = rows.size();
        int[] order = rows.order();
        IndexModel model = engine.builder(keyType(), rowBytes()).build();
        boolean engineCounter = key == RealKey.AUTO_INCREMENT;
        for (int i = 0; i < n; i++) {
            int r = order[i];
            if (engineCounter) {
                model.insert(i + 1L); // the engine numbers rows as they go in
            } else if (key.keyType().words() == 1) {
                model.insert(rows.high[r]);
            } else {
                model.insert(rows.high[r], rows.low[r]);
            }
        }
        return model.stats();
    }

    /** A log-normal draw of the given median and spread. */
    private static double draw(SplittableRandom random, double median, double sigma) {
        if (median == 0) {
            return 0;
        }
        return sigma == 0 ? median : median * Math.exp(sigma * gaussian(random));
    }

    private static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    /** One simulated writer: its clock, its generator's state and its draws. */
    private static final class Writer {
        final int id;
        final SplittableRandom random;
        double time;
        long lastMs = -1;
        long sequence;
        long lastStamp = -1;
        long blockNext;
        long blockEnd;
        /** The current transaction: its keys, how many, and (queued) the server jobs it has left. */
        final long[][] keys;
        final int txRowsMin;
        final int txRowsMax;
        int size;
        int jobsLeft;

        Writer(int id, SplittableRandom random, Workload w) {
            this.id = id;
            this.random = random;
            this.keys = new long[w.txRowsMax()][2];
            this.txRowsMin = w.txRowsMin();
            this.txRowsMax = w.txRowsMax();
        }

        /** Starts a transaction of a drawn size, at most {@code left} rows; returns the size. */
        int begin(int left) {
            size = Math.min(txRowsMin + random.nextInt(txRowsMax - txRowsMin + 1), left);
            return size;
        }

        /** Makes the transaction's keys now, as the runner does; a multi-row INSERT sends them sorted. */
        void makeKeys(RealKey key, ClientStyle client, long[] counter, SplittableRandom shared) {
            for (int i = 0; i < size; i++) {
                next(key, time, counter, keys[i], shared);
            }
            if (client == ClientStyle.MULTI_ROW) {
                Arrays.sort(keys, 0, size, key.keyType().words() == 2
                        ? (a, b) -> a[0] != b[0] ? Long.compareUnsigned(a[0], b[0]) : Long.compareUnsigned(a[1], b[1])
                        : (a, b) -> Long.compare(a[0], b[0]));
            }
        }

        /** Makes the next key as the writer's generator would at {@code micros} into the run. */
        void next(RealKey key, double micros, long[] counter, long[] out, SplittableRandom shared) {
            long ms = START_MS + (long) (micros / 1000);
            boolean newMs = ms != lastMs;
            if (newMs) {
                lastMs = ms;
            }
            long machine = id + 1L;
            out[1] = 0;
            switch (key) {
                case AUTO_INCREMENT -> out[0] = 0; // numbered in arrival order by the engine
                case SNOWFLAKE, SNOWFLAKE_SEQ_MACHINE, SNOWFLAKE_MACHINE_FIRST -> {
                    sequence = newMs ? 0 : sequence + 1;
                    out[0] = switch (key) {
                        case SNOWFLAKE -> ms << 22 | machine << 12 | sequence;
                        case SNOWFLAKE_SEQ_MACHINE -> ms << 22 | sequence << 10 | machine;
                        default -> machine << 53 | ms << 12 | sequence;
                    };
                }
                case UUID_V7 -> {
                    // the generator's counter starts at a random value each millisecond and counts up
                    sequence = newMs ? random.nextLong(1 << 15) : sequence + 1;
                    long unixMs = ms + 1_288_834_974_657L;
                    out[0] = unixMs << 16 | 0x7000L | (sequence >>> 4);
                    out[1] = 0x8000_0000_0000_0000L | (sequence & 0xF) << 58 | (random.nextLong() >>> 6);
                }
                case UUID_V7_SUBMILLI -> {
                    long unixMs = ms + 1_288_834_974_657L;
                    long fraction = (long) ((micros % 1000) * 4.096);
                    long stamp = Math.max(unixMs << 12 | fraction, lastStamp + 1);
                    lastStamp = stamp;
                    out[0] = (stamp >>> 12) << 16 | 0x7000L | (stamp & 0xFFF);
                    out[1] = 0x8000_0000_0000_0000L | (random.nextLong() >>> 2);
                }
                case BLOCKS, SEGMENT_100, SEGMENT_1000, SEGMENT_10000, SEGMENT_100000 -> {
                    // a writer counts in its own range; a spent range takes the next one off the shared counter
                    long block = key == RealKey.BLOCKS ? RealKey.BLOCK_SIZE : key.segmentStep();
                    if (blockNext == blockEnd) {
                        counter[0] += block;
                        blockEnd = counter[0] + 1;
                        blockNext = blockEnd - block;
                    }
                    out[0] = blockNext++;
                }
                default -> { // UUIDv4, binary or text: the order of random keys does not matter
                    out[0] = shared.nextLong() & ~0xF000L | 0x4000L;
                    out[1] = shared.nextLong() >>> 2 | 0x8000_0000_0000_0000L;
                }
            }
        }
    }

    /** How the simulated writers share the server. */
    enum Interleaving {
        /** Each writer's statements and commits take their own drawn times. */
        INDEPENDENT,
        /** Writers queue for a few server slots, first come first served. */
        QUEUED
    }

    /** The simulated rows: when each reaches the tree (µs) and its key. */
    private static final class Rows {
        final double[] at;
        final long[] high;
        final long[] low;
        final int[] writer;
        int filled;

        Rows(int n) {
            at = new double[n];
            high = new long[n];
            low = new long[n];
            writer = new int[n];
        }

        /** @return the rows' indexes in the order they reach the tree (ties: in the order added) */
        int[] order() {
            Integer[] order = new Integer[at.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> at[a] != at[b] ? Double.compare(at[a], at[b]) : Integer.compare(a, b));
            int[] sorted = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                sorted[i] = order[i];
            }
            return sorted;
        }

        int size() {
            return at.length;
        }

        void clear() {
            filled = 0;
        }

        /** Adds {@code count} of the writer's keys from {@code from}, reaching the tree at {@code micros}, in order. */
        void add(Writer w, int from, int count, double micros) {
            for (int i = 0; i < count; i++) {
                at[filled] = micros + i * 1e-3;
                writer[filled] = w.id;
                high[filled] = w.keys[from + i][0];
                low[filled++] = w.keys[from + i][1];
            }
        }

        /** @return the rate the simulated rows went in at */
        double rowsPerSecond() {
            double first = Double.MAX_VALUE;
            double last = 0;
            for (double a : at) {
                first = Math.min(first, a);
                last = Math.max(last, a);
            }
            return at.length / Math.max(last - first, 1) * 1e6;
        }
    }

    /** Configuration of a {@link WorkloadPredictor}. */
    public static final class Builder {
        private final IndexEngine engine;
        private final RealKey key;
        private Workload workload = new Workload(100_000, 1, 100, 100, 0, 0, false, 1);
        private Timing timing;
        private int seeds = 3;
        private boolean secondary;
        private RealKey primaryKey = RealKey.AUTO_INCREMENT;

        private Builder(IndexEngine engine, RealKey key) {
            if (engine == null || key == null) {
                throw new IllegalArgumentException("engine and key are required; got " + engine + " and " + key);
            }
            this.engine = engine;
            this.key = key;
        }

        /**
         * @param w rows, writers, rows per transaction, row size (payload), client style, insert rate, seed
         * @return this builder
         */
        public Builder workload(Workload w) {
            if (w == null) {
                throw new IllegalArgumentException("workload is required");
            }
            if (w.rows() > 20_000_000) {
                throw new IllegalArgumentException("rows " + w.rows() + " is out of range for a prediction; expected 1..20000000");
            }
            this.workload = w;
            return this;
        }

        /**
         * @param t statement, commit and think times (default: the engine's, calibrated on the recorded runs)
         * @return this builder
         */
        public Builder timing(Timing t) {
            this.timing = t;
            return this;
        }

        /**
         * @param n simulations per spread, 1 to 50 (default 3; twice as many are run)
         * @return this builder
         */
        public Builder seeds(int n) {
            if (n < 1 || n > 50) {
                throw new IllegalArgumentException("seeds " + n + " is out of range; expected 1..50");
            }
            this.seeds = n;
            return this;
        }

        /**
         * Predicts a secondary index on the key (a {@code public_id}) beside a {@code BIGINT}
         * primary key, instead of the key as the primary key: its entries hold the key and the
         * row's locator (InnoDB: the primary key; PostgreSQL: the heap tuple id; SQLite: the
         * rowid), not the row; the row size does not matter.
         *
         * @param on whether the index is a secondary one (default false)
         * @return this builder
         */
        public Builder secondary(boolean on) {
            this.secondary = on;
            return this;
        }

        /**
         * The primary key beside a {@link #secondary(boolean) secondary} index: the engine's own
         * counter or Snowflake ids (both 8-byte {@code BIGINT}s; on SQLite the rowid a secondary
         * entry carries is an integer in as few bytes as its value needs, so a Snowflake id takes 8).
         *
         * @param key {@link RealKey#AUTO_INCREMENT} (the default) or {@link RealKey#SNOWFLAKE}
         * @return this builder
         */
        public Builder primaryKey(RealKey key) {
            if (key != RealKey.AUTO_INCREMENT && key != RealKey.SNOWFLAKE) {
                throw new IllegalArgumentException("primary key '" + (key == null ? null : key.cliName())
                        + "' is not offered beside a secondary index; expected autoinc or snowflake");
            }
            this.primaryKey = key;
            return this;
        }

        /** @return the predictor */
        public WorkloadPredictor build() {
            return new WorkloadPredictor(this);
        }
    }
}
