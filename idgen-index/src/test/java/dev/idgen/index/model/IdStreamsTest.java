package dev.idgen.index.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.check.UuidChecks;
import dev.idgen.testkit.gen.Seeds;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class IdStreamsTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private static long[] take(LongSupplier ids, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ids.getAsLong();
        }
        return out;
    }

    private static List<UUID> take(Supplier<UUID> ids, int n) {
        List<UUID> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ids.get());
        }
        return out;
    }

    @Test
    void snowflakeStreamsFromSkewedClocksAreKSortedByTheSkew() {
        Seeds.forEach(0x5C_E3L, 20, random -> {
            long skew = 1 + random.nextInt(20);
            long[] ids = take(IdStreams.snowflake(random, SnowflakeLayout.TWITTER, new long[] {1, 2, 3}, START, 8, skew),
                    20_000);
            IdChecks.assertAllUnique(ids);
            IdChecks.assertKSorted(ids, SnowflakeLayout.TWITTER, Duration.ofMillis(skew));
            IdChecks.assertSnowflakeFields(ids, SnowflakeLayout.TWITTER, START, START.plusMillis(2500 + skew), 1, 3);
        });
        // clocks that agree: sorted by time to the millisecond
        long[] agreed = take(IdStreams.snowflake(new SplittableRandom(3), SnowflakeLayout.TWITTER, new long[] {7, 8},
                START, 8, 0), 5_000);
        IdChecks.assertKSorted(agreed, SnowflakeLayout.TWITTER, Duration.ZERO);
    }

    @Test
    void skewedClocksBreakZeroOrder() {
        long[] ids = take(IdStreams.snowflake(new SplittableRandom(11), SnowflakeLayout.TWITTER, new long[] {1, 2, 3, 4},
                START, 8, 10), 5_000);
        assertThrows(AssertionError.class, () -> IdChecks.assertKSorted(ids, SnowflakeLayout.TWITTER, Duration.ZERO));
    }

    @Test
    void uuidStreamsHaveTheirVersionsAndOrder() {
        List<UUID> v7 = take(IdStreams.uuidV7(new SplittableRandom(1), 4, START, 4, 3), 10_000);
        UuidChecks.assertV7Fields(v7, START, START.plusMillis(2503));
        UuidChecks.assertAllUnique(v7);
        UuidChecks.assertKSorted(v7, Duration.ofMillis(3));
        List<UUID> v4 = take(IdStreams.uuidV4(new SplittableRandom(1)), 10_000);
        UuidChecks.assertV4Fields(v4);
        UuidChecks.assertAllUnique(v4);
        assertThrows(AssertionError.class, () -> UuidChecks.assertStrictlyIncreasing(v4));
        assertEquals(v4, take(IdStreams.uuidV4(new SplittableRandom(1)), 10_000), "same seed, same stream");
    }

    @Test
    void refusesARateOneGeneratorCannotKeep() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdStreams.snowflake(
                new SplittableRandom(1), SnowflakeLayout.SONYFLAKE, new long[] {1}, START, 26, 0));
        assertEquals("26 ids per ms is out of range for layout sonyflake; allowed 1..25 (one generator's sequence per tick)",
                e.getMessage());
    }
}
