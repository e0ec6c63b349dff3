package dev.idgen.testkit.stress;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * What the threads of a {@link StressHarness} run got from a UUID generator, already checked for
 * uniqueness (and per-thread unsigned order, unless turned off).
 */
public final class UuidStressResult extends TimedRun {

    private final long[][] high;
    private final long[][] low;

    UuidStressResult(long[][] high, long[][] low, Duration elapsed) {
        super(high, elapsed);
        this.high = high;
        this.low = low;
    }

    /**
     * The UUIDs one thread got, in the order it got them.
     *
     * @param thread 0 to {@code threads() - 1}
     * @return that thread's UUIDs
     */
    public List<UUID> uuids(int thread) {
        List<UUID> out = new ArrayList<>(high[thread].length);
        for (int i = 0; i < high[thread].length; i++) {
            out.add(new UUID(high[thread][i], low[thread][i]));
        }
        return out;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d uuids from %d threads in %.1f ms (%.0f ids/s)",
                totalIds(), threads(), elapsed().toNanos() / 1e6, idsPerSecond());
    }
}
