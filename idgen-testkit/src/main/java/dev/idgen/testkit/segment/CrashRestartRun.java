package dev.idgen.testkit.segment;

import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * Kills a segment store right after a grant, starts it again, and counts the numbers granted twice.
 * Each round stands for a process started after the last crash: it opens a fresh source, takes
 * {@code grantsPerRound} ranges, and the moment the last one has come back the store is stopped
 * ({@link StoreOutage#stop()}, a {@code SIGKILL} for the stores' tests) and started again (with
 * what it kept; empty where it keeps nothing). A grant that fails while the store is coming back is
 * asked again, within {@code settle}; a {@link SegmentStoreRefusedException} ends the run as a
 * refusal, its message kept for the test to check.
 *
 * <p>Every range granted is compared with every other: a number in two ranges is a repeat. A store
 * that keeps what it acknowledged shows 0; one that loses its counter and is not refused shows the
 * lost ranges again.
 */
public final class CrashRestartRun {

    /** Opens a fresh source, as a new process would (its own connection or client). */
    @FunctionalInterface
    public interface Opener {
        /**
         * @param round the round, from 0
         * @return a source on the store
         * @throws Exception if the store cannot be reached
         */
        SegmentSource open(int round) throws Exception;
    }

    /**
     * What a run saw.
     *
     * @param rounds rounds completed (each ending in a kill and a restart)
     * @param grants ranges granted
     * @param numbers numbers in them
     * @param repeats numbers granted more than once
     * @param refusal the message of the refusal that ended the run, or null
     * @param elapsed the run's wall time
     */
    public record Report(int rounds, int grants, long numbers, long repeats, String refusal, Duration elapsed) {

        /** {@return one line for the test's output} */
        public String summary() {
            return rounds + " kills, " + grants + " grants, " + numbers + " numbers, " + repeats + " repeated"
                    + (refusal == null ? "" : ", refused: " + refusal) + ", " + elapsed.toMillis() + " ms";
        }
    }

    private CrashRestartRun() {
    }

    /**
     * @param opener opens a source for each round
     * @param store kills and restarts the store
     * @param name the counter
     * @param step each grant's size
     * @param rounds how many kills
     * @param grantsPerRound grants before each kill, at least 1
     * @param settle how long a round may keep asking while the store comes back
     * @return what was seen
     * @throws Exception if the store cannot be killed or started, or a grant keeps failing past
     *     {@code settle} with anything but a refusal
     */
    public static Report run(Opener opener, StoreOutage store, String name, long step, int rounds, int grantsPerRound,
            Duration settle) throws Exception {
        Objects.requireNonNull(opener, "opener");
        Objects.requireNonNull(store, "store");
        if (rounds < 1 || grantsPerRound < 1) {
            throw new IllegalArgumentException("rounds " + rounds + " and grantsPerRound " + grantsPerRound
                    + " must be at least 1");
        }
        long start = System.nanoTime();
        List<SegmentGrant> granted = new ArrayList<>();
        String refusal = null;
        int done = 0;
        for (int round = 0; round < rounds && refusal == null; round++) {
            long deadline = System.nanoTime() + settle.toNanos();
            try {
                SegmentSource source = openWhileSettling(opener, round, deadline);
                for (int g = 0; g < grantsPerRound; g++) {
                    granted.add(grantWhileSettling(source, name, step, deadline));
                }
            } catch (SegmentStoreRefusedException e) {
                refusal = e.getMessage();
                break;
            }
            // the last grant has just come back: the store dies now, before it can do anything more
            store.stop();
            store.start();
            done++;
        }
        if (refusal == null) {
            // what the store kept after the last crash: one more grant shows whether its counter went back
            try {
                SegmentSource source = openWhileSettling(opener, rounds, System.nanoTime() + settle.toNanos());
                granted.add(grantWhileSettling(source, name, step, System.nanoTime() + settle.toNanos()));
            } catch (SegmentStoreRefusedException e) {
                refusal = e.getMessage();
            }
        }
        long numbers = granted.stream().mapToLong(SegmentGrant::size).sum();
        return new Report(done, granted.size(), numbers, repeats(granted), refusal,
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** Numbers that lie in more than one range: after sorting by first, each range against the highest end so far. */
    static long repeats(List<SegmentGrant> granted) {
        List<SegmentGrant> sorted = new ArrayList<>(granted);
        sorted.sort(Comparator.comparingLong(SegmentGrant::first).thenComparingLong(SegmentGrant::last));
        long repeats = 0;
        long covered = Long.MIN_VALUE; // the highest number of the ranges seen so far
        for (SegmentGrant g : sorted) {
            if (g.first() <= covered) {
                repeats += Math.min(covered, g.last()) - g.first() + 1;
            }
            covered = Math.max(covered, g.last());
        }
        return repeats;
    }

    private static SegmentSource openWhileSettling(Opener opener, int round, long deadline) throws Exception {
        return whileSettling(() -> opener.open(round), deadline);
    }

    private static SegmentGrant grantWhileSettling(SegmentSource source, String name, long step, long deadline)
            throws Exception {
        return whileSettling(() -> source.grant(name, step), deadline);
    }

    /** Asks until an answer or the deadline; a refusal is an answer, passed on at once. */
    private static <T> T whileSettling(Callable<T> attempt, long deadline) throws Exception {
        for (;;) {
            try {
                return attempt.call();
            } catch (SegmentStoreRefusedException e) {
                throw e;
            } catch (Exception e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
