package dev.idgen.segment.spi;

import dev.idgen.segment.BusinessNumberGenerator;
import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.SegmentGenerator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * The store behind a {@link SegmentGenerator}: it keeps one counter per name and hands out ranges
 * of it. Implementations live next to the store's client ({@code idgen-jdbc},
 * {@code idgen-redis}); {@link InMemorySegmentSource} serves tests and benchmarks.
 *
 * <p>The contract, which every implementation keeps and the generators rely on (invariant 7):
 * <ul>
 *   <li>{@link #grant} advances the name's counter by {@code step} in one atomic operation of the
 *       store and returns the numbers it skipped over; no two calls, from any process, ever get an
 *       overlapping range, across restarts of the callers;</li>
 *   <li>ranges granted for one name increase: a later grant lies wholly above an earlier one;</li>
 *   <li>the first grant of a new name starts at 1;</li>
 *   <li>a failed call grants nothing the caller could use, and throws; it may leave a hole (a range
 *       counted in the store but never received), never a repeat: a grant whose answer did not
 *       arrive whole (the store may or may not have counted it) is never used;</li>
 *   <li>a grant survives what the store's class documents (a crash of the store right after the
 *       grant, a restart, a flush, a restored backup), or the source refuses the store with a
 *       {@link SegmentStoreRefusedException} naming the setting or the loss it found; a source that
 *       can tell a lost counter from a new one refuses the lost one rather than count again from 1.</li>
 * </ul>
 * Implementations are thread-safe. A call may block on the network; the generator calls it off its
 * callers' threads and bounds how long a caller waits.
 */
public interface SegmentSource {

    /**
     * Takes the next {@code step} numbers of a name's counter.
     *
     * @param name the counter's name (non-blank, at most {@link SegmentGenerator#MAX_NAME_LENGTH}
     *     characters, no control characters)
     * @param step how many numbers to take, at least 1
     * @return the range granted, of exactly {@code step} numbers, with the store's time
     * @throws RuntimeException if the store could not be asked or did not answer; nothing was granted
     *     that the caller will get
     */
    SegmentGrant grant(String name, long step);

    /**
     * Reads the store's clock, which decides the date group of {@link BusinessNumberGenerator}
     * numbers (never the local clock).
     *
     * @return the store's current time
     * @throws UnsupportedOperationException if this store cannot tell its time (the default)
     * @throws RuntimeException if the store could not be asked
     */
    default java.time.Instant now() {
        throw new UnsupportedOperationException(describe() + " cannot tell its time; business numbers need a store"
                + " that can");
    }

    /**
     * Records the pattern that the business numbers of a name are written in, the first time it is
     * asked for that name, and answers the pattern on record. A business number's counter is keyed
     * by name and date group only, so two patterns under one name (a day group and a month group,
     * say) would write the same text twice; {@link BusinessNumberGenerator} refuses a pattern other
     * than the one on record. Atomic in the store: of two callers recording different patterns at
     * once, both get the same answer.
     *
     * @param name the business numbers' base name, as given to {@link BusinessNumberGenerator}
     * @param pattern the pattern, as {@link dev.idgen.segment.BusinessNumberFormat#pattern()} writes it
     * @return the pattern on record for the name: {@code pattern} if there was none, else the one
     *     recorded first
     * @throws UnsupportedOperationException if this store cannot record patterns (the default)
     * @throws RuntimeException if the store could not be asked
     */
    default String recordPattern(String name, String pattern) {
        throw new UnsupportedOperationException(describe() + " cannot record the pattern of business numbers with"
                + " their counters; business numbers need a store that can");
    }

    /**
     * Asks the store whether it keeps what it grants, as the source's class documents (persistence
     * and sync settings, a table that survives a crash), and refuses it otherwise. Sources that check
     * do so before their first grant anyway; calling this at start-up fails early instead. The
     * default checks nothing.
     *
     * @throws SegmentStoreRefusedException if the store cannot keep its counters, naming the setting
     *     and how to accept such a store anyway
     * @throws RuntimeException if the store could not be asked
     */
    default void checkStore() {
    }

    /**
     * Names the store for messages and logs, e.g. {@code jdbc PostgreSQL table idgen_segment} or
     * {@code redis redis://127.0.0.1:6379 key prefix idgen:segment:}.
     *
     * @return a short description without secrets
     */
    default String describe() {
        String simple = getClass().getSimpleName();
        return simple.isEmpty() ? getClass().getName() : simple;
    }

    /**
     * For a store that grants by compare-and-set: waits a random while after a write lost to
     * another client's, up to 100 µs × 2^min(lost, 6), so that clients which collided stop reading
     * and writing in step. Without it a dozen clients granting small steps at once can make one of
     * them lose dozens of rounds in a row.
     *
     * @param lost how many writes this grant has lost so far, 1 or more
     */
    static void backOffAfterLostWrite(int lost) {
        LockSupport.parkNanos(backOffNanos(lost, ThreadLocalRandom.current()));
    }

    /**
     * The wait {@link #backOffAfterLostWrite} makes, drawn from {@code random}: at least 1 ns and
     * below 100 µs × 2^min(lost, 6), so from below 200 µs after the first lost write to below
     * 6.4 ms from the sixth on.
     *
     * @param lost how many writes this grant has lost so far; below 1 counts as 1
     * @param random where the wait is drawn from
     * @return the wait in nanoseconds
     */
    static long backOffNanos(int lost, RandomGenerator random) {
        return random.nextLong(1, 100_000L << Math.min(Math.max(lost, 1), 6));
    }
}
