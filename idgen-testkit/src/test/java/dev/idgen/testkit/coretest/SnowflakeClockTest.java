package dev.idgen.testkit.coretest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.testkit.clock.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Core's clock behaviour driven by the testkit's {@link ManualClock}: waits finish at once. */
class SnowflakeClockTest {

    private static final Instant T = Instant.parse("2026-12-02T12:00:00Z");

    private static SnowflakeGenerator generator(ManualClock clock, ClockBackwardsPolicy policy) {
        return SnowflakeGenerator.builder().machineId(2).clock(clock).onClockBackwards(policy).build();
    }

    @Test
    void aClockThreeMillisecondsBehindIsWaitedOutWithoutSleeping() {
        ManualClock clock = ManualClock.at(T);
        SnowflakeGenerator ids = generator(clock, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        long before = ids.nextLong();
        // NTP steps the clock back 3 ms; from now on each read is 1 ms later than the one before
        clock.stepBack(Duration.ofMillis(3)).autoAdvance(Duration.ofMillis(1));
        long readsBefore = clock.reads();
        long after = ids.nextLong();
        SnowflakeId decoded = ids.decode(after);
        assertTrue(after > before);
        assertEquals(T, decoded.timestamp(), "the id is made once the clock is back at the last tick, not earlier");
        assertEquals(1, decoded.sequence(), "same tick as the last id: the sequence goes on");
        assertTrue(clock.peek().compareTo(T) > 0, "the generator read the clock until it was back: " + clock);
        assertTrue(clock.reads() - readsBefore >= 4, "it read T-3, T-2, T-1 and T at least: " + clock);
    }

    @Test
    void refuseSaysHowFarBehindInTwittersWords() {
        ManualClock clock = ManualClock.at(T);
        SnowflakeGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        long before = ids.nextLong();
        clock.stepBack(Duration.ofMillis(3));
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertEquals(3, e.millisBehind());
        assertTrue(e.getMessage().startsWith("Clock moved backwards. Refusing to generate id for 3 milliseconds"),
                e.getMessage());
        clock.advance(Duration.ofMillis(3));
        assertTrue(ids.nextLong() > before);
    }

    @Test
    void aStepBackPastTheBoundIsRefusedEvenWhileWaiting() {
        ManualClock clock = ManualClock.at(T);
        SnowflakeGenerator ids = generator(clock, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        ids.nextLong();
        // the generator reads twice before it judges (T-7, then T-6): still past the 5 ms bound
        clock.stepBack(Duration.ofMillis(7)).autoAdvance(Duration.ofMillis(1));
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertEquals(6, e.millisBehind(), e.getMessage());
    }

    @Test
    void the4097thIdOfAMillisecondWaitsForTheNextOne() {
        ManualClock clock = ManualClock.at(T);
        SnowflakeGenerator ids = generator(clock, ClockBackwardsPolicy.defaultPolicy());
        long last = 0;
        for (int i = 0; i < 4096; i++) {
            last = ids.nextLong();
        }
        assertEquals(4095, ids.decode(last).sequence());
        assertEquals(T, ids.decode(last).timestamp());
        clock.autoAdvance(Duration.ofMillis(1)); // without this the next call would spin for ever
        long next = ids.nextLong();
        assertEquals(T.plusMillis(1), ids.decode(next).timestamp());
        assertEquals(0, ids.decode(next).sequence());
        assertTrue(next > last);
    }
}
