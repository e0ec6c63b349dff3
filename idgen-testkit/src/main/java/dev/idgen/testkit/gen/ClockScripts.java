package dev.idgen.testkit.gen;

import dev.idgen.testkit.clock.ClockScript;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Seeded clock scripts: a start and steps that go forwards, stand still, or step back, the way real
 * clocks behave under load (many reads within one millisecond), NTP (small steps back) and VM
 * restores (large ones).
 */
public final class ClockScripts {

    private ClockScripts() {
    }

    /**
     * A script of {@code steps} steps: standing still half the time, forwards by 1 to
     * {@code maxForwardMillis} ms 4 times in 10, back by 1 to {@code maxBackMillis} ms 1 time in
     * 10 (never before the Unix epoch).
     *
     * @param random the source
     * @param start the first reading
     * @param steps how many steps, 0 or more
     * @param maxForwardMillis the largest step forwards, 1 or more
     * @param maxBackMillis the largest step back, 0 (never back) or more
     * @return a script
     * @throws IllegalArgumentException if a bound is out of range
     */
    public static ClockScript any(SplittableRandom random, Instant start, int steps, long maxForwardMillis,
            long maxBackMillis) {
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(start, "start");
        if (steps < 0 || maxForwardMillis < 1 || maxBackMillis < 0) {
            throw new IllegalArgumentException("clock script of " + steps + " steps, forwards up to " + maxForwardMillis
                    + " ms, back up to " + maxBackMillis + " ms; allowed steps 0 or more, forwards 1 or more, back 0 or more");
        }
        List<Long> out = new ArrayList<>(steps);
        long t = start.toEpochMilli();
        for (int i = 0; i < steps; i++) {
            int kind = random.nextInt(10);
            long step;
            if (kind < 5) {
                step = 0;
            } else if (kind < 9 || maxBackMillis == 0) {
                step = random.nextLong(1, maxForwardMillis + 1);
            } else {
                step = -Math.min(t, random.nextLong(1, maxBackMillis + 1));
            }
            t += step;
            out.add(step);
        }
        return new ClockScript(start, out);
    }
}
