package dev.idgen.testkit.clock;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that returns a fixed list of readings, one per read, for property tests that replay a
 * clock's behaviour (forwards, standing still, stepping back). Thread-safe: concurrent reads each
 * take a different reading, in list order.
 *
 * <p>After the last reading the clock either fails each read with an {@link IllegalStateException}
 * naming the script's length (the default, so a test that reads more than it planned fails instead
 * of hanging), or, with {@link #thenAdvancing(Duration)}, goes on from the last reading by a fixed
 * step per read, so a generator waiting for time always gets it.
 */
public final class ScriptedClock implements InstantSource {

    private final long[] millis;
    private final long stepAfterEnd;
    private final AtomicLong reads = new AtomicLong();

    private ScriptedClock(long[] millis, long stepAfterEnd) {
        if (millis.length == 0) {
            throw new IllegalArgumentException("a scripted clock needs at least one reading");
        }
        this.millis = millis;
        this.stepAfterEnd = stepAfterEnd;
    }

    /**
     * A clock that returns these Unix milliseconds, then fails.
     *
     * @param epochMillis the readings, in order; at least one
     * @return a new clock
     * @throws IllegalArgumentException if there are no readings
     */
    public static ScriptedClock ofMillis(long... epochMillis) {
        return new ScriptedClock(epochMillis.clone(), 0);
    }

    /**
     * A clock that returns these instants (at millisecond precision), then fails.
     *
     * @param readings the readings, in order; at least one
     * @return a new clock
     * @throws IllegalArgumentException if there are no readings
     */
    public static ScriptedClock of(Instant... readings) {
        return new ScriptedClock(Arrays.stream(readings).mapToLong(Instant::toEpochMilli).toArray(), 0);
    }

    /**
     * The same script, after whose end every read moves on from the last reading by {@code step}.
     * The new clock starts again from the first reading.
     *
     * @param step how far each read past the end moves, at least 1 ms
     * @return a new clock
     * @throws IllegalArgumentException if {@code step} is less than 1 ms
     */
    public ScriptedClock thenAdvancing(Duration step) {
        Objects.requireNonNull(step, "step");
        if (step.toMillis() < 1) {
            throw new IllegalArgumentException("step " + step + " after the script is too small; allowed 1 ms or more");
        }
        return new ScriptedClock(millis, step.toMillis());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public long millis() {
        long read = reads.getAndIncrement();
        if (read < millis.length) {
            return millis[(int) read];
        }
        if (stepAfterEnd == 0) {
            throw new IllegalStateException("scripted clock read " + (read + 1) + " times; its script has "
                    + millis.length + " readings " + Arrays.toString(millis)
                    + " (use thenAdvancing(step) to let it go on)");
        }
        return millis[millis.length - 1] + (read - millis.length + 1) * stepAfterEnd;
    }

    /** {@return how many times the clock was read} */
    public long reads() {
        return reads.get();
    }

    /** {@return the readings of the script, in order} */
    public long[] readings() {
        return millis.clone();
    }

    @Override
    public String toString() {
        return "ScriptedClock[" + millis.length + " readings, " + reads.get() + " read"
                + (stepAfterEnd == 0 ? ", then fails" : ", then +" + stepAfterEnd + " ms per read") + "]";
    }
}
