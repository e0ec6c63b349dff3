package dev.idgen.testkit.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A clock's behaviour as data: a start and a list of steps between readings, each forwards, standing
 * still or back by some milliseconds. Property tests generate these
 * ({@code dev.idgen.testkit.gen.ClockScripts}), replay them with {@link #toClock()}, and print them
 * (with the seed) when a case fails.
 *
 * @param start the first reading
 * @param stepsMillis the change from each reading to the next: positive forwards, 0 standing still,
 *     negative back
 */
public record ClockScript(Instant start, List<Long> stepsMillis) {

    /**
     * Checks the script.
     *
     * @param start the first reading
     * @param stepsMillis the change from each reading to the next: positive forwards, 0 standing still,
     *     negative back
     * @throws IllegalArgumentException if a reading would fall before 1970-01-01T00:00:00Z
     */
    public ClockScript {
        Objects.requireNonNull(start, "start");
        stepsMillis = List.copyOf(stepsMillis);
        long t = start.toEpochMilli();
        for (int i = 0; i < stepsMillis.size(); i++) {
            t = Math.addExact(t, stepsMillis.get(i));
            if (t < 0) {
                throw new IllegalArgumentException("clock script reading " + (i + 1) + " is " + t
                        + " ms, before the Unix epoch; allowed 0 or later");
            }
        }
    }

    /**
     * The readings: the start, then each step applied in turn.
     *
     * @return {@code stepsMillis().size() + 1} Unix milliseconds
     */
    public long[] readings() {
        long[] out = new long[stepsMillis.size() + 1];
        out[0] = start.toEpochMilli();
        for (int i = 0; i < stepsMillis.size(); i++) {
            out[i + 1] = out[i] + stepsMillis.get(i);
        }
        return out;
    }

    /** {@return the largest step back in the script, in milliseconds (0 if it never steps back)} */
    public long largestStepBackMillis() {
        long worst = 0;
        for (long step : stepsMillis) {
            worst = Math.max(worst, -step);
        }
        return worst;
    }

    /**
     * A clock that replays the readings, then moves 1 ms forwards per read, so that a generator
     * waiting for time always gets it.
     *
     * @return a new clock at the first reading
     */
    public ScriptedClock toClock() {
        return ScriptedClock.ofMillis(readings()).thenAdvancing(Duration.ofMillis(1));
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("ClockScript[").append(start).append(", steps ms [");
        for (int i = 0; i < stepsMillis.size(); i++) {
            long s = stepsMillis.get(i);
            out.append(i == 0 ? "" : " ").append(s > 0 ? "+" : "").append(s);
        }
        return out.append("]]").toString();
    }
}
