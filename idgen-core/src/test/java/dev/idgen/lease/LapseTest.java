package dev.idgen.lease;

import static dev.idgen.lease.LeaseFixture.OFFSET;
import static dev.idgen.lease.LeaseFixture.SILENCE;
import static dev.idgen.lease.LeaseFixture.T0;
import static dev.idgen.lease.LeaseFixture.TTL;
import static dev.idgen.lease.LeaseFixture.assertNoId;
import static dev.idgen.lease.LeaseFixture.make;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Instant;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A fence that time passed, and the writes after it: what is counted, what the state says, and
 * that the generator makes no ID until a claim holds again. The numbers are the fixture's: a
 * claim at T0 has expiries T0 + 3000 and the fence T0 + 1533 (the silence bound).
 */
class LapseTest {

    private final LeaseFixture f = new LeaseFixture();

    @Test
    void aFenceThatTimePassedBetweenTwoRenewalsIsALossEvenIfNoOneLooked() {
        StoreLease a = f.lease("A").acquire();
        f.clock.set(T0 + SILENCE + 50); // no ID from T0 + 1533 on; no one asked the lease meanwhile
        assertTrue(a.renewNow(), a.state()); // its fence, min(T0 + 3000 - 700, now + 1533), is ahead
        assertEquals(1, a.losses(), "the fence stood from T0 + 1533 to the renewal");
        assertEquals(1, a.reclaims(), "and it held again");
    }

    @Test
    void aHolderCutOffPastItsFenceCountsOneLossAtItsNextAttempt() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").acquire();
        s.cut = true;
        f.clock.set(T0 + SILENCE);
        assertFalse(a.renewNow());
        assertEquals(1, a.losses());
        assertEquals(LeaseState.FENCED, a.phase());
    }

    @Test
    void whicheverReaderLooksFirstNoticesAPassedFence() {
        StoreLease a = f.lease("A").acquire();
        StoreLease b = f.lease("B").acquire();
        f.clock.set(T0 + SILENCE);
        assertEquals(LeaseState.FENCED, a.phase());
        assertEquals(1, b.losses());
        assertTrue(b.state().startsWith("fenced: no renewal acknowledged in time"), b.state());
    }

    @Test
    void aLapseRenewedAtTheMillisecondItsFirstWritesFenceStandsHoldsAgainInThatStep() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").acquire();
        // the first write after the lapse gets the fence min(T0 + 3000 - 700, now + 1533) = now: passed
        f.clock.set(T0 + TTL - OFFSET);
        int writes = s.replaces;
        assertTrue(a.renewNow(), a.state());
        assertEquals(2, s.replaces - writes, "one write opens nothing after the lapse, the second at once");
        assertEquals(1, a.losses());
        assertEquals(1, a.reclaims());
    }

    @Test
    void aLapseWhoseFirstWriteLandsAndSecondIsLostStaysShutThoughTheClockStepsBack() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").acquire();
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        f.clock.set(T0 + TTL - OFFSET + 100);
        s.loseWriteNumber = s.replaces + 2;
        assertFalse(a.renewNow(), a.state());
        assertEquals("fenced: no renewal acknowledged in time: the fence at " + Instant.ofEpochMilli(T0 + TTL - OFFSET)
                + " passed", a.state(), "the fence of the write that landed");
        f.clock.set(T0 + 1_000); // back below the fence the claim had before the lapse
        assertNoId(g, Collections.emptySet(), "the lease says fenced");
        assertTrue(a.renewNow(), a.state());
        g.nextLong();
    }

    @Test
    void aRenewalAfterTheClockLeftTheSkewBoundOpensNothingUntilASecondWriteLands() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").acquire();
        SnowflakeGenerator g = f.ids(a);
        s.clockOffset = 401;
        f.clock.advance(400);
        assertFalse(a.renewNow());
        s.clockOffset = 0;
        f.clock.advance(400);
        s.loseWriteNumber = s.replaces + 2;
        assertFalse(a.renewNow(), a.state());
        assertEquals("claiming: waiting for a second acknowledged write", a.state());
        assertNoId(g, Collections.emptySet(), "one write after the loss opens nothing");
        f.clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        g.nextLong();
    }

    @Test
    void aRenewalWhoseAnswerWasLostAndWhoseIdWasThenTakenIsALoss() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        f.clock.advance(400);
        s.loseNextAnswer = true;
        assertTrue(a.renewNow()); // the write landed (expiry T0 + 3400); its answer did not
        f.clock.set(T0 + 400 + TTL + 1); // A paused past the term of the write that landed
        StoreLease b = f.lease("B").maxMachineId(0).acquire();
        Set<Long> bIds = make(f.ids(b), 10);
        assertFalse(a.renewNow(), a.state());
        assertTrue(a.state().startsWith("fenced: Every machine id 0..0 in test is held by a live lease"), a.state());
        assertEquals(1, a.losses());
        assertNoId(g, bIds, "id 0 is B's");
    }

    @Test
    void aReleaseAfterARenewalWhoseAnswerWasLostStillFreesTheIdAtOnce() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        f.clock.advance(400);
        s.loseNextAnswer = true;
        a.renewNow();
        a.close();
        assertEquals(T0 + 399, f.memory.records().get(0L).expiresMillis(), "the release wrote over the write that landed");
        assertEquals(0, f.lease("B").maxMachineId(0).acquire().machineId());
    }

    @Test
    void aClaimWhoseWriteWasLostIsNotTakenForOneThatLanded() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(1).acquire();
        f.clock.advance(TTL + 1);
        f.lease("B").maxMachineId(1).acquire(); // takes id 0
        s.loseWriteNumber = s.replaces + 2; // A's renewal of id 0 is refused, its claim of id 1 lost on the way
        assertFalse(a.renewNow(), a.state());
        assertEquals(0, f.memory.records().get(1L).token(), "the claim of id 1 never landed");
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId());
        assertEquals(1, f.memory.records().get(1L).token());
    }

    @Test
    void aLeaseWhoseRecordTheStoreLostStopsAtOnce() {
        StoreLease a = f.lease("A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        f.memory.forget(0);
        assertFalse(a.renewNow(), a.state());
        assertNoId(g, Collections.emptySet(), "its record is gone: it cannot prove its claim");
        assertEquals(LeaseState.CLAIMING, a.phase(), "it claims id 0 again, as a new holder waiting a ttl");
    }
}
