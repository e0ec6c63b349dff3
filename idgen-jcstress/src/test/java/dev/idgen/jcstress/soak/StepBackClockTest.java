package dev.idgen.jcstress.soak;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testkit.clock.ManualClock;
import org.junit.jupiter.api.Test;

class StepBackClockTest {

    private static final long BASE = 1_767_225_600_000L;

    private static long[] readings(long seed, int n) {
        StepBackClock clock = new StepBackClock(ManualClock.atMillis(BASE), seed, 10, 4);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = clock.millis();
        }
        return out;
    }

    @Test
    void theSameSeedGivesTheSameReadings() {
        assertArrayEquals(readings(42, 1_000), readings(42, 1_000), "seed 42");
    }

    @Test
    void itStepsBackAndForwardWithinTheBound() {
        long seed = 7;
        long[] r = readings(seed, 10_000);
        boolean back = false;
        boolean forward = false;
        for (int i = 0; i < r.length; i++) {
            assertTrue(r[i] <= BASE && r[i] >= BASE - 4, "seed " + seed + ": reading " + i + " = " + r[i]);
            if (i > 0) {
                back |= r[i] < r[i - 1];
                forward |= r[i] > r[i - 1];
            }
        }
        assertTrue(back && forward, "seed " + seed + ": expected steps both ways in 10,000 reads");
    }
}
