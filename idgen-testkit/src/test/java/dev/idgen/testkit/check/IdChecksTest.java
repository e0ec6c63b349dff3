package dev.idgen.testkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdChecksTest {

    private static final SnowflakeLayout TWITTER = SnowflakeLayout.TWITTER;
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static long id(Instant at, long machine, long sequence) {
        return TWITTER.encode(TWITTER.timestampOf(at), machine, sequence);
    }

    @Test
    void uniquenessNamesBothPlaces() {
        IdChecks.assertAllUnique(new long[] {3, 1, 2});
        AssertionError e = assertThrows(AssertionError.class, () -> IdChecks.assertAllUnique(new long[] {5, 9, 7, 9}));
        assertEquals("duplicate id 9 at index 1 and index 3 (of 4 ids)", e.getMessage());
        AssertionError groups = assertThrows(AssertionError.class,
                () -> IdChecks.assertAllUnique(new long[][] {{1, 2}, {3}, {4, 2}}));
        assertEquals("duplicate id 2 at group 0 index 1 and group 2 index 1 (of 5 ids in 3 groups)", groups.getMessage());
        IdChecks.assertAllUnique(new long[][] {{1, 2}, {}, {3}});
    }

    @Test
    void orderNamesThePairAndTheGap() {
        IdChecks.assertStrictlyIncreasing(new long[] {-5, 0, 7});
        AssertionError e = assertThrows(AssertionError.class,
                () -> IdChecks.assertStrictlyIncreasing(new long[] {1, 4, 4}));
        assertEquals("ids not strictly increasing at index 2: ids[1] = 4, ids[2] = 4 (difference 0, of 3 ids)",
                e.getMessage());
        assertThrows(AssertionError.class, () -> IdChecks.assertStrictlyIncreasing(new long[] {10, 3}));
    }

    @Test
    void kSortedAllowsDisorderUpToK() {
        // made in this order by two machines whose clocks are 3 ms apart
        long[] ids = {id(T0.plusMillis(3), 2, 0), id(T0, 1, 0), id(T0.plusMillis(4), 2, 0), id(T0.plusMillis(1), 1, 0)};
        IdChecks.assertKSorted(ids, TWITTER, Duration.ofMillis(3));
        AssertionError e = assertThrows(AssertionError.class, () -> IdChecks.assertKSorted(ids, TWITTER, Duration.ofMillis(2)));
        assertEquals("ids not 2 ms-sorted: ids[1] = " + ids[1] + " carries 2026-01-01T00:00:00Z, 3 ms before ids[0] = "
                + ids[0] + " made earlier at 2026-01-01T00:00:00.003Z (allowed 2 ms)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IdChecks.assertKSorted(ids, TWITTER, Duration.ofMillis(-1)));
    }

    @Test
    void fieldsDecodeWithinRanges() {
        long[] ids = {id(T0, 3, 0), id(T0.plusMillis(10), 5, 4095)};
        IdChecks.assertSnowflakeFields(ids, TWITTER, T0, T0.plusMillis(10), 3, 5);
        AssertionError late = assertThrows(AssertionError.class,
                () -> IdChecks.assertSnowflakeFields(ids, TWITTER, T0, T0.plusMillis(9), 3, 5));
        assertEquals(true, late.getMessage().startsWith("ids[1] = SnowflakeId["), late.getMessage());
        assertEquals(true, late.getMessage().endsWith("timestamp 2026-01-01T00:00:00.010Z outside "
                + "2026-01-01T00:00:00Z .. 2026-01-01T00:00:00.009Z"), late.getMessage());
        AssertionError machine = assertThrows(AssertionError.class,
                () -> IdChecks.assertSnowflakeFields(ids, TWITTER, T0, T0.plusMillis(10), 4, 5));
        assertEquals(true, machine.getMessage().endsWith("machine id 3 outside 4 .. 5"), machine.getMessage());
        AssertionError negative = assertThrows(AssertionError.class,
                () -> IdChecks.assertSnowflakeFields(new long[] {-1}, TWITTER, T0, T0, 0, 1023));
        assertEquals(true, negative.getMessage().contains("negative"), negative.getMessage());
    }
}
