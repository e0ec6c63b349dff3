package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.random.RandomSource;
import java.time.Instant;
import java.util.Comparator;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link Uuids#v7Min(Instant)}, {@link Uuids#v7Max(Instant)} and {@link Uuids#v7At(Instant, RandomSource)}. */
class UuidsRangeTest {

    /** RFC 9562 Appendix A.6: unix_ts_ms 0x017F22E279B0, 2022-02-22T19:22:22Z. */
    private static final UUID RFC_EXAMPLE = UUID.fromString("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    private static final Instant RFC_TIME = Instant.ofEpochMilli(0x017F22E279B0L);
    private static final Comparator<UUID> ORDER = Uuids.unsignedOrder();

    @Test
    void theRfcExampleLiesBetweenTheBoundsOfItsMillisecond() {
        assertEquals(Instant.parse("2022-02-22T19:22:22Z"), RFC_TIME);
        UUID min = Uuids.v7Min(RFC_TIME);
        UUID max = Uuids.v7Max(RFC_TIME);
        assertEquals("017f22e2-79b0-7000-8000-000000000000", Uuids.toString(min));
        assertEquals("017f22e2-79b0-7fff-bfff-ffffffffffff", Uuids.toString(max));
        assertTrue(ORDER.compare(min, RFC_EXAMPLE) < 0 && ORDER.compare(RFC_EXAMPLE, max) < 0);
        assertTrue(Uuids.toString(min).compareTo(Uuids.toString(RFC_EXAMPLE)) < 0, "as text too");
        assertEquals(7, min.version());
        assertEquals(2, max.variant());
        assertEquals(min, Uuids.v7Min(RFC_TIME.plusNanos(999_999)), "sub-ms is dropped");
        assertTrue(ORDER.compare(Uuids.v7Max(RFC_TIME.minusMillis(1)), min) < 0);
        assertTrue(ORDER.compare(max, Uuids.v7Min(RFC_TIME.plusMillis(1))) < 0);
    }

    @Test
    void aV7ForAnInstantCarriesItsMillisecondAndFreshRandomBits() {
        RandomSource random = RandomSource.seeded(42);
        UUID a = Uuids.v7At(RFC_TIME, random);
        UUID b = Uuids.v7At(RFC_TIME, random);
        for (UUID u : new UUID[] {a, b}) {
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            assertEquals(0x017F22E279B0L, u.getMostSignificantBits() >>> 16);
            assertTrue(ORDER.compare(Uuids.v7Min(RFC_TIME), u) <= 0 && ORDER.compare(u, Uuids.v7Max(RFC_TIME)) <= 0);
        }
        assertNotEquals(a, b);
    }

    @Test
    void theEndsOfTheFieldAreAllowedAndBeyondThemIsRefused() {
        assertEquals("00000000-0000-7000-8000-000000000000", Uuids.toString(Uuids.v7Min(Instant.EPOCH)));
        Instant last = Instant.ofEpochMilli((1L << 48) - 1);
        assertEquals("ffffffff-ffff-7fff-bfff-ffffffffffff", Uuids.toString(Uuids.v7Max(last.plusNanos(999_999))));
        Instant before = Instant.EPOCH.minusNanos(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Uuids.v7Min(before));
        assertTrue(e.getMessage().contains(before.toString()) && e.getMessage().contains("1970-01-01T00:00:00Z"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Uuids.v7Max(last.plusMillis(1)));
        assertThrows(IllegalArgumentException.class, () -> Uuids.v7At(last.plusMillis(1), RandomSource.seeded(1)));
    }
}
