package dev.idgen.sequence;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Where the counter of each new tick starts: at 0, or at random below a bound.
 *
 * @param bound 0 to start at 0; else the counter of a new tick starts at {@code randomBits} reduced
 *     into {@code [0, bound)} (uniform when the bound is a power of two); at most
 *     {@code 2^counterBits}, checked by the {@link TickSequence}
 * @param randomBits 64 random bits a call, drawn once per new tick (never per ID); unused when the
 *     bound is 0
 */
public record CounterStart(long bound, LongSupplier randomBits) {

    private static final CounterStart ZERO = new CounterStart(0, () -> 0L);

    /**
     * @throws IllegalArgumentException if {@code bound} is negative
     */
    public CounterStart {
        Objects.requireNonNull(randomBits, "randomBits");
        if (bound < 0) {
            throw new IllegalArgumentException("counter start bound " + bound + " is negative; 0 (start at 0) or more");
        }
    }

    /** {@return each new tick's counter starts at 0} */
    public static CounterStart zero() {
        return ZERO;
    }

    /**
     * @param bound 1 or more (1 is the same as {@link #zero()})
     * @param randomBits the random bits, drawn once per new tick
     * @return each new tick's counter starts at random in {@code [0, bound)}
     */
    public static CounterStart randomBelow(long bound, LongSupplier randomBits) {
        if (bound < 1) {
            throw new IllegalArgumentException("random counter start bound " + bound + " is outside 1.." + Long.MAX_VALUE);
        }
        return new CounterStart(bound, randomBits);
    }

    /** {@return the counter of a new tick} */
    long draw() {
        return bound == 0 ? 0 : Math.floorMod(randomBits.getAsLong(), bound);
    }
}
