package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreLeaseSmokeTest {

    private static final long T0 = 1_800_000_000_000L;

    private static StoreLease.Builder lease(InMemoryLeaseStore store, LeaseClock clock, String owner) {
        return StoreLease.builder(store).clock(clock).owner(owner).background(false).ttl(Duration.ofSeconds(3))
                .renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400)).maxMachineId(3);
    }

    @Test
    void claimHoldRenewLoseAndClaimAgain() {
        LeaseClock clock = new LeaseClock(T0);
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        StoreLease a = lease(store, clock, "A").acquire();
        assertEquals(0, a.machineId());
        assertTrue(a.isHeld(), a.state());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).clock(clock)
                .machineId(a).build();
        long first = ids.nextLong();
        assertEquals(0, ids.decode(first).machineId());
        clock.advance(400);
        assertTrue(a.renewNow());
        // paused past the whole term: refused by time
        clock.advance(5_000);
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertFalse(a.isHeld());
        // another claimer takes id 0
        StoreLease b = lease(store, clock, "B").acquire();
        assertEquals(0, b.machineId());
        // A comes back: its record was taken, it claims id 1 and carries on
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId());
        long next = ids.nextLong();
        assertEquals(1, ids.decode(next).machineId());
        assertTrue(next > first);
        assertEquals(1, a.reclaims());
        assertEquals(1, a.losses());
        a.close();
        b.close();
        assertFalse(a.isHeld());
    }

    @Test
    void aLeaseWhoseRecordIsStillItsOwnAfterAPauseHoldsAgainAtOnce() {
        LeaseClock clock = new LeaseClock(T0);
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        StoreLease a = lease(store, clock, "A").acquire();
        clock.advance(10_000);
        assertFalse(a.isHeld());
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
    }

    @Test
    void aCopyThatSeesARestoreClaimsAnotherIdAndTheOriginalKeepsItsOwn() {
        LeaseClock clock = new LeaseClock(T0);
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        StoreLease a = lease(store, clock, "A").acquire();
        StoreLease copy = a.copyOfImage(store);
        copy.afterRestore();
        assertTrue(copy.renewNow(), copy.state());
        assertEquals(1, copy.machineId());
        clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
    }
}
