package dev.idgen.lease;

import static dev.idgen.lease.LeaseFixture.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When the lease's own thread steps, and what a lease with that thread does on its own. The clock
 * is still set by hand: the thread only decides when a step runs, never what it finds; a test waits
 * for the store to see a write, bounded, and never sleeps.
 */
class RenewalScheduleTest {

    private final LeaseFixture f = new LeaseFixture();

    /** A lease renewing on its own thread, margin and skew bound 100 ms. */
    private StoreLease.Builder renewing(FaultyStore s, long ttlMillis, long renewMillis) {
        return StoreLease.builder(s).clock(f.clock).owner("A").ttl(Duration.ofMillis(ttlMillis))
                .renewEvery(Duration.ofMillis(renewMillis)).safetyMargin(Duration.ofMillis(100))
                .maxClockSkew(Duration.ofMillis(100)).maxMachineId(3);
    }

    @Test
    void aPauseWhileHeldJustPastTheFloorWhileWaitingForItAndAQuarterPauseOtherwise() throws Exception {
        FaultyStore s = f.store();
        s.restartedAt = T0 - 1_000; // the claim's floor: T0 + 1999
        LeaseLife life = new LeaseLife(f.lease(s, "A").config(s));
        life.acquire();
        assertEquals(LeaseState.CLAIMING, life.phase());
        assertEquals(400, life.nextDelay(false), "never more than a pause, so the waiting claim stays renewed");
        f.clock.set(T0 + 1_800);
        assertEquals(200, life.nextDelay(false), "the first millisecond past the floor");
        f.clock.set(T0 + 2_000);
        assertTrue(life.step());
        assertEquals(400, life.nextDelay(true));
        assertEquals(100, life.nextDelay(false), "held, but the last step did not hold: a quarter pause");
        s.cut = true;
        f.clock.set(T0 + 5_000);
        assertFalse(life.step());
        assertEquals(LeaseState.FENCED, life.phase());
        assertEquals(100, life.nextDelay(false), "fenced past its floor: a quarter pause");
    }

    @Test
    void aClaimWaitingForASecondWriteOnANeverClaimedIdStepsAgainInAQuarterPause() {
        FaultyStore s = f.store();
        s.loseWriteNumber = 2;
        LeaseLife life = new LeaseLife(f.lease(s, "A").config(s));
        assertThrows(MachineIdLeaseException.class, life::acquire);
        assertEquals(LeaseState.CLAIMING, life.phase(), "claimed, never confirmed; no floor");
        assertEquals(100, life.nextDelay(false));
    }

    @Test
    void aLeaseWithARenewalThreadRenewsOnADaemonThreadNamedForItsIdAndStopsAtClose() throws Exception {
        FaultyStore s = f.store();
        s.replaced = new CountDownLatch(5); // the claim, its confirmation, three renewals
        StoreLease a = renewing(s, 30_000, 20).acquire();
        Thread renewer;
        try {
            assertTrue(s.replaced.await(60, TimeUnit.SECONDS), "renewed on its own");
            renewer = s.lastWriter;
            assertEquals("idgen-lease-0-renew", renewer.getName());
            assertTrue(renewer.isDaemon(), "the thread never keeps the JVM alive");
        } finally {
            a.close();
        }
        renewer.join(60_000);
        assertFalse(renewer.isAlive(), "close() stops it");
    }

    @Test
    void aRestoreSignalledToALeaseWithARenewalThreadClaimsAtOnceNotAtTheNextRenewal() throws Exception {
        FaultyStore s = f.store();
        // the thread's first step comes a quarter pause (15 s) after acquire(), its next a pause later
        StoreLease a = renewing(s, 300_000, 60_000).acquire();
        try {
            s.replaced = new CountDownLatch(2); // a claim of another id and its confirmation
            a.afterRestore();
            assertTrue(s.replaced.await(5, TimeUnit.SECONDS), "claimed on the lease's thread at once");
            assertTrue(a.renewNow(), a.state());
            assertEquals(1, a.machineId(), "id 0 stays with the original");
        } finally {
            a.close();
        }
    }

    @Test
    void aClaimThatWaitsForItsFloorHoldsOnceTheClockPassesItWhileItsThreadRenewsIt() throws Exception {
        FaultyStore s = f.store();
        s.restartedAt = T0 - 30_000 + 100; // the claim's floor: T0 + 99
        s.replaced = new CountDownLatch(2);
        ExecutorService starter = Executors.newSingleThreadExecutor();
        try {
            Future<StoreLease> started = starter.submit(renewing(s, 30_000, 100)::acquire);
            assertTrue(s.replaced.await(60, TimeUnit.SECONDS), "claimed and confirmed; acquire() waits for the floor");
            f.clock.set(T0 + 100);
            StoreLease a = started.get(60, TimeUnit.SECONDS);
            assertTrue(a.isHeld(), a.state());
            a.close();
        } finally {
            starter.shutdownNow();
        }
    }

    @Test
    void anAcquireThatCannotConfirmItsClaimGivesItBackAndSaysWhy() {
        FaultyStore s = f.store();
        s.duringReplace = () -> { // the clock steps out of the bound between the claim and its confirmation
            s.duringReplace = null;
            s.clockOffset = -401;
        };
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> f.lease(s, "A").maxMachineId(0)
                .acquire());
        assertEquals("Could not hold machine id 0 in test: fenced: the local clock is -401 ms from the clock in test"
                + " (measured within 0 ms), beyond the allowed skew of 400 ms; fix the clock (NTP), the store or the"
                + " timings before claiming a machine id", e.getMessage());
        assertEquals(0, f.lease("B").maxMachineId(0).acquire().machineId(), "given back at once");
    }
}
