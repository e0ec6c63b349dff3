package dev.idgen.testkit.gen;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.clock.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The seeded generators driven from QuickTheories instead of {@link Seeds}: a seed in, values out. */
class QuickTheoriesTest {

    @Test
    void anyGeneratedLayoutEncodesTheMachineAndTimeItWasGiven() {
        qt().withFixedSeed(0x51DEL).withExamples(200).forAll(longs().all()).checkAssert(seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            SnowflakeLayout layout = Layouts.any(random);
            long machine = Layouts.machineId(random, layout);
            Instant start = Layouts.startInstant(random, layout);
            ManualClock clock = ManualClock.at(start).autoAdvanceEvery(3, Duration.ofMillis(1));
            SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(layout).machineId(machine).clock(clock).build();
            long[] made = new long[50];
            for (int i = 0; i < made.length; i++) {
                made[i] = ids.nextLong();
            }
            try {
                IdChecks.assertStrictlyIncreasing(made);
                IdChecks.assertSnowflakeFields(made, layout, start, clock.peek(), machine, machine);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ", " + layout + ": " + e.getMessage(), e);
            }
        });
    }
}
