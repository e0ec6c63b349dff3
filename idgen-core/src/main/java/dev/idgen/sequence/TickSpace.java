package dev.idgen.sequence;

import java.time.Instant;

/**
 * The ticks a {@link TickSequence} may issue and how they map to Unix time: tick {@code t} covers
 * the Unix milliseconds {@code [epochMillis + t * tickMillis, epochMillis + (t + 1) * tickMillis)},
 * for {@code t} in {@code 0..maxTick}, and below each tick sit {@code counterBits} bits of counter.
 * Validates itself, so every tick in range (and the one after the last) maps to a Unix millisecond
 * without overflow, and the packed value {@code tick << counterBits | counter} is never negative.
 *
 * @param epochMillis Unix milliseconds of the start of tick 0
 * @param tickMillis length of one tick in milliseconds, 1 or more
 * @param maxTick the last tick that may be issued, {@code 0..2^(63 - counterBits) - 1}
 * @param counterBits bits of counter below the tick, 1 to 31
 */
public record TickSpace(long epochMillis, long tickMillis, long maxTick, int counterBits) {

    /**
     * @throws IllegalArgumentException naming the bad value and the allowed range
     */
    public TickSpace {
        if (tickMillis < 1) {
            throw new IllegalArgumentException("tickMillis " + tickMillis + " is outside the allowed range 1.."
                    + Long.MAX_VALUE);
        }
        if (counterBits < 1 || counterBits > 31) {
            throw new IllegalArgumentException("counterBits " + counterBits + " is outside the allowed range 1..31");
        }
        long maxAllowed = Long.MAX_VALUE >> counterBits;
        if (maxTick < 0 || maxTick > maxAllowed) {
            throw new IllegalArgumentException("maxTick " + maxTick + " is outside the allowed range 0.." + maxAllowed
                    + " (63 - " + counterBits + " counter bits)");
        }
        // the end of the last tick must be a Unix millisecond: epoch + (maxTick + 1) * tick fits a long
        long lastEnd;
        try {
            lastEnd = Math.addExact(epochMillis, Math.multiplyExact(maxTick + 1, tickMillis));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("maxTick " + maxTick + " of " + tickMillis + " ms from epoch "
                    + epochMillis + " ends past the last Unix millisecond a long holds (" + Long.MAX_VALUE
                    + "); the allowed range is 0.." + ((Long.MAX_VALUE - Math.max(epochMillis, 0)) / tickMillis - 1));
        }
        assert lastEnd > epochMillis;
    }

    /** {@return {@code 2^counterBits - 1}, every counter bit set} */
    public long counterMask() {
        return (1L << counterBits) - 1;
    }

    /**
     * @param tick a tick in {@code 0..maxTick + 1}
     * @return the Unix millisecond at which it starts
     */
    public long startMillis(long tick) {
        return epochMillis + tick * tickMillis;
    }

    /**
     * @param tick a tick in {@code 0..maxTick}
     * @return the last Unix millisecond inside it
     */
    public long lastMillis(long tick) {
        return startMillis(tick + 1) - 1;
    }

    /**
     * The tick containing a Unix millisecond, clamped: {@code -1} for any time before tick 0 and
     * {@code maxTick + 1} for any time past the last tick. Never overflows, whatever {@code unixMillis}.
     *
     * @param unixMillis any Unix millisecond
     * @return {@code -1..maxTick + 1}
     */
    public long clampedTickAt(long unixMillis) {
        if (unixMillis < epochMillis) {
            return -1; // compared before subtracting: Long.MIN_VALUE - epoch would wrap to "after"
        }
        long since = unixMillis - epochMillis;
        if (since < 0) {
            return maxTick + 1; // the subtraction wrapped: far past any tick (epoch < 0)
        }
        return Math.min(tickMillis == 1 ? since : since / tickMillis, maxTick + 1);
    }

    /** {@return the first instant of tick 0} */
    public Instant first() {
        return Instant.ofEpochMilli(epochMillis);
    }

    /** {@return the last instant of tick {@code maxTick}} */
    public Instant last() {
        return Instant.ofEpochMilli(lastMillis(maxTick));
    }
}
