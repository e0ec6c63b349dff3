package dev.idgen.testkit.stress;

import java.time.Duration;
import java.util.Locale;

/**
 * What the threads of a {@link StressHarness} run got from {@code long} generators, already checked
 * for uniqueness (and per-thread order, unless turned off).
 */
public final class StressResult extends TimedRun {

    private final long[][] ids;
    private final int generators;

    StressResult(long[][] ids, int generators, Duration elapsed) {
        super(ids, elapsed);
        this.ids = ids;
        this.generators = generators;
    }

    /** {@return generators the threads shared out} */
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

    /** {@return every ID, thread 0's first, as one array} */
    public long[] allIds() {
        long[] all = new long[Math.toIntExact(totalIds())];
        int at = 0;
        for (long[] mine : ids) {
            System.arraycopy(mine, 0, all, at, mine.length);
            at += mine.length;
        }
        return all;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d ids from %d threads on %d generator(s) in %.1f ms (%.0f ids/s)",
                totalIds(), threads(), generators, elapsed().toNanos() / 1e6, idsPerSecond());
    }
}
