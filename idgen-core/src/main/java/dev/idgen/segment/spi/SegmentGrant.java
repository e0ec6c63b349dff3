package dev.idgen.segment.spi;

import dev.idgen.segment.SegmentGenerator;
import java.time.Instant;
import java.util.Objects;

/**
 * One range of numbers a {@link SegmentSource} granted: every number from {@code first} to
 * {@code last}, both included, is this grant's alone, and the store will never grant any of them
 * again.
 *
 * @param first the first number of the range, at least 0
 * @param last the last number of the range, at least {@code first} and at most {@link #MAX_LAST}
 * @param storeTime the store's own clock when it granted the range (business numbers take their
 *     date from it, never from the local clock)
 */
public record SegmentGrant(long first, long last, Instant storeTime) {

    /**
     * The largest {@code last} accepted. The counter of a range is stepped past {@code last} once by
     * every call that finds the range spent (see {@link SegmentGenerator}); this headroom of 2^32
     * such calls keeps the counter positive in any realistic outage, and a wrapped (negative)
     * counter is never handed out anyway.
     */
    public static final long MAX_LAST = Long.MAX_VALUE - (1L << 32);

    /**
     * @param first the first number, 0 to {@code last}
     * @param last the last number, {@code first} to {@link #MAX_LAST}
     * @param storeTime the store's clock at the grant
     * @throws IllegalArgumentException if the range is empty, negative or too high
     * @throws NullPointerException if {@code storeTime} is null
     */
    public SegmentGrant {
        Objects.requireNonNull(storeTime, "storeTime");
        if (first < 0 || last < first || last > MAX_LAST) {
            throw new IllegalArgumentException("segment range [" + first + ", " + last
                    + "] is not a range of numbers from 0 to " + MAX_LAST + " with first <= last");
        }
    }

    /** {@return how many numbers the range holds} */
    public long size() {
        return last - first + 1;
    }
}
