package dev.idgen.index.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar on standard error, drawn only when standard error is a terminal and only
 * once the run has taken longer than {@link #DELAY_NANOS}; redrawn at most every
 * {@link #REDRAW_NANOS}, and erased when done, so short runs and pipes never see it.
 */
public final class Progress {

    /** A run shorter than this shows no bar: one second. */
    public static final long DELAY_NANOS = 1_000_000_000L;

    /** The bar is redrawn at most this often: 100 ms. */
    public static final long REDRAW_NANOS = 100_000_000L;

    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean enabled;
    private final long total;
    private final LongSupplier nanoTime;
    private final long start;
    private long lastDraw;
    private boolean drawn;

    /**
     * @param err standard error
     * @param enabled whether standard error is a terminal
     * @param total units of work in the whole run, 1 or more
     * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    public Progress(PrintWriter err, boolean enabled, long total, LongSupplier nanoTime) {
        this.err = err;
        this.enabled = enabled;
        this.total = Math.max(1, total);
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
    }

    /**
     * @param done units done so far in the whole run
     * @param label what is being done now
     */
    public void update(long done, String label) {
        if (!enabled) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (now - start < DELAY_NANOS || (drawn && now - lastDraw < REDRAW_NANOS)) {
            return;
        }
        lastDraw = now;
        drawn = true;
        int filled = (int) (WIDTH * done / total);
        err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %-40s", "#".repeat(filled), ".".repeat(WIDTH - filled),
                100 * done / total, label));
        err.flush();
    }

    /** @return whether the bar was ever drawn */
    public boolean wasDrawn() {
        return drawn;
    }

    /** Erases the bar, if it was drawn. */
    public void finish() {
        if (drawn) {
            err.print("\r" + " ".repeat(WIDTH + 50) + "\r");
            err.flush();
        }
    }
}
