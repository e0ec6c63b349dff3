package dev.idgen.lease;

import static dev.idgen.lease.LeaseFixture.T0;
import static dev.idgen.lease.LeaseFixture.TTL;
import static dev.idgen.lease.LeaseFixture.assertNoId;
import static dev.idgen.lease.LeaseFixture.ids;
import static dev.idgen.lease.LeaseFixture.make;
import static dev.idgen.lease.LeaseFixture.millisOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Machine id 0 is an id like any other, and every way a lease gives up a claim or takes a new one
 * shuts its generator's fence first: each test fails on an ID stamped with the wrong id, past a
 * fence, or on a tick another holder may have used.
 */
class ReclaimTest {

    private final LeaseFixture f = new LeaseFixture();

    /** {@return the ID {@code g} makes now, or empty when it refuses because its fence is shut} */
    private static OptionalLong attempt(SnowflakeGenerator g) {
        try {
            return OptionalLong.of(g.nextLong());
        } catch (MachineIdLostException refused) {
            return OptionalLong.empty();
        }
    }

    @Test
    void anExactIdZeroNeverMovesAndWhenTakenNamesItsHolder() {
        StoreLease a = f.lease("A").machineId(0).acquire();
        assertFalse(a.reclaimsAnyId(), "an exact id never moves, id 0 included");
        SnowflakeGenerator g = f.ids(a);
        make(g, 10);
        MachineIdLeaseException refused = assertThrows(MachineIdLeaseException.class,
                () -> f.lease("B").machineId(0).acquire());
        assertTrue(refused.getMessage().startsWith("Machine id 0 in test is held by a live lease of owner 'A' (token 1)"),
                refused.getMessage());
        f.clock.advance(TTL + 1); // A paused past its term; B is given id 0 as well
        StoreLease b = f.lease("B").machineId(0).acquire();
        Set<Long> bIds = make(f.ids(b), 10);
        a.renewNow();
        assertEquals(0, a.machineId());
        assertNoId(g, bIds, "A's id 0 is B's now");
        assertFalse(a.isHeld(), a.state());
        assertTrue(a.state().startsWith("fenced: Machine id 0 in test is held by a live lease of owner 'B' (token 2)"),
                a.state());
    }

    @Test
    void aLeaseThatMustKeepItsIdStillTakesTheLowestFreeIdAtFirst() {
        f.lease("X").acquire();
        StoreLease a = f.lease("A").reclaimAnyId(false).acquire();
        assertEquals(1, a.machineId(), "no id is held yet: id 0 is X's, not this lease's own");
    }

    @Test
    void ofTwoCopiesTheOneThatFindsItsRecordRewrittenStopsAtOnceThoughNoOtherIdIsFree() {
        StoreLease a = f.lease("A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        make(g, 10);
        StoreLease copy = a.copyOfImage(f.store());
        SnowflakeGenerator gc = f.ids(copy);
        f.clock.advance(400);
        assertTrue(copy.renewNow(), "the copy writes first: the claim is its");
        Set<Long> copyIds = make(gc, 10);
        a.renewNow();
        assertNoId(g, copyIds, "the original found a nonce it never wrote, before the fence of its last write");
        assertFalse(a.isHeld(), a.state());
        assertTrue(a.state().startsWith("fenced: Every machine id 0..0 in test is held"), a.state());
    }

    @Test
    void aCheckpointShutsTheFenceBeforeItReadsTheMarkItGivesBack() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(0).acquire();
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        OptionalLong[] during = {OptionalLong.empty()};
        s.duringReplace = () -> { // another thread calls while the id is being given back, a little later
            s.duringReplace = null;
            f.clock.advance(5);
            during[0] = attempt(g);
        };
        a.beforeCheckpoint();
        assertEquals(T0, f.memory.records().get(0L).markMillis(), "the mark given back");
        StoreLease b = f.lease("B").maxMachineId(0).acquire();
        long bFirst = f.ids(b).nextLong();
        assertTrue(during[0].isEmpty(), () -> "A made " + g.decode(during[0].getAsLong()) + " while giving id 0 back,"
                + " above the mark it recorded" + (bFirst == during[0].getAsLong() ? "; B, the next holder, made it"
                + " too" : ""));
    }

    @Test
    void aClaimWithAFloorAheadRaisesTheGeneratorSoAClockStepBackGivesNoIdAtOrBelowIt() {
        FaultyStore s = f.store();
        StoreLease a = f.lease(s, "A").maxMachineId(1).acquire();
        SnowflakeGenerator g = ids(a, f.clock, ClockBackwardsPolicy.runAhead(Duration.ofSeconds(5)));
        make(g, 10);
        f.clock.advance(TTL + 1); // A paused past its term: B takes id 0
        StoreLease b = f.lease("B").maxMachineId(0).acquire();
        assertEquals(0, b.machineId());
        long now = f.clock.millis();
        // A's way to the store says the store restarted 2 s ago and may have lost acknowledged writes:
        // a holder of id 1 from before wrote no expiry after restart + ttl, so A starts above it
        s.restartedAt = now - 2_000;
        long floor = now - 2_000 + TTL - 1;
        assertFalse(a.renewNow(), a.state());
        assertEquals(1, a.machineId());
        assertEquals(LeaseState.CLAIMING, a.phase());
        f.clock.set(floor + 1);
        assertTrue(a.renewNow(), a.state());
        f.clock.set(floor - 9); // a step back of 10 ms, inside the skew bound, before any ID of the claim
        long id = g.nextLong();
        assertTrue(millisOf(g, id) > floor, () -> "an ID of machine id 1 at " + Instant.ofEpochMilli(millisOf(g, id))
                + ", at or below the claim's floor " + Instant.ofEpochMilli(floor)
                + ", where a holder from before the restart may have made it");
        assertEquals(floor, a.highWaterMark(), "the lease's mark is the claim's floor");
    }

    @Test
    void aClockSteppedBackBelowTheFloorShutsTheFenceAtTheNextRenewalUntilItPassesAgain() {
        FaultyStore s = f.store();
        s.restartedAt = T0 - 1_000;
        long floor = T0 - 1_000 + TTL - 1;
        StoreLease a = f.lease(s, "A").acquire();
        SnowflakeGenerator g = ids(a, f.clock, ClockBackwardsPolicy.runAhead(Duration.ofSeconds(5)));
        f.clock.set(floor + 1);
        assertTrue(a.renewNow(), a.state());
        long first = g.nextLong();
        f.clock.set(floor - 9);
        assertFalse(a.renewNow(), "a renewal finds the clock at or below the floor again");
        assertEquals("claiming: waiting until " + Instant.ofEpochMilli(floor) + ", above every ID an earlier holder"
                + " of machine id 0 may have made", a.state());
        assertNoId(g, Collections.emptySet(), "the lease says it waits for its floor");
        f.clock.set(floor + 2);
        assertTrue(a.renewNow(), a.state());
        assertTrue(g.nextLong() > first);
    }

    @Test
    void aCopyOfTheImageCarriesTheClaimItsFenceAndTheMarkOfItsGenerator() {
        StoreLease a = f.lease("A").acquire();
        SnowflakeGenerator g = f.ids(a);
        Set<Long> aIds = make(g, 10);
        long aLast = Collections.max(aIds);
        StoreLease copy = a.copyOfImage(f.store());
        // a copy with no signal stamps its copied claim until it writes, as the image would: after
        // the last tick the image's generator used (ahead of this clock, which has not moved)
        SnowflakeGenerator gc = ids(copy, f.clock, ClockBackwardsPolicy.runAhead(Duration.ofSeconds(5)));
        long first = gc.nextLong();
        assertTrue(first > aLast, () -> "the copy made " + gc.decode(first) + (aIds.contains(first)
                ? ", an ID the original made before the copy" : "") + ", not after " + g.decode(aLast));
        assertEquals(a.fence(), copy.fence());
        assertEquals(T0, copy.highWaterMark(), "the mark of the image's generator");
        assertEquals(a.machineId(), copy.machineId());
        assertEquals(a.token(), copy.token());
    }

    @Test
    void aHolderThatMustMoveMovesOntoTheLayoutsTopIdAndStampsIt() {
        // Twitter's top id is 1023; the range 1022..1023 leaves A only that one when its own is taken
        StoreLease a = f.lease("A").minMachineId(1_022).maxMachineId(1_023).acquire();
        assertEquals(1_022, a.machineId());
        SnowflakeGenerator g = f.ids(a);
        g.nextLong();
        f.clock.advance(TTL + 1);
        StoreLease b = f.lease("B").minMachineId(1_022).maxMachineId(1_023).machineId(1_022).acquire();
        Set<Long> bIds = make(f.ids(b), 10);
        assertTrue(a.renewNow(), a.state());
        assertEquals(1_023, a.machineId());
        long id = g.nextLong();
        assertEquals(1_023, g.decode(id).machineId(), "the generator takes the layout's top id");
        assertFalse(bIds.contains(id));
    }

    /** A generator's view that keeps its machine id for life, as a generator built for one id does. */
    private static final class FixedIdUser implements MachineIdUser {
        long fence = Long.MIN_VALUE;

        @Override
        public long highWaterMark() {
            return MachineIdLease.NO_MARK;
        }

        @Override
        public void raiseHighWaterMark(long unixMillis) {
        }

        @Override
        public void fenceFrom(long unixMillis) {
            fence = unixMillis;
        }
    }

    @Test
    void aGeneratorThatCannotMoveHoldsAgainOnItsOwnIdOnceItIsFree() {
        StoreLease a = f.lease("A").maxMachineId(0).acquire();
        FixedIdUser user = new FixedIdUser();
        a.attach(user);
        f.clock.advance(TTL + 1);
        StoreLease b = f.lease("B").maxMachineId(0).acquire();
        f.clock.advance(5);
        b.close();
        f.clock.advance(1);
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
        assertEquals(a.fence().toEpochMilli(), user.fence, "the claim of the same id opened the fence");
    }
}
