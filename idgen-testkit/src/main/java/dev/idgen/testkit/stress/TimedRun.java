package dev.idgen.testkit.stress;

import java.time.Duration;

/** What every stress result reports: how many IDs, over how much wall time. */
abstract class TimedRun {

    private final long[][] perThread;
    private final Duration elapsed;

    /** @param perThread one array per thread, its length the IDs that thread made */
    TimedRun(long[][] perThread, Duration elapsed) {
        this.perThread = perThread;
        this.elapsed = elapsed;
    }

    /** {@return worker threads} */
    public int threads() {
        return perThread.length;
    }

    /** {@return IDs made by all threads together} */
    public long totalIds() {
        long total = 0;
        for (long[] mine : perThread) {
            total += mine.length;
        }
        return total;
    }

    /** {@return wall time from the start gate opening to the last thread finishing} */
    public Duration elapsed() {
        return elapsed;
    }

    /** {@return IDs per second of wall time: a rough figure for reports, never for assertions} */
    public double idsPerSecond() {
        return totalIds() * 1e9 / Math.max(1, elapsed.toNanos());
    }
}
