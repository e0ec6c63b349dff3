package dev.idgen.testkit.stress;

import java.time.Duration;
import java.util.Locale;

/**
 * What the threads of a {@link StressHarness} run got from {@code long} generators, already checked
 * for uniqueness (and per-thread order, unless turned off).
 */
public final class StressResult {

    private final long[][] ids;
    private final int generators;
    private final Duration elapsed;

    StressResult(long[][] ids, int generators, Duration elapsed) {
        this.ids = ids;
        this.generators = generators;
        this.elapsed = elapsed;
    }

    /** @return worker threads */
    public int threads() {
        return ids.length;
    }

    /** @return generators the threads shared out */
    public int generators() {
        return generators;
    }

    /**
     * The IDs one thread got, in the order it got them.
     *
     * @param thread 0 to {@code threads() - 1}
     * @return a copy of that thread's IDs
     */
    public long[] ids(int thread) {
        return ids[thread].clone();
    }

    /** @return every ID, thread 0's first, as one array */
    public long[] allIds() {
        long[] all = new long[Math.toIntExact(totalIds())];
        int at = 0;
        for (long[] mine : ids) {
            System.arraycopy(mine, 0, all, at, mine.length);
            at += mine.length;
        }
        return all;
    }

    /** @return IDs made by all threads together */
    public long totalIds() {
        long total = 0;
        for (long[] mine : ids) {
            total += mine.length;
        }
        return total;
    }

    /** @return wall time from the start gate opening to the last thread finishing */
    public Duration elapsed() {
        return elapsed;
    }

    /** @return IDs per second of wall time: a rough figure for reports, never for assertions */
    public double idsPerSecond() {
        return Rates.perSecond(totalIds(), elapsed);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d ids from %d threads on %d generator(s) in %.1f ms (%.0f ids/s)",
                totalIds(), threads(), generators, elapsed.toNanos() / 1e6, idsPerSecond());
    }
}
