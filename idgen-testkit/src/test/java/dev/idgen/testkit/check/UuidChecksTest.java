package dev.idgen.testkit.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidChecksTest {

    // RFC 9562 appendix A.6 and A.3
    private static final UUID V7 = UUID.fromString("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    private static final UUID V4 = UUID.fromString("919108f7-52d1-4320-9bac-f847db4148a8");

    private static UUID v7At(long millis, long low) {
        return new UUID(millis << 16 | 0x7000, low & 0x3FFF_FFFF_FFFF_FFFFL | Long.MIN_VALUE);
    }

    @Test
    void readsTheRfcExample() {
        UuidChecks.assertV7Fields(List.of(V7), Instant.parse("2022-02-22T19:22:22Z"),
                Instant.parse("2022-02-22T19:22:23Z"));
        UuidChecks.assertV4Fields(List.of(V4));
        AssertionError e = assertThrows(AssertionError.class, () -> UuidChecks.assertV4Fields(List.of(V4, V7)));
        assertEquals("uuids[1] = " + V7 + " is version 7 variant RFC_9562; expected version 4 variant RFC_9562", e.getMessage());
        assertThrows(AssertionError.class, () -> UuidChecks.assertV7Fields(List.of(V7),
                Instant.parse("2022-02-22T19:22:23Z"), Instant.parse("2022-02-22T19:22:24Z")));
        AssertionError notV7 = assertThrows(AssertionError.class, () -> UuidChecks.assertKSorted(List.of(V7, V4),
                Duration.ofMillis(1)));
        assertTrue(notV7.getMessage().startsWith("uuids[1] = " + V4 + " is version 4"), notV7.getMessage());
    }

    @Test
    void orderIsUnsignedNotUuidCompareTo() {
        UUID low = new UUID(0x7FFF_FFFF_FFFF_FFFFL, 0);
        UUID high = new UUID(0x8000_0000_0000_0000L, 0);
        assertTrue(high.compareTo(low) < 0, "UUID.compareTo is signed");
        UuidChecks.assertStrictlyIncreasing(List.of(low, high));
        AssertionError e = assertThrows(AssertionError.class, () -> UuidChecks.assertStrictlyIncreasing(List.of(high, low)));
        assertTrue(e.getMessage().startsWith("uuids not strictly increasing at index 1"), e.getMessage());
    }

    @Test
    void uniquenessAndKOrder() {
        UUID a = v7At(1000, 1);
        UUID b = v7At(997, 2);
        UUID c = v7At(1001, 3);
        UuidChecks.assertAllUnique(List.of(a, b, c));
        AssertionError dup = assertThrows(AssertionError.class, () -> UuidChecks.assertAllUnique(List.of(a, b, a)));
        assertEquals("duplicate uuid " + a + " at index 0 and index 2 (of 3 uuids)", dup.getMessage());
        UuidChecks.assertKSorted(List.of(a, b, c), Duration.ofMillis(3));
        AssertionError k = assertThrows(AssertionError.class, () -> UuidChecks.assertKSorted(List.of(a, b, c),
                Duration.ofMillis(2)));
        assertTrue(k.getMessage().contains("3 ms before uuids[0]"), k.getMessage());
    }
}
