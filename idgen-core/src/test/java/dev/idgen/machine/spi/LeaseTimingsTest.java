package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseTimingsTest {

    private static Duration ms(long n) {
        return Duration.ofMillis(n);
    }

    @Test
    void defaultsAreAFifthAndATenthOfTheTtlAndOneSecondOfSkew() {
        LeaseTimings t = LeaseTimings.of(Duration.ofSeconds(30), null, null, null);
        assertEquals(ms(6_000), t.renewEvery());
        assertEquals(ms(3_000), t.safetyMargin());
        assertEquals(ms(1_000), t.maxClockSkew());
        assertEquals(ms(30_000 - 12_000 - 2_000 - 3_000), t.headroom());
        assertEquals(4_000, t.fenceOffsetMillis());
        assertEquals(96_000, t.fenceFor(100_000));
        assertEquals(Long.MIN_VALUE, t.fenceFor(Long.MIN_VALUE + 5), "saturates instead of wrapping");
    }

    @Test
    void aShortTtlWithTheDefaultSkewIsRefusedNamingEveryNumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LeaseTimings.of(Duration.ofSeconds(3), null, null, null));
        assertEquals("Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery (600 ms) + 2 x maxClockSkew"
                + " (1000 ms) + safetyMargin (300 ms) = 3500 ms, or a healthy holder is fenced before its next"
                + " renewal (its fence is the older of its last two acknowledged expiries minus maxClockSkew and"
                + " safetyMargin); lengthen the ttl or shorten the others", e.getMessage());
    }

    @Test
    void theHeadroomMustBePositiveNotMerelyZero() {
        // 2 x 400 + 2 x 300 + 600 = 2000: exactly the ttl leaves no time for a round trip
        assertThrows(IllegalArgumentException.class, () -> new LeaseTimings(ms(2_000), ms(400), ms(600), ms(300)));
        assertEquals(ms(1), new LeaseTimings(ms(2_001), ms(400), ms(600), ms(300)).headroom());
    }

    @Test
    void outOfRangeValuesAreRefusedOneByOne() {
        assertEquals("Lease ttl 99 ms is too short; at least 100 ms", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(99), ms(1), ms(0), ms(0))).getMessage());
        assertEquals("Lease renewEvery 0 ms must be at least 1 ms", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(0), ms(0), ms(0))).getMessage());
        assertEquals("Lease safetyMargin -1 ms is negative; zero or more", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(1), ms(-1), ms(0))).getMessage());
        assertEquals("Lease maxClockSkew -5 ms is negative; zero or more", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(1), ms(0), ms(-5))).getMessage());
        assertThrows(NullPointerException.class, () -> new LeaseTimings(null, ms(1), ms(0), ms(0)));
    }

    @Test
    void theCallTimeoutIsAThirdOfTheHeadroomRoundedDown() {
        // headroom 30000 - 2 x 6000 - 2 x 1000 - 3000 = 13000 ms
        assertEquals(ms(4_333).plusNanos(333_333), LeaseTimings.of(Duration.ofSeconds(30), null, null, null)
                .callTimeout());
        // headroom 1 ms: a third of it, not zero-floored to a whole millisecond
        assertEquals(Duration.ofNanos(333_333), new LeaseTimings(ms(2_001), ms(400), ms(600), ms(300)).callTimeout());
    }
}
