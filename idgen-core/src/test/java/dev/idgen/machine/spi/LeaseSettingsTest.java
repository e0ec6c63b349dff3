package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class LeaseSettingsTest {

    private static Duration ms(long n) {
        return Duration.ofMillis(n);
    }

    private static String refusal(Executable call) {
        return assertThrows(IllegalArgumentException.class, call).getMessage();
    }

    @Test
    void whatIsNotGivenTakesTheBackendsDefaultsAndThenTheTimingsDefaults() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023);
        assertEquals(1023, s.maxMachineId());
        LeaseTimings t = s.timings();
        assertEquals(ms(30_000), t.ttl());
        assertEquals(ms(6_000), t.renewEvery(), "a fifth of the ttl");
        assertEquals(ms(3_000), t.safetyMargin(), "a tenth of the ttl");
        assertEquals(ms(1_000), t.maxClockSkew());
        assertSame(InstantSource.system(), s.clock());
        assertTrue(s.background());
    }

    @Test
    void anotherBackendsDefaultsAreItsOwn() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(20), 7);
        assertEquals(7, s.maxMachineId());
        assertEquals(ms(20_000), s.timings().ttl());
        assertEquals(ms(4_000), s.timings().renewEvery(), "the default renewal follows the backend's ttl");
        assertEquals(ms(2_000), s.timings().safetyMargin());
    }

    @Test
    void givenValuesReplaceTheDefaultsInAnyOrder() {
        InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(1_000));
        // renewEvery before ttl: nothing is checked against the others until timings()
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023).renewEvery(ms(1_000))
                .ttl(Duration.ofSeconds(10)).safetyMargin(ms(500)).maxClockSkew(ms(200)).maxMachineId(31)
                .clock(clock).owner("api-7").background(false);
        assertEquals(new LeaseTimings(ms(10_000), ms(1_000), ms(500), ms(200)), s.timings());
        assertEquals(31, s.maxMachineId());
        assertSame(clock, s.clock());
        assertEquals("api-7", s.ownerOrDefault());
        assertEquals("api-7", s.ownerOrDefault(), "a given owner is kept");
        assertFalse(s.background());
    }

    @Test
    void withoutAnOwnerEachClaimGetsANewDefaultOne() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023);
        String a = s.ownerOrDefault();
        String b = s.ownerOrDefault();
        String pid = "/" + ProcessHandle.current().pid() + "/";
        assertTrue(a.contains(pid) && b.contains(pid), a + ", " + b);
        assertNotEquals(a, b, "the random suffix tells two claims of one process apart");
    }

    @Test
    void theMachineIdRangeIsZeroToIntMaxBothIncluded() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023);
        assertEquals(0, s.maxMachineId(0).maxMachineId());
        assertEquals(2_147_483_647L, s.maxMachineId(2_147_483_647L).maxMachineId());
        assertEquals("maxMachineId -1 is outside 0..2147483647", refusal(() -> s.maxMachineId(-1)));
        assertEquals("maxMachineId 2147483648 is outside 0..2147483647", refusal(() -> s.maxMachineId(2_147_483_648L)));
        assertEquals(2_147_483_647L, s.maxMachineId(), "a refused value leaves the last good one");
        assertEquals("maxMachineId -3 is outside 0..2147483647",
                refusal(() -> new LeaseSettings(Duration.ofSeconds(30), -3)), "a backend's default is checked too");
        assertEquals(5, LeaseSettings.checkMaxMachineId(5));
    }

    @Test
    void aClaimMayLoseOneRoundMoreThanTheSpaceHasIdsUpTo65536() {
        assertEquals(2, LeaseSettings.claimRounds(0));
        assertEquals(3, LeaseSettings.claimRounds(1));
        assertEquals(1025, LeaseSettings.claimRounds(1023));
        assertEquals(65_537, LeaseSettings.claimRounds(65_535));
        assertEquals(65_537, LeaseSettings.claimRounds(65_536));
        assertEquals(65_537, LeaseSettings.claimRounds(LeaseSettings.MAX_MACHINE_ID));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LeaseSettings.claimRounds(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }

    @Test
    void anOwnerIsOneTo255CharactersAndNotBlank() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023);
        String allowed = " must be 1 to 255 characters, not blank";
        assertEquals("owner '' (0 characters)" + allowed, refusal(() -> s.owner("")));
        assertEquals("owner ' \\u0009' (2 characters)" + allowed, refusal(() -> s.owner(" \t")));
        assertEquals("owner '" + "x".repeat(60) + "...' (256 characters)" + allowed, refusal(() -> s.owner("x".repeat(256))));
        assertEquals("x".repeat(255), s.owner("x".repeat(255)).ownerOrDefault());
        assertEquals("y", s.owner("y").ownerOrDefault());
    }

    @Test
    void aNullIsRefusedNamingTheParameter() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023);
        assertEquals("ttl", assertThrows(NullPointerException.class, () -> s.ttl(null)).getMessage());
        assertEquals("renewEvery", assertThrows(NullPointerException.class, () -> s.renewEvery(null)).getMessage());
        assertEquals("margin", assertThrows(NullPointerException.class, () -> s.safetyMargin(null)).getMessage());
        assertEquals("max", assertThrows(NullPointerException.class, () -> s.maxClockSkew(null)).getMessage());
        assertEquals("clock", assertThrows(NullPointerException.class, () -> s.clock(null)).getMessage());
        assertEquals("owner", assertThrows(NullPointerException.class, () -> s.owner(null)).getMessage());
        assertEquals("defaultTtl", assertThrows(NullPointerException.class, () -> new LeaseSettings(null, 1))
                .getMessage());
    }

    @Test
    void timingsThatDoNotFitAreRefusedWhenTheTimingsAreTakenNamingTheNumbers() {
        LeaseSettings s = new LeaseSettings(Duration.ofSeconds(30), 1023).ttl(Duration.ofSeconds(3));
        assertTrue(refusal(s::timings).startsWith("Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery"
                + " (600 ms) + 2 x maxClockSkew (1000 ms) + safetyMargin (300 ms) = 3500 ms"));
        s.ttl(Duration.ofSeconds(30)).maxClockSkew(ms(-1));
        assertEquals("Lease maxClockSkew -1 ms is negative; zero or more", refusal(s::timings));
        s.maxClockSkew(ms(0)).safetyMargin(ms(-2));
        assertEquals("Lease safetyMargin -2 ms is negative; zero or more", refusal(s::timings));
        s.safetyMargin(ms(0)).renewEvery(Duration.ZERO);
        assertEquals("Lease renewEvery 0 ms must be at least 1 ms", refusal(s::timings));
        s.renewEvery(ms(10)).ttl(ms(99));
        assertEquals("Lease ttl 99 ms is too short; at least 100 ms", refusal(s::timings));
        assertEquals(ms(100), s.ttl(ms(100)).timings().ttl(), "mended, the same settings give timings");
    }
}
