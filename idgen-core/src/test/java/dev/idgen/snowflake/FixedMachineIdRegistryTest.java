package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.clock.ClockBackwardsPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * Two generators on one fixed machine id in one JVM would make the same IDs: the second build fails
 * naming the first while the first is reachable, and a generator built after the first is gone
 * starts above the last tick the first used. Each test uses its own layout, so the JVM-wide
 * registry does not carry state from one test to another.
 */
class FixedMachineIdRegistryTest {

    /** A layout of its own per test: 41 bits of {@code tick}, 10 machine bits, {@code seq} sequence bits. */
    private static SnowflakeLayout layout(String name, Duration tick, int sequenceBits) {
        return SnowflakeLayout.custom(name).timestampBits(53 - sequenceBits).machineBits(10)
                .sequenceBits(sequenceBits).epoch(SnowflakeLayout.TWITTER.epoch()).tick(tick).build();
    }

    @Test
    void aSecondLiveGeneratorOnTheSameIdAndLayoutIsRefusedNamingTheFirst() {
        SnowflakeLayout layout = layout("registry-live", Duration.ofMillis(1), 12);
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(42).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().layout(layout).machineId(42).build());
        assertEquals("machine id 42 in layout registry-live is already used by a live generator in this JVM, "
                + first + "; two generators with one machine id and layout make the same IDs. Share that generator"
                + " between threads, or drop every reference to it first", e.getMessage());
        // another id, or another layout, is another ID space
        SnowflakeGenerator.builder().layout(layout).machineId(43).build();
        SnowflakeGenerator.builder().layout(layout("registry-live-2", Duration.ofMillis(1), 12)).machineId(42).build();
        // the system clock in another zone is the same time
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(layout).machineId(42)
                .clock(Clock.system(ZoneId.of("Asia/Tokyo"))).build());
        assertTrue(first.nextLong() > 0, "the first still works");
    }

    @Test
    void oneLayoutInAnotherFieldOrderIsTheSameIdSpace() {
        // machine 42 at tick t, sequence s: time-first (t, 42, s) and machine-first (42, t, s) are
        // different numbers, but the machine-first IDs of machine 42 include time-first IDs of other
        // ticks and machines, so the two generators would repeat each other's IDs: refused
        SnowflakeLayout timeFirst = layout("registry-order", Duration.ofMillis(1), 12);
        SnowflakeLayout machineFirst = timeFirst.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE);
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(timeFirst).machineId(42).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().layout(machineFirst).machineId(42).build());
        assertTrue(e.getMessage().startsWith("machine id 42 in layout registry-order is already used by a live"
                + " generator in this JVM"), e.getMessage());
        SnowflakeGenerator.builder().layout(machineFirst).machineId(43).build();
        assertTrue(first.nextLong() > 0, "the first still works");
    }

    @Test
    void theFrontDoorIsCoveredToo() {
        SnowflakeGenerator first = IdGenerators.snowflake(1021);
        assertThrows(IllegalArgumentException.class, () -> IdGenerators.snowflake(1021));
        first.nextLong();
    }

    @Test
    void aGeneratorBuiltAfterTheFirstIsGoneStartsAboveItsLastTick() {
        // 1 s ticks, 1 sequence bit, runAhead(1 day): 2,000 IDs run the first 1,000 s ahead of the clock
        SnowflakeLayout layout = layout("registry-after", Duration.ofSeconds(1), 1);
        ClockBackwardsPolicy aDay = ClockBackwardsPolicy.runAhead(Duration.ofDays(1));
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(7).onClockBackwards(aDay).build();
        long last = 0;
        for (int i = 0; i < 2000; i++) {
            last = first.nextLong();
        }
        long firstsMark = first.highWaterMark();
        assertTrue(firstsMark > InstantSource.system().millis() + 900_000, "ran ahead of the clock");
        MachineIdRegistry.simulateCollected(layout, 7);

        SnowflakeGenerator second = SnowflakeGenerator.builder().layout(layout).machineId(7).onClockBackwards(aDay).build();
        assertEquals(firstsMark, second.highWaterMark(), "starts at the first's last tick, before its own first ID");
        long next = second.nextLong();
        assertTrue(next > last, "above every ID of the first: " + next + " after " + last);
    }

    @Test
    void withoutTheRegistryTheSecondWouldRepeatTheFirstsIds() {
        // the same scenario on an injected clock, which is not registered: the control that shows
        // what the registry prevents (the second generator starts from the clock, below the first)
        SnowflakeLayout layout = layout("registry-control", Duration.ofSeconds(1), 1);
        ClockBackwardsPolicy aDay = ClockBackwardsPolicy.runAhead(Duration.ofDays(1));
        StepClock clock = new StepClock(InstantSource.system().millis());
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(7).clock(clock)
                .onClockBackwards(aDay).build();
        long last = 0;
        for (int i = 0; i < 2000; i++) {
            last = first.nextLong();
        }
        SnowflakeGenerator second = SnowflakeGenerator.builder().layout(layout).machineId(7).clock(clock)
                .onClockBackwards(aDay).build();
        assertTrue(second.nextLong() < last, "an unregistered second generator starts below the first's IDs");
        assertFalse(MachineIdRegistry.isLive(layout, 7));
    }

    @Test
    void aFirstGeneratorThatIsReallyCollectedFreesItsId() {
        SnowflakeLayout layout = layout("registry-gc", Duration.ofMillis(1), 12);
        long last = buildUseAndDrop(layout);
        // bounded: the build itself asks for collection a few times; loop a little more if needed
        SnowflakeGenerator second = null;
        for (int i = 0; i < 20 && second == null; i++) {
            try {
                second = SnowflakeGenerator.builder().layout(layout).machineId(5).build();
            } catch (IllegalArgumentException stillLive) {
                System.gc();
            }
        }
        assertTrue(second != null, "the first generator was never collected");
        assertTrue(second.nextLong() > last);
    }

    private static long buildUseAndDrop(SnowflakeLayout layout) {
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(5).build();
        return first.nextLong();
    }
}
