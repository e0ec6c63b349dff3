package dev.idgen.testkit.clock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedClockTest {

    @Test
    void returnsItsReadingsThenFails() {
        ScriptedClock clock = ScriptedClock.ofMillis(10, 10, 7, 12);
        assertEquals(10, clock.millis());
        assertEquals(Instant.ofEpochMilli(10), clock.instant());
        assertEquals(7, clock.millis());
        assertEquals(12, clock.millis());
        IllegalStateException e = assertThrows(IllegalStateException.class, clock::millis);
        assertTrue(e.getMessage().contains("read 5 times") && e.getMessage().contains("4 readings"), e.getMessage());
    }

    @Test
    void canGoOnAfterItsScript() {
        ScriptedClock clock = ScriptedClock.of(Instant.ofEpochMilli(100), Instant.ofEpochMilli(90))
                .thenAdvancing(Duration.ofMillis(2));
        assertEquals(100, clock.millis());
        assertEquals(90, clock.millis());
        assertEquals(92, clock.millis());
        assertEquals(94, clock.millis());
        assertEquals(4, clock.reads());
        assertThrows(IllegalArgumentException.class, () -> clock.thenAdvancing(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, ScriptedClock::ofMillis);
    }

    @Test
    void clockScriptsReplayTheirSteps() {
        ClockScript script = new ClockScript(Instant.ofEpochMilli(1000), List.of(1L, 0L, -3L, 5L));
        assertArrayEquals(new long[] {1000, 1001, 1001, 998, 1003}, script.readings());
        assertEquals(3, script.largestStepBackMillis());
        assertEquals("ClockScript[1970-01-01T00:00:01Z, steps ms [+1 0 -3 +5]]", script.toString());
        ScriptedClock clock = script.toClock();
        for (long expected : new long[] {1000, 1001, 1001, 998, 1003, 1004}) {
            assertEquals(expected, clock.millis());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClockScript(Instant.ofEpochMilli(2), List.of(-3L)));
        assertTrue(e.getMessage().contains("-1 ms"), e.getMessage());
    }
}
