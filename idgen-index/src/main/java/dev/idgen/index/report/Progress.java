package dev.idgen.index.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long run on standard error, with the time left estimated from the pace so far.
 * On a terminal it is a one-line bar, drawn only once the run has taken longer than
 * {@link #DELAY_NANOS}, redrawn at most every {@link #REDRAW_NANOS} and erased when done, so short
 * runs never see it. Anywhere else (a pipe, a file, a CI log) it is a plain line of text at most
 * every {@link #PLAIN_EVERY_NANOS}, the first after that long: no carriage returns, and nothing at
 * all from a run shorter than that.
 */
public final class Progress {

    /** A run shorter than this shows no bar: one second. */
    public static final long DELAY_NANOS = 1_000_000_000L;

    /** The bar is redrawn at most this often: 100 ms. */
    public static final long REDRAW_NANOS = 100_000_000L;

    /** Without a terminal, a line is written at most this often, and the first only after this long: 10 s. */
    public static final long PLAIN_EVERY_NANOS = 10_000_000_000L;

    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final boolean terminal;
    private final long total;
    private final LongSupplier nanoTime;
    private final long start;
    private long lastDraw;
    private boolean drawn;

    /**
     * @param err standard error
     * @param terminal whether standard error is a terminal (a bar) or not (plain lines)
     * @param total units of work in the whole run, 1 or more
     * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    public Progress(PrintWriter err, boolean terminal, long total, LongSupplier nanoTime) {
        this.err = err;
        this.terminal = terminal;
        this.total = Math.max(1, total);
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
    }

    /**
     * @param done units done so far in the whole run
     * @param label what is being done now
     */
    public void update(long done, String label) {
        long now = nanoTime.getAsLong();
        long elapsed = now - start;
        long every = terminal ? REDRAW_NANOS : PLAIN_EVERY_NANOS;
        long delay = terminal ? DELAY_NANOS : PLAIN_EVERY_NANOS;
        if (elapsed < delay || (drawn && now - lastDraw < every)) {
            return;
        }
        lastDraw = now;
        drawn = true;
        long clamped = Math.max(0, Math.min(done, total));
        long percent = 100 * clamped / total;
        String left = timeLeft(elapsed, clamped, total);
        if (terminal) {
            int filled = (int) (WIDTH * clamped / total);
            err.print(String.format(Locale.ROOT, "\r[%s%s] %3d%% %-9s %-40s", "#".repeat(filled), ".".repeat(WIDTH - filled),
                    percent, left, label));
        } else {
            err.println(String.format(Locale.ROOT, "progress %d %%, %s: %s", percent,
                    left.equals("?") ? "time left not known yet" : "about " + left + " left", label));
        }
        err.flush();
    }

    /**
     * The time left if the rest goes at the pace so far.
     *
     * @param elapsedNanos time since the start
     * @param done units done, 0 to {@code total}
     * @param total units in all, 1 or more
     * @return such as {@code "45s"}, {@code "3m05s"} or {@code "2h10m"}; {@code "?"} before the first unit is done
     */
    public static String timeLeft(long elapsedNanos, long done, long total) {
        if (done <= 0 || elapsedNanos <= 0) {
            return "?";
        }
        // in double: elapsed nanoseconds times millions of units would overflow a long
        long seconds = Math.round(elapsedNanos / 1e9 * (total - done) / done);
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }

    /** @return whether anything was ever written */
    public boolean wasDrawn() {
        return drawn;
    }

    /** Erases the bar, if one was drawn on a terminal; plain lines stay. */
    public void finish() {
        if (drawn && terminal) {
            err.print("\r" + " ".repeat(WIDTH + 60) + "\r");
            err.flush();
        }
    }
}
