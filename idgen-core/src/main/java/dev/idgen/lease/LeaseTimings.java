package dev.idgen.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * The timings of a lease, the inequalities between them, and the arithmetic every fence and floor
 * is computed with: one place for the numbers {@code docs/lease-safety.md} argues about.
 *
 * <p>Let {@code T}, {@code R}, {@code M} be the ttl, the pause between renewals and the safety
 * margin, and {@code S} the skew bound as it counts in fences: {@code maxClockSkew} for a store
 * whose clock the lease measures, twice that for a store with no clock (then each holder's clock
 * is assumed within {@code maxClockSkew} of true time, so two holders' within twice that).
 *
 * <ul>
 *   <li>A holder's fence, after acknowledged writes with expiries {@code E1, E2, ...} (store time),
 *       the last of which it started at local time {@code a}, is
 *       {@code min(min(E[n-1], E[n]) - S - M, a + silence)} ({@link #fence}). The first term keeps
 *       the next holder out (the store grants the id only after {@code E}); the second bounds how
 *       long a holder that can no longer write (a copy of a process image, a partition) keeps
 *       stamping: {@code silence = R + S + 2 x callTimeout} ({@link #silence()}).</li>
 *   <li>A healthy holder is never fenced between renewals when
 *       {@code headroom = T - 2R - 2S - M > 0}: the constructor refuses timings without it, and
 *       {@link #callTimeout()}, the longest one renewal may take, is a third of it.</li>
 * </ul>
 *
 * @param ttl how long one acknowledged claim or renewal lasts on the store; at least 100 ms
 * @param renewEvery the pause between renewals; positive
 * @param safetyMargin how far before {@code expiry - S} the fence stands, for what the skew bound
 *     does not see between two measurements; zero or more
 * @param maxClockSkew the largest difference allowed between a holder's clock (the generator's) and
 *     the store's (or true time, for a store with no clock); zero or more
 * @param storeHasClock whether the store shows a clock the lease measures; false doubles the skew
 *     bound in every fence
 */
public record LeaseTimings(Duration ttl, Duration renewEvery, Duration safetyMargin, Duration maxClockSkew,
        boolean storeHasClock) {

    /** The default {@link #maxClockSkew()}: 1 s, well above what NTP keeps a server within. */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(1);

    /**
     * Checks the timings.
     *
     * @param ttl the ttl, at least 100 ms
     * @param renewEvery the renewal pause, positive
     * @param safetyMargin the margin, zero or more
     * @param maxClockSkew the skew bound, zero or more
     * @param storeHasClock whether the store shows a clock
     * @throws IllegalArgumentException naming the numbers when a timing is out of range or the
     *     headroom is not positive
     */
    public LeaseTimings {
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(renewEvery, "renewEvery");
        Objects.requireNonNull(safetyMargin, "safetyMargin");
        Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        if (ttl.toMillis() < 100) {
            throw new IllegalArgumentException("Lease ttl " + ttl.toMillis() + " ms is too short; at least 100 ms");
        }
        if (renewEvery.toMillis() <= 0) {
            throw new IllegalArgumentException("Lease renewEvery " + renewEvery.toMillis() + " ms must be at least 1 ms");
        }
        if (safetyMargin.isNegative()) {
            throw new IllegalArgumentException("Lease safetyMargin " + safetyMargin.toMillis()
                    + " ms is negative; zero or more");
        }
        if (maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("Lease maxClockSkew " + maxClockSkew.toMillis()
                    + " ms is negative; zero or more");
        }
        long skew = (storeHasClock ? 1 : 2) * maxClockSkew.toMillis();
        long need = 2 * renewEvery.toMillis() + 2 * skew + safetyMargin.toMillis();
        if (ttl.toMillis() <= need) {
            throw new IllegalArgumentException("Lease timings do not fit: ttl " + ttl.toMillis()
                    + " ms must exceed 2 x renewEvery (" + renewEvery.toMillis() + " ms) + 2 x the skew bound ("
                    + skew + " ms" + (storeHasClock ? "" : ": twice maxClockSkew, for a store with no clock")
                    + ") + safetyMargin (" + safetyMargin.toMillis() + " ms) = " + need
                    + " ms, or a healthy holder is fenced before its next renewal; lengthen the ttl or shorten"
                    + " the others");
        }
    }

    /**
     * The timings with the defaults for what is not given: renewal every fifth of the ttl, a margin
     * of a tenth of it, and {@link #DEFAULT_MAX_CLOCK_SKEW}.
     *
     * @param ttl the ttl
     * @param renewEvery the renewal pause, or {@code null} for {@code ttl / 5}
     * @param safetyMargin the margin, or {@code null} for {@code ttl / 10}
     * @param maxClockSkew the skew bound, or {@code null} for {@link #DEFAULT_MAX_CLOCK_SKEW}
     * @param storeHasClock whether the store shows a clock
     * @return the checked timings
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static LeaseTimings of(Duration ttl, Duration renewEvery, Duration safetyMargin, Duration maxClockSkew,
            boolean storeHasClock) {
        Objects.requireNonNull(ttl, "ttl");
        return new LeaseTimings(ttl,
                renewEvery != null ? renewEvery : ttl.dividedBy(5),
                safetyMargin != null ? safetyMargin : ttl.dividedBy(10),
                maxClockSkew != null ? maxClockSkew : DEFAULT_MAX_CLOCK_SKEW,
                storeHasClock);
    }

    /** {@return the skew bound as it counts in fences, in ms: maxClockSkew, doubled for a store with no clock} */
    public long skewMillis() {
        return (storeHasClock ? 1 : 2) * maxClockSkew.toMillis();
    }

    /** {@return how far a fence stands before an acknowledged expiry: the skew bound plus the margin, in ms} */
    public long fenceOffsetMillis() {
        return skewMillis() + safetyMargin.toMillis();
    }

    /** {@return ttl - 2 x renewEvery - 2 x skew - safetyMargin: positive by construction} */
    public Duration headroom() {
        return ttl.minusMillis(2 * renewEvery.toMillis() + 2 * skewMillis() + safetyMargin.toMillis());
    }

    /**
     * {@return the longest one renewal (reading the store's clock and writing the record) may take: a
     * third of the {@link #headroom()}, since three renewals share it before a healthy holder is
     * fenced}
     */
    public Duration callTimeout() {
        return headroom().dividedBy(3);
    }

    /**
     * {@return how long after the start of its last acknowledged write a holder keeps stamping when it
     * can write no more: renewEvery + skew + 2 x callTimeout. A copy of a process image that cannot
     * renew, or a holder cut off from its store, makes no ID later than that}
     */
    public Duration silence() {
        return renewEvery.plusMillis(skewMillis()).plus(callTimeout().multipliedBy(2));
    }

    /**
     * The fence: the first Unix millisecond (in the IDs' own time) no ID may cover.
     *
     * @param olderExpiry the older of the last two acknowledged expiries, store time
     * @param lastWriteStartedMillis the local clock when the last acknowledged write started
     * @return {@code min(olderExpiry - S - M, lastWriteStartedMillis + silence)}, saturating
     */
    public long fence(long olderExpiry, long lastWriteStartedMillis) {
        return Math.min(minus(olderExpiry, fenceOffsetMillis()), plus(lastWriteStartedMillis, silence().toMillis()));
    }

    /**
     * Where a new holder of an id starts: it issues no ID at or below the returned millisecond.
     *
     * <p>Two terms. The recorded mark, believed only up to {@code storeNow + S}: a mark beyond that came
     * from a clock outside the bound and would lock the id out. And the fence the last expiry allowed
     * its writer, {@code expiresMillis - min(its offset, ours) - 1}: no ID of that holder lies at or
     * above it, whatever the two holders' settings, and no clock assumption is needed for it.
     *
     * @param record the record the claim replaces
     * @param storeNow the store's time of the claim
     * @return Unix milliseconds, or {@link Long#MIN_VALUE} when nothing bounds the claim from below
     */
    public long floor(dev.idgen.lease.spi.LeaseRecord record, long storeNow) {
        long believed = Math.min(record.markMillis(), plus(storeNow, skewMillis()));
        long offset = Math.min(record.fenceOffsetMillis(), fenceOffsetMillis());
        long fromExpiry = record.expiresMillis() == dev.idgen.lease.spi.LeaseRecord.NEVER ? Long.MIN_VALUE
                : minus(record.expiresMillis(), plus(offset, 1));
        return Math.max(believed, fromExpiry);
    }

    /**
     * {@return the mark a renewal or release records: the generator's, believed only up to the
     * store's time plus the skew bound, never below what the record holds}
     *
     * @param recorded the record's mark
     * @param generatorMark the generator's mark
     * @param storeNow the store's time
     */
    public long markToRecord(long recorded, long generatorMark, long storeNow) {
        return Math.max(recorded, Math.min(generatorMark, plus(storeNow, skewMillis())));
    }

    /**
     * {@return the expiry a release writes: at once ({@code storeNow - 1}) unless the mark is ahead of
     * the store's clock (a clock ahead of the store's, a run-ahead generator); then late enough that the
     * next claim's floor, {@code expiry - offset - 1}, covers the mark, never later than the expiry
     * the claim had}
     *
     * @param mark the generator's mark
     * @param storeNow the store's time
     * @param lastExpiry the claim's last acknowledged expiry
     */
    public long releaseExpiry(long mark, long storeNow, long lastExpiry) {
        // a mark at or below the store's clock is believed by the next claim as it is
        return mark > storeNow ? Math.min(lastExpiry, plus(mark, plus(fenceOffsetMillis(), 1))) : storeNow - 1;
    }

    static long plus(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    static long minus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }
}
