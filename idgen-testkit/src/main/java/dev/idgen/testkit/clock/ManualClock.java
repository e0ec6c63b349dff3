package dev.idgen.testkit.clock;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves by hand, for generators that take an {@link InstantSource}. Thread-safe.
 *
 * <p>Generators wait for time by re-reading their clock in a spin loop (an exhausted sequence waits
 * for the next tick; a clock behind the last tick is waited out under
 * {@code ClockBackwardsPolicy.waitUpTo}). A clock that only moves when the test moves it would make
 * such a wait spin forever, so the clock can also move itself as it is read:
 * {@link #autoAdvance(Duration)} advances it after every read, {@link #autoAdvanceEvery(long, Duration)}
 * after every n-th read. A test of "the generator waits 3 ms" then finishes at once, in a number of
 * reads the test can count ({@link #reads()}), with no real sleeping.
 *
 * <pre>{@code
 * ManualClock clock = ManualClock.at(Instant.parse("2026-01-01T00:00:00Z"));
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(1).clock(clock).build();
 * long a = ids.nextLong();
 * clock.stepBack(Duration.ofMillis(3)).autoAdvance(Duration.ofMillis(1));
 * long b = ids.nextLong();   // waited 3 ms of this clock's time, at once
 * }</pre>
 */
public final class ManualClock implements InstantSource {

    /**
     * Everything a read changes, swapped as one value so that concurrent reads each see one
     * instant and advance it exactly once: the time, reads so far, reads since the last automatic
     * step, and the automatic-step rule (every {@code every} reads by {@code step}; 0 = off).
     */
    private record State(Instant now, long reads, long sinceStep, long every, Duration step) {
        State read() {
            long since = sinceStep + 1;
            if (every > 0 && since == every) {
                return new State(now.plus(step), reads + 1, 0, every, step);
            }
            return new State(now, reads + 1, since, every, step);
        }

        State at(Instant instant) {
            return new State(instant, reads, sinceStep, every, step);
        }

        State stepping(long newEvery, Duration newStep) {
            return new State(now, reads, 0, newEvery, newStep);
        }
    }

    private final AtomicReference<State> state;

    private ManualClock(Instant start) {
        this.state = new AtomicReference<>(new State(Objects.requireNonNull(start, "start"), 0, 0, 0, Duration.ZERO));
    }

    /**
     * A clock standing still at {@code start}.
     *
     * @param start the first reading
     * @return a new clock
     */
    public static ManualClock at(Instant start) {
        return new ManualClock(start);
    }

    /**
     * A clock standing still at a Unix millisecond.
     *
     * @param epochMillis the first reading, in milliseconds since 1970-01-01T00:00:00Z
     * @return a new clock
     */
    public static ManualClock atMillis(long epochMillis) {
        return new ManualClock(Instant.ofEpochMilli(epochMillis));
    }

    /**
     * Reads the clock: returns the current instant, then takes the automatic step if one is due.
     *
     * @return the current instant
     */
    @Override
    public Instant instant() {
        return state.getAndUpdate(State::read).now();
    }

    /**
     * Reads the clock in milliseconds; the same as {@code instant().toEpochMilli()}, and counted as
     * a read.
     *
     * @return the current Unix millisecond
     */
    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    /**
     * The current instant without reading: no read is counted and no automatic step is taken.
     *
     * @return the current instant
     */
    public Instant peek() {
        return state.get().now();
    }

    /** {@return how many times the clock was read ({@link #instant()} or {@link #millis()})} */
    public long reads() {
        return state.get().reads();
    }

    /**
     * Sets the time, forwards or backwards.
     *
     * @param instant the new reading
     * @return this clock
     */
    public ManualClock set(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        state.updateAndGet(s -> s.at(instant));
        return this;
    }

    /**
     * Sets the time to a Unix millisecond.
     *
     * @param epochMillis the new reading in milliseconds since 1970-01-01T00:00:00Z
     * @return this clock
     */
    public ManualClock setMillis(long epochMillis) {
        return set(Instant.ofEpochMilli(epochMillis));
    }

    /**
     * Moves the time forwards.
     *
     * @param amount how far, zero or more
     * @return this clock
     * @throws IllegalArgumentException if {@code amount} is negative (use {@link #stepBack(Duration)})
     */
    public ManualClock advance(Duration amount) {
        requireNotNegative("advance", amount);
        state.updateAndGet(s -> s.at(s.now().plus(amount)));
        return this;
    }

    /**
     * Moves the time forwards by whole milliseconds.
     *
     * @param millis how far, zero or more
     * @return this clock
     * @throws IllegalArgumentException if {@code millis} is negative
     */
    public ManualClock advanceMillis(long millis) {
        return advance(Duration.ofMillis(millis));
    }

    /**
     * Moves the time backwards, as NTP stepping a fast clock or a restored VM does.
     *
     * @param amount how far, zero or more
     * @return this clock
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public ManualClock stepBack(Duration amount) {
        requireNotNegative("stepBack", amount);
        state.updateAndGet(s -> s.at(s.now().minus(amount)));
        return this;
    }

    /**
     * Moves the time backwards by whole milliseconds.
     *
     * @param millis how far, zero or more
     * @return this clock
     * @throws IllegalArgumentException if {@code millis} is negative
     */
    public ManualClock stepBackMillis(long millis) {
        return stepBack(Duration.ofMillis(millis));
    }

    /**
     * From now on, every read advances the time by {@code step} after returning it.
     *
     * @param step how far each read moves the clock, more than zero
     * @return this clock
     * @throws IllegalArgumentException if {@code step} is zero or negative
     */
    public ManualClock autoAdvance(Duration step) {
        return autoAdvanceEvery(1, step);
    }

    /**
     * From now on, every {@code reads}-th read advances the time by {@code step} after returning
     * it: with {@code (4096, 1 ms)} a Snowflake generator, which reads the clock once per ID, sees
     * 4,096 IDs' worth of reads in each millisecond.
     *
     * @param reads reads per step, 1 or more
     * @param step how far each step moves the clock, more than zero
     * @return this clock
     * @throws IllegalArgumentException if {@code reads} is below 1 or {@code step} is not positive
     */
    public ManualClock autoAdvanceEvery(long reads, Duration step) {
        Objects.requireNonNull(step, "step");
        if (reads < 1 || step.isNegative() || step.isZero()) {
            throw new IllegalArgumentException("auto-advance every " + reads + " reads by " + step
                    + " is not allowed; reads must be 1 or more and the step more than zero");
        }
        state.updateAndGet(s -> s.stepping(reads, step));
        return this;
    }

    /**
     * Stops automatic steps: the clock moves only when told to.
     *
     * @return this clock
     */
    public ManualClock stopAutoAdvance() {
        state.updateAndGet(s -> s.stepping(0, Duration.ZERO));
        return this;
    }

    private static void requireNotNegative(String what, Duration amount) {
        Objects.requireNonNull(amount, "amount");
        if (amount.isNegative()) {
            throw new IllegalArgumentException(what + " by " + amount + " is not allowed; the amount must be zero or more"
                    + (what.equals("advance") ? " (use stepBack to move the clock backwards)" : " (use advance)"));
        }
    }

    @Override
    public String toString() {
        State s = state.get();
        return "ManualClock[" + s.now() + ", " + s.reads() + " reads"
                + (s.every() > 0 ? ", advancing " + s.step() + " every " + s.every() + " reads" : "") + "]";
    }
}
