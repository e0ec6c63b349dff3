package dev.idgen.testkit.coretest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.testkit.check.UuidChecks;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.testkit.stress.StressHarness;
import dev.idgen.testkit.stress.UuidStressResult;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Core's UUID generators under contention, on the testkit's harness and clock. */
class UuidConcurrencyTest {

    private static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");

    private static StressHarness harness(boolean ordered) {
        return StressHarness.builder().threads(4).idsPerThread(50_000).timeout(Duration.ofSeconds(60))
                .increasingPerThread(ordered).build();
    }

    @Test
    void monotonicV7StaysUniqueAndIncreasingPerThread() {
        ManualClock clock = ManualClock.at(T0).autoAdvanceEvery(500, Duration.ofMillis(1));
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).build();
        UuidStressResult r = harness(true).runUuids(ids);
        List<UUID> all = all(r);
        UuidChecks.assertV7Fields(all, T0, clock.peek());
        System.out.println("UUIDv7, manual clock: " + r);
    }

    @Test
    void monotonicV7RunsAheadOfAClockThatStandsStill() {
        // 200,000 UUIDs in one clock millisecond: the 16-bit counter rolls over again and again,
        // and the generator takes later milliseconds, within its 10 s bound, rather than repeat
        ManualClock clock = ManualClock.at(T0);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).build();
        List<UUID> all = all(harness(true).runUuids(ids));
        UuidChecks.assertV7Fields(all, T0, T0.plus(UuidV7Generator.DEFAULT_RUN_AHEAD));
        long latest = all.stream().mapToLong(u -> u.getMostSignificantBits() >>> 16).max().orElseThrow();
        assertTrue(latest > T0.toEpochMilli(), "200,000 ids cannot fit one millisecond's counter");
        assertEquals(T0, clock.peek());
    }

    @Test
    void v4IsUniqueAcrossThreads() {
        List<UUID> all = all(harness(false).runUuids(IdGenerators.uuidV4()));
        UuidChecks.assertV4Fields(all);
        assertEquals(200_000, all.size());
    }

    private static List<UUID> all(UuidStressResult r) {
        List<UUID> out = new ArrayList<>();
        for (int t = 0; t < r.threads(); t++) {
            out.addAll(r.uuids(t));
        }
        return out;
    }
}
