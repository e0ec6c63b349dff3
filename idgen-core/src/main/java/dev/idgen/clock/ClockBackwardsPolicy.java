package dev.idgen.clock;

import java.time.Duration;
import java.util.Objects;

/**
 * What a time-ordered generator does when the clock reads earlier than the last tick it used.
 *
 * <p>Real clocks step back: NTP corrects a fast clock, a VM is restored, an operator sets the time.
 * Going on with the earlier reading could repeat an ID already made, so every policy keeps the IDs
 * unique and strictly increasing; they differ in what the caller sees:
 * <ul>
 *   <li>{@link #refuse()} throws {@link ClockMovedBackwardsException} at once (Twitter's choice);</li>
 *   <li>{@link #waitUpTo(Duration)} spins until the clock is back at the last tick, and refuses when
 *       it is further behind than the bound (Meituan Leaf waits up to 5 ms). The default;</li>
 *   <li>{@link #runAhead(Duration)} carries on from the last tick, borrowing sequence space, so the
 *       time inside the IDs runs ahead of the clock by at most the bound; further behind, it
 *       refuses (the choice of Hutool, tsid-creator and Sonyflake, here with a bound). Under this
 *       policy an exhausted sequence also moves on to the next tick rather than waiting for it,
 *       within the same bound.</li>
 * </ul>
 * Each step back is logged once through slf4j at warn: how far, and what was done.
 */
public sealed interface ClockBackwardsPolicy
        permits ClockBackwardsPolicy.Refuse, ClockBackwardsPolicy.WaitUpTo, ClockBackwardsPolicy.RunAhead {

    /** The default bound of {@link #defaultPolicy()}: 5 ms, as Meituan Leaf. */
    Duration DEFAULT_WAIT = Duration.ofMillis(5);

    /**
     * Throw {@link ClockMovedBackwardsException} whenever the clock is behind the last tick used.
     *
     * @return the policy
     */
    static ClockBackwardsPolicy refuse() {
        return Refuse.INSTANCE;
    }

    /**
     * Wait (spinning, as Twitter's {@code tilNextMillis}) until the clock is back at the last tick
     * used, when it is at most {@code max} behind; refuse when it is further behind.
     *
     * @param max the longest step back to wait out, 0 ms to 10 s
     * @return the policy
     * @throws IllegalArgumentException if {@code max} is negative or longer than 10 s
     */
    static ClockBackwardsPolicy waitUpTo(Duration max) {
        return new WaitUpTo(max);
    }

    /**
     * Carry on from the last tick used while the clock is at most {@code max} behind it, and refuse
     * when it is further behind.
     *
     * @param max how far the time inside the IDs may run ahead of the clock, 0 ms to 1 day
     * @return the policy
     * @throws IllegalArgumentException if {@code max} is negative or longer than 1 day
     */
    static ClockBackwardsPolicy runAhead(Duration max) {
        return new RunAhead(max);
    }

    /**
     * The default: {@code waitUpTo(5 ms)}. Short steps (a slewing NTP daemon, a leap-second smear)
     * cost the caller at most 5 ms; longer ones fail loudly rather than stall every request.
     *
     * @return the default policy
     */
    static ClockBackwardsPolicy defaultPolicy() {
        return new WaitUpTo(DEFAULT_WAIT);
    }

    /**
     * How far behind the last tick the clock may be before this policy refuses.
     *
     * @return the bound; zero for {@link #refuse()}
     */
    Duration tolerance();

    /** See {@link ClockBackwardsPolicy#refuse()}. */
    record Refuse() implements ClockBackwardsPolicy {
        static final Refuse INSTANCE = new Refuse();

        @Override
        public Duration tolerance() {
            return Duration.ZERO;
        }

        @Override
        public String toString() {
            return "refuse()";
        }
    }

    /**
     * See {@link ClockBackwardsPolicy#waitUpTo(Duration)}.
     *
     * @param max the longest step back to wait out
     */
    record WaitUpTo(Duration max) implements ClockBackwardsPolicy {
        static final Duration LIMIT = Duration.ofSeconds(10);

        /**
         * @param max the longest step back to wait out, 0 ms to 10 s
         */
        public WaitUpTo {
            checkBound("waitUpTo", max, LIMIT);
        }

        @Override
        public Duration tolerance() {
            return max;
        }

        @Override
        public String toString() {
            return "waitUpTo(" + max.toMillis() + " ms)";
        }
    }

    /**
     * See {@link ClockBackwardsPolicy#runAhead(Duration)}.
     *
     * @param max how far the time inside the IDs may run ahead of the clock
     */
    record RunAhead(Duration max) implements ClockBackwardsPolicy {
        static final Duration LIMIT = Duration.ofDays(1);

        /**
         * @param max how far the time inside the IDs may run ahead of the clock, 0 ms to 1 day
         */
        public RunAhead {
            checkBound("runAhead", max, LIMIT);
        }

        @Override
        public Duration tolerance() {
            return max;
        }

        @Override
        public String toString() {
            return "runAhead(" + max.toMillis() + " ms)";
        }
    }

    private static void checkBound(String policy, Duration max, Duration limit) {
        Objects.requireNonNull(max, policy + " bound");
        if (max.isNegative() || max.compareTo(limit) > 0) {
            throw new IllegalArgumentException(policy + " bound " + max.toMillis()
                    + " ms is outside the allowed 0 ms to " + limit.toMillis() + " ms");
        }
    }
}
