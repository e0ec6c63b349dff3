package dev.idgen.testkit.coretest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idgen.IdGenerators;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.testkit.stress.StressHarness;
import dev.idgen.testkit.stress.StressResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Core's multi-thread Snowflake tests, on the testkit's harness (they live here because core cannot
 * depend on the testkit). Every run checks that no ID repeats across threads and that each thread's
 * IDs strictly increase.
 */
class SnowflakeConcurrencyTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void manyThreadsOnOneGeneratorWithTheRealClock() {
        SnowflakeGenerator ids = IdGenerators.snowflake(5);
        StressResult r = StressHarness.builder().threads(4).idsPerThread(400_000).timeout(BOUND).build().run(ids);
        assertEquals(1_600_000, r.totalIds());
        for (long id : r.ids(3)) {
            assertEquals(5, ids.decode(id).machineId());
        }
        System.out.println("one Snowflake generator, real clock: " + r);
    }

    @Test
    void severalGeneratorsOnDistinctMachineIdsShareOneIdSpace() {
        List<SnowflakeGenerator> gens = new ArrayList<>();
        for (long machine = 0; machine < 4; machine++) {
            gens.add(IdGenerators.snowflake(machine == 3 ? 1023 : machine));
        }
        StressResult r = StressHarness.builder().threads(8).idsPerThread(100_000).timeout(BOUND).build().run(gens);
        assertEquals(800_000, r.totalIds());
        // thread t used generator t % 4: its machine id is in every one of its ids
        IdChecks.assertSnowflakeFields(r.ids(3), SnowflakeLayout.TWITTER, Instant.EPOCH.plusMillis(1288834974657L),
                SnowflakeLayout.TWITTER.lastInstant(), 1023, 1023);
        System.out.println("four Snowflake generators, real clock: " + r);
    }

    @Test
    void threadsContendingForExhaustedTicksWaitForAManualClockAndStayUnique() {
        // 2 sequence bits: 4 ids per tick, so nearly every call finds its tick exhausted and spins
        // re-reading the clock; the clock moves 1 ms every 8 reads, so the spins end without sleeping
        SnowflakeLayout tiny = SnowflakeLayout.custom("tiny")
                .epoch(Instant.parse("2020-01-01T00:00:00Z")).tick(Duration.ofMillis(1))
                .timestampBits(51).machineBits(10).sequenceBits(2)
                .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();
        ManualClock clock = ManualClock.at(Instant.parse("2026-01-01T00:00:00Z"))
                .autoAdvanceEvery(8, Duration.ofMillis(1));
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(tiny).machineId(9).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.refuse()).build();
        StressResult r = StressHarness.builder().threads(4).idsPerThread(20_000).timeout(BOUND).build().run(ids);
        long[] all = r.allIds();
        java.util.Arrays.sort(all);
        long lastTick = tiny.decode(all[all.length - 1]).timestamp().toEpochMilli();
        long firstTick = tiny.decode(all[0]).timestamp().toEpochMilli();
        // 80,000 ids at 4 per tick fill at least 20,000 ticks
        assertEquals(true, lastTick - firstTick >= 19_999, "ticks used: " + (lastTick - firstTick + 1));
        System.out.println("tiny layout, auto-advancing manual clock: " + r);
    }
}
