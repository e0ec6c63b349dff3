package dev.idgen.lease;

import static dev.idgen.lease.LeaseFixture.SILENCE;
import static dev.idgen.lease.LeaseFixture.T0;
import static dev.idgen.lease.LeaseFixture.TTL;
import static dev.idgen.lease.LeaseFixture.assertNoId;
import static dev.idgen.lease.LeaseFixture.make;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The lease at its edges: the very millisecond of its fence and its floor, a clock that steps back
 * after a lapse was seen, a checkpoint, a renewal write lost on the way, a clock reading too
 * uncertain to trust, and the reason a lost lease gives when it cannot claim again at once. The
 * numbers are the fixture's: a claim at T0 holds with the fence at T0 + 1533 (the silence bound).
 */
class LeaseEdgesTest {

    private final LeaseFixture f = new LeaseFixture();

    @Test
    void theFenceMillisecondIsNoLongerHeld() {
        StoreLease a = f.lease("A").acquire();
        assertEquals(T0 + SILENCE, a.fence().toEpochMilli());
        f.clock.set(T0 + SILENCE - 1);
        assertTrue(a.isHeld(), a.state());
        f.clock.set(T0 + SILENCE);
        assertFalse(a.isHeld(), "the fence is the first millisecond no ID may cover");
    }

    @Test
    void theFloorMillisecondIsNotHeldWhenTheClockStepsBackOntoIt() {
        FaultyStore s = f.store();
        // the store restarted 2 s ago: a holder from before wrote no expiry after restart + ttl
        s.restartedAt = T0 - 2_000;
        long floor = T0 - 2_000 + TTL - 1;
        StoreLease a = f.lease(s, "A").acquire();
        f.clock.set(floor + 1);
        assertTrue(a.renewNow(), a.state());
        f.clock.set(floor); // a step back inside the skew bound, with no renewal since
        assertFalse(a.isHeld(), "an ID at the floor's millisecond may be an earlier holder's");
    }

    @Test
    void aPassedFenceThatIsHeldNoticedStaysPassedWhenTheClockStepsBack() {
        StoreLease a = f.lease("A").acquire();
        f.clock.set(T0 + SILENCE + 10);
        assertFalse(a.isHeld());
        f.clock.set(T0 + 1_000); // back before the fence: the lapse was seen, it is not undone
        assertEquals(LeaseState.FENCED, a.phase(), a.state());
        assertEquals(1, a.losses());
    }

    @Test
    void aClaimWaitingForItsFloorOpensOnceTheClockPassesItThoughThatRenewalFails() {
        FaultyStore s = f.store();
        s.restartedAt = T0 - 2_000;
        long floor = T0 - 2_000 + TTL - 1; // T0 + 999, before the confirmed claim's fence at T0 + 1533
        StoreLease a = f.lease(s, "A").acquire();
        SnowflakeGenerator g = f.ids(a);
        assertEquals(LeaseState.CLAIMING, a.phase(), a.state());
        f.clock.set(floor + 1);
        s.cut = true;
        // the two acknowledged writes put the fence at T0 + 1533; a failed write moves nothing
        assertTrue(a.renewNow(), a.state());
        assertEquals(T0 + SILENCE, a.fence().toEpochMilli());
        assertTrue(LeaseFixture.millisOf(g, g.nextLong()) > floor);
    }

    @Test
    void aLeaseWithItsOwnThreadReturnsFromAcquireHeldOnceItsFloorPasses() {
        FaultyStore s = f.store();
        s.restartedAt = T0 - TTL + 51; // the floor: T0 + 50
        // the lease's clock moves a millisecond at each read, so its floor passes without the test moving it
        InstantSource ticking = new InstantSource() {
            @Override
            public long millis() {
                f.clock.advance(1);
                return f.clock.millis();
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis());
            }
        };
        StoreLease a = f.lease(s, "A").clock(ticking).background(true).acquire();
        try {
            assertEquals(LeaseState.HELD, a.phase(), "acquire waits while the claim waits for its floor");
            assertTrue(f.clock.millis() > T0 + 50);
        } finally {
            a.close();
        }
    }

    @Test
    void aCheckpointLeavesTheLeaseFencedNamingIt() {
        StoreLease a = f.lease("A").acquire();
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        a.beforeCheckpoint();
        assertFalse(a.isHeld());
        assertEquals(LeaseState.FENCED, a.phase());
        assertTrue(a.state().startsWith("fenced: a checkpoint is being taken"), a.state());
        assertNoId(g, Collections.emptySet(), "the id was given back for the checkpoint");
    }

    @Test
    void aRenewalLostOnTheWayIsWrittenAgainAtTheNextOne() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        f.clock.advance(400);
        s.loseNextWrite = true;
        assertTrue(a.renewNow(), "the fence of the last acknowledged writes still stands");
        assertEquals(T0 + TTL, f.memory.records().get(0L).expiresMillis(), "the lost write never landed");
        f.clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        assertEquals(T0 + 800 + TTL, f.memory.records().get(0L).expiresMillis(),
                "the record is still the one this copy wrote: the next renewal writes it");
    }

    @Test
    void aSkewInsideTheBoundMeasuredTooRoughlyIsRefused() {
        FaultyStore s = f.store();
        // the answer comes 402 ms after the request: the store's clock is known within 201 ms;
        // 200 ms of skew plus 201 ms of doubt is beyond the 400 ms bound
        s.roundTripMillis = 402;
        s.clockOffset = 200 + 201;
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> f.lease(s, "A").acquire());
        assertTrue(e.getMessage().startsWith("The local clock is 200 ms from the clock in test (measured within 201 ms),"
                + " beyond maxClockSkew 400 ms"), e.getMessage());
        // 200 ms known within 200 ms: inside the bound
        s.roundTripMillis = 400;
        s.clockOffset = 200 + 200;
        assertEquals(0, f.lease(s, "B").acquire().machineId());
    }

    // --- why a lost lease is fenced, when it cannot claim again at once (the store cut off right after it looked)

    private static void cutAfterNextRead(FaultyStore s) {
        s.afterRead = () -> {
            s.afterRead = null;
            s.cut = true;
        };
    }

    @Test
    void aLeaseWhoseIdWasTakenNamesTheNewHolder() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        f.clock.advance(TTL + 1);
        StoreLease b = f.lease("B").maxMachineId(0).acquire();
        Set<Long> bIds = make(f.ids(b), 10);
        cutAfterNextRead(s);
        assertFalse(a.renewNow());
        assertEquals("fenced: machine id 0 was taken by owner 'B' (token 2)", a.state());
        assertNoId(g, bIds, "id 0 is B's");
    }

    @Test
    void aCopyThatFindsTheOtherCopysWriteSaysSo() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        StoreLease copy = a.copyOfImage(f.store());
        f.clock.advance(400);
        assertTrue(copy.renewNow(), copy.state());
        Set<Long> copyIds = make(f.ids(copy), 10);
        cutAfterNextRead(s);
        assertFalse(a.renewNow());
        assertEquals("fenced: another copy of this process image wrote the record first (its nonce is not the one this"
                + " copy wrote); claiming as a new holder", a.state());
        assertNoId(g, copyIds, "the copy holds the claim");
    }

    @Test
    void aLeaseWhoseRecordIsGoneSaysTheStoreLostItAndCountsTheLoss() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        f.memory.forget(0);
        cutAfterNextRead(s);
        assertFalse(a.renewNow());
        assertEquals("fenced: the store lost the record of machine id 0; claiming as a new holder", a.state());
        assertEquals(1, a.losses());
        assertNoId(g, Collections.emptySet(), "no record proves the claim");
    }
}
