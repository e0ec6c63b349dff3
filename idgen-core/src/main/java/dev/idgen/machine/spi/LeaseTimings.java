package dev.idgen.machine.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * The timings of a lease and the inequalities between them, checked once when the record is made.
 *
 * <p>A lease fences its generator in the IDs' own time: from the older of its last two
 * acknowledged coordinator expiries {@code E} (coordinator time), the generator returns no ID whose
 * time reaches {@code fence = E - maxClockSkew - safetyMargin} ({@link #fenceFor(long)}). Safety
 * needs only {@code maxClockSkew >= 0} and {@code safetyMargin >= 0}: the coordinator grants the id
 * again only at coordinator time {@code >= E}, when the next holder's clock reads at least
 * {@code E - maxClockSkew >= fence}. What the timings must also give is <em>headroom</em>: a healthy
 * holder, whose clock may run {@code maxClockSkew} ahead of the coordinator's, makes its next
 * renewal but one before its fence, which trails its last acknowledged expiry by one renewal:
 *
 * <pre>
 *   headroom = ttl - 2 * renewEvery - 2 * maxClockSkew - safetyMargin  &gt; 0
 * </pre>
 *
 * <p>The headroom is what three renewal round trips and their scheduling delays may take together
 * before a healthy holder is fenced (it is never a safety limit: a slow holder is refused, it never
 * duplicates). {@code docs/lease-safety.md} gives the whole argument.
 *
 * @param ttl how long one acknowledged claim or renewal lasts on the coordinator (a ZooKeeper
 *     session timeout, a row's time to live); at least 100 ms
 * @param renewEvery the pause between renewals; positive
 * @param safetyMargin how far before {@code expiry - maxClockSkew} the fence stands, for what the
 *     skew bound does not cover between two measurements; zero or more
 * @param maxClockSkew the largest difference allowed between any holder's clock (the generator's)
 *     and the coordinator's, measured on every claim and renewal; zero or more
 */
public record LeaseTimings(Duration ttl, Duration renewEvery, Duration safetyMargin, Duration maxClockSkew) {

    /** The default {@link #maxClockSkew()}: 1 s, well above what NTP keeps a server within. */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(1);

    /**
     * Checks the timings.
     *
     * @param ttl the TTL, at least 100 ms
     * @param renewEvery the renewal pause, positive
     * @param safetyMargin the margin, zero or more
     * @param maxClockSkew the skew bound, zero or more
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
            throw new IllegalArgumentException("Lease renewEvery " + renewEvery.toMillis()
                    + " ms must be at least 1 ms");
        }
        if (safetyMargin.isNegative()) {
            throw new IllegalArgumentException("Lease safetyMargin " + safetyMargin.toMillis()
                    + " ms is negative; zero or more");
        }
        if (maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("Lease maxClockSkew " + maxClockSkew.toMillis()
                    + " ms is negative; zero or more");
        }
        long need = 2 * renewEvery.toMillis() + 2 * maxClockSkew.toMillis() + safetyMargin.toMillis();
        if (ttl.toMillis() <= need) {
            throw new IllegalArgumentException("Lease timings do not fit: ttl " + ttl.toMillis()
                    + " ms must exceed 2 x renewEvery (" + renewEvery.toMillis() + " ms) + 2 x maxClockSkew ("
                    + maxClockSkew.toMillis() + " ms) + safetyMargin (" + safetyMargin.toMillis() + " ms) = "
                    + need + " ms, or a healthy holder is fenced before its next renewal (its fence is the"
                    + " older of its last two acknowledged expiries minus maxClockSkew and safetyMargin);"
                    + " lengthen the ttl or shorten the others");
        }
    }

    /**
     * The timings with the defaults for what is not given: renewal every fifth of the TTL, a margin
     * of a tenth of it, and {@link #DEFAULT_MAX_CLOCK_SKEW}.
     *
     * @param ttl the TTL
     * @param renewEvery the renewal pause, or {@code null} for {@code ttl / 5}
     * @param safetyMargin the margin, or {@code null} for {@code ttl / 10}
     * @param maxClockSkew the skew bound, or {@code null} for {@link #DEFAULT_MAX_CLOCK_SKEW}
     * @return the checked timings
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static LeaseTimings of(Duration ttl, Duration renewEvery, Duration safetyMargin, Duration maxClockSkew) {
        Objects.requireNonNull(ttl, "ttl");
        return new LeaseTimings(ttl,
                renewEvery != null ? renewEvery : ttl.dividedBy(5),
                safetyMargin != null ? safetyMargin : ttl.dividedBy(10),
                maxClockSkew != null ? maxClockSkew : DEFAULT_MAX_CLOCK_SKEW);
    }

    /**
     * {@return how far the fence stands before an acknowledged expiry: maxClockSkew + safetyMargin, in
     * milliseconds}
     */
    public long fenceOffsetMillis() {
        return maxClockSkew.toMillis() + safetyMargin.toMillis();
    }

    /**
     * The fence that an acknowledged expiry allows: the first Unix millisecond (in the IDs' own time)
     * no ID may cover.
     *
     * @param expiresMillis an acknowledged expiry in coordinator time, Unix milliseconds
     * @return {@code expiresMillis - maxClockSkew - safetyMargin}, saturating at {@link Long#MIN_VALUE}
     */
    public long fenceFor(long expiresMillis) {
        long f = expiresMillis - fenceOffsetMillis();
        return f > expiresMillis ? Long.MIN_VALUE : f;
    }

    /** {@return ttl - 2 x renewEvery - 2 x maxClockSkew - safetyMargin: positive by construction} */
    public Duration headroom() {
        return ttl.minus(renewEvery.multipliedBy(2)).minus(maxClockSkew.multipliedBy(2)).minus(safetyMargin);
    }

    /**
     * {@return a third of the {@link #headroom()}: the longest one call to the coordinator should be
     * allowed, since three renewal round trips share the headroom and a call that hangs longer would
     * fence a healthy holder anyway}
     */
    public Duration callTimeout() {
        return headroom().dividedBy(3);
    }
}
