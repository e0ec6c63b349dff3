package dev.idgen.index.predict;

import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;

/**
 * The timing the interleaving simulation assumes for each engine when the user gives none, fitted
 * on the recorded free-running runs of the calibration set ({@code index/real/runs.jsonl}: four
 * writers, 1-10 rows per transaction, Snowflake and UUIDv7, key only and 200-byte rows, PostgreSQL
 * 15 and MariaDB 10.11 on a busy 2-core machine). The spread was set from those runs' statement
 * latencies (p99 about 90 times p50: sigma = ln 90 / 2.33); the commit time was chosen among 300,
 * 500, 800 and 1,500 µs as the one whose InnoDB predictions came closest on the four fitted InnoDB
 * runs (-0.3 to +6.6 %). PostgreSQL hardly depends on it (its rightmost leaf splits at the
 * fillfactor wherever the key falls).
 */
final class Calibration {

    /** Median INSERT statement time, µs. */
    static final double STATEMENT_MICROS = 250;
    /** Median commit time, µs. */
    static final double COMMIT_MICROS = 800;
    /** Spread (sigma of the logarithm) of statement and commit times. */
    static final double SIGMA = 1.9;
    /**
     * Jobs the server runs at once when the writers queue for it: the recording machine's 2 cores.
     * With 2 the queued simulation takes turns as the quiet machine's arrival traces do
     * ({@code InterleavingTest}); with 3, first chosen on the fitted runs' leaf pages, a writer's
     * row came straight after its own twice as often as measured at 4 writers.
     */
    static final int SERVER_SLOTS = 2;
    /**
     * Server jobs a commit costs, in INSERTs. In arrival traces of 4 and 16 writers (MariaDB,
     * 2026-12-06) a commit left a gap in a writer's rows of two to three of its INSERT cycles.
     */
    static final int COMMIT_JOBS = 3;

    private Calibration() {
    }

    /**
     * @param engine the engine
     * @param w the workload
     * @param rowsPerSecond all writers' insert rate, or 0 if not known
     * @return the timing to simulate
     */
    static Timing timing(IndexEngine engine, Workload w, double rowsPerSecond) {
        Timing t = new Timing(STATEMENT_MICROS, COMMIT_MICROS, SIGMA, 0);
        if (rowsPerSecond <= 0) {
            return t;
        }
        // the mean time a writer has for one transaction at that rate, less its statements' mean
        // time, goes to commit and think; a log-normal's mean is its median times exp(sigma²/2)
        double spread = Math.exp(SIGMA * SIGMA / 2);
        double rowsPerTx = (w.txRowsMin() + w.txRowsMax()) / 2.0;
        double txMicros = rowsPerTx * w.writers() * 1e6 / rowsPerSecond;
        double statements = rowsPerTx * STATEMENT_MICROS * spread;
        double commit = Math.max(0, txMicros - statements) / spread;
        return new Timing(STATEMENT_MICROS, Math.min(commit, 1e7), SIGMA, 0);
    }
}
