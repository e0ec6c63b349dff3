package dev.idgen.snowflake;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockBackwardsPolicy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * For any sequence of clock readings, steps back included, under every policy: every ID returned is
 * unique and greater than the one before, and refusals name how far the clock was behind.
 */
class SnowflakeGeneratorPropertyTest {

    private static final long BASE = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();

    /** A clock that walks: mostly forward by 0..2 ms per read, sometimes back by 1..12 ms. */
    private static final class WalkingClock implements InstantSource {
        private final SplittableRandom random;
        private long millis = BASE;

        WalkingClock(SplittableRandom random) {
            this.random = random;
        }

        @Override
        public long millis() {
            long now = millis;
            int roll = random.nextInt(100);
            if (roll < 3) {
                millis -= 1 + random.nextInt(12);
            } else if (roll < 60) {
                millis += random.nextInt(3);
            }
            return now;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    private static final List<ClockBackwardsPolicy> POLICIES = List.of(
            ClockBackwardsPolicy.refuse(),
            ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)),
            ClockBackwardsPolicy.waitUpTo(Duration.ZERO),
            ClockBackwardsPolicy.runAhead(Duration.ofMillis(8)),
            ClockBackwardsPolicy.runAhead(Duration.ZERO));

    private static final List<SnowflakeLayout> LAYOUTS = List.of(
            SnowflakeLayout.TWITTER,
            SnowflakeLayout.SONYFLAKE,
            // 2 sequence bits: exhaustion on nearly every tick
            SnowflakeLayout.custom("tiny").epoch(Instant.ofEpochMilli(BASE - 1000)).tick(Duration.ofMillis(1))
                    .timestampBits(51).machineBits(10).sequenceBits(2)
                    .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build());

    @Test
    void idsAreUniqueAndIncreasingForAnyClockScriptUnderEveryPolicy() {
        long masterSeed = 0x1D6E_2026_1202L;
        SplittableRandom seeds = new SplittableRandom(masterSeed);
        for (int run = 0; run < 60; run++) {
            long seed = seeds.nextLong();
            ClockBackwardsPolicy policy = POLICIES.get(run % POLICIES.size());
            SnowflakeLayout layout = LAYOUTS.get(run / POLICIES.size() % LAYOUTS.size());
            check(seed, policy, layout);
        }
    }

    private static void check(long seed, ClockBackwardsPolicy policy, SnowflakeLayout layout) {
        String context = "seed " + seed + ", policy " + policy + ", layout " + layout.name();
        SplittableRandom random = new SplittableRandom(seed);
        long machine = random.nextLong(layout.maxMachineId() + 1);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(layout).machineId(machine)
                .clock(new WalkingClock(random)).onClockBackwards(policy).build();
        Set<Long> seen = new HashSet<>();
        long previous = -1;
        int refused = 0;
        for (int i = 0; i < 5_000; i++) {
            long id;
            try {
                id = ids.nextLong();
            } catch (ClockMovedBackwardsException e) {
                refused++;
                assertTrue(e.millisBehind() > policy.tolerance().toMillis(), context + ": " + e.getMessage());
                continue;
            }
            if (id <= previous) {
                fail(context + ": call " + i + " returned " + id + " after " + previous);
            }
            assertTrue(seen.add(id), context + ": duplicate " + id);
            SnowflakeId decoded = layout.decode(id);
            assertEquals(machine, decoded.machineId(), context);
            previous = id;
        }
        assertTrue(seen.size() + refused == 5_000, context);
        if (policy instanceof ClockBackwardsPolicy.Refuse && layout.tickMillis() == 1) {
            assertTrue(refused > 0, context + ": the script steps back, so refuse() must have refused");
        }
        assertTrue(LongStream.of(previous).allMatch(id -> id >= 0), context);
    }
}
