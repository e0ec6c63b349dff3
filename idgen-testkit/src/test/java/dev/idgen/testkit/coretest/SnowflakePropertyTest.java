package dev.idgen.testkit.coretest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.clock.ClockScript;
import dev.idgen.testkit.gen.ClockScripts;
import dev.idgen.testkit.gen.Layouts;
import dev.idgen.testkit.gen.Seeds;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * For any layout, machine id, policy and clock script the testkit generates: every ID is unique,
 * strictly greater than the one before, carries the machine id, and a refusal happens only when the
 * clock is further behind than the policy tolerates.
 */
class SnowflakePropertyTest {

    private static final List<ClockBackwardsPolicy> POLICIES = List.of(ClockBackwardsPolicy.refuse(),
            ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)), ClockBackwardsPolicy.runAhead(Duration.ofMillis(8)));

    @Test
    void anyLayoutAnyClockScriptAnyPolicy() {
        Seeds.forEach(0x7E57_1D6EL, 300, random -> check(random));
    }

    private static void check(SplittableRandom random) {
        SnowflakeLayout layout = Layouts.any(random);
        long machine = Layouts.machineId(random, layout);
        ClockBackwardsPolicy policy = POLICIES.get(random.nextInt(POLICIES.size()));
        Instant start = Layouts.startInstant(random, layout);
        ClockScript script = ClockScripts.any(random, start, 400, 3, 12);
        String context = layout + ", machine " + machine + ", " + policy + ", " + script;
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(layout).machineId(machine)
                .clock(script.toClock()).onClockBackwards(policy).build();
        long[] made = new long[300];
        int count = 0;
        for (int call = 0; call < made.length; call++) {
            try {
                made[count++] = ids.nextLong();
            } catch (ClockMovedBackwardsException e) {
                count--;
                assertTrue(e.millisBehind() > policy.tolerance().toMillis(), context + ": " + e.getMessage());
            } catch (IllegalStateException e) {
                // the script may run past a short layout's last tick; that must be said, never wrapped
                count--;
                assertTrue(e.getMessage().contains("range") || e.getMessage().contains("last tick"),
                        context + ": " + e.getMessage());
            }
        }
        long[] got = Arrays.copyOf(made, count);
        try {
            IdChecks.assertStrictlyIncreasing(got);
            IdChecks.assertSnowflakeFields(got, layout, layout.epoch(), layout.lastInstant(), machine, machine);
        } catch (AssertionError e) {
            throw new AssertionError(context + ": " + e.getMessage(), e);
        }
        if (policy.tolerance().toMillis() >= script.largestStepBackMillis()) {
            assertEquals(made.length, count, context + ": nothing should be refused");
        }
    }
}
