package dev.idgen.lease;

import static dev.idgen.lease.LeaseFixture.CALL_TIMEOUT;
import static dev.idgen.lease.LeaseFixture.T0;
import static dev.idgen.lease.LeaseFixture.TTL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Which id a claim takes, in what order it tries the free ones, how it reads a namespace larger than
 * one read, and how it gives up when every race is lost.
 */
class ClaimTest {

    private final LeaseFixture f = new LeaseFixture();

    /** Records for ids 0..highest, each held by another process for an hour. */
    private void namespaceOfHeldIds(SnowflakeLayout layout, long highest) {
        NamespaceRecord ns = f.memory.readNamespace();
        f.memory.extend(ns.nonce(), new NamespaceRecord(layout.signature(), highest, ns.nonce() + 1, Long.MIN_VALUE), 0,
                highest, new LeaseRecord("other", 1, 5, T0 + 3_600_000, Long.MIN_VALUE, 700));
    }

    /** Frees {@code id} as a holder that stopped long ago. */
    private void expire(long id) {
        LeaseRecord r = f.memory.records().get(id);
        f.memory.replace(id, r.nonce(), new LeaseRecord(r.owner(), r.token(), r.nonce() + 1, T0 - 60_000,
                Long.MIN_VALUE, 700));
    }

    @Test
    void anIdIsFreeOnlyAfterItsExpiryNotAtIt() {
        f.lease("A").maxMachineId(0).acquire(); // expiry T0 + 3000
        f.clock.set(T0 + TTL);
        assertThrows(MachineIdLeaseException.class, () -> f.lease("B").maxMachineId(0).acquire());
        f.clock.set(T0 + TTL + 1);
        assertEquals(0, f.lease("B").maxMachineId(0).acquire().machineId());
    }

    @Test
    void aFreeIdWhoseFloorIsBehindTheClockIsTakenBeforeOneThatMustWait() {
        f.lease("A").maxMachineId(1).acquire();
        f.memory.forget(0); // written again when read: free, but only one ttl from now
        StoreLease b = f.lease("B").maxMachineId(1).acquire();
        assertEquals(1, b.machineId(), "id 1 was never claimed: free at once");
        assertTrue(b.isHeld(), b.state());
    }

    @Test
    void aClaimerThatLosesEveryRaceGivesUpAfterOneRoundMoreThanTheRangeHasIds() {
        FaultyStore s = f.store();
        s.claimsToLose = Integer.MAX_VALUE;
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> f.lease(s, "A").minMachineId(2).maxMachineId(5).acquire());
        // four ids, five races lost (the first extension of the namespace is no race)
        assertEquals("Lost the race for the free machine ids 2..5 in test 5 times over, each to another claimer; ids"
                + " are freed as fast as others take them, try again", e.getMessage());
        // one race per id and one more, each trying the 4 ids
        assertEquals(20, s.claimsTried.size());
    }

    @Test
    void aClaimThatLosesTheLowestFreeIdTakesTheNextLowest() {
        FaultyStore s = f.store();
        s.claimsToLose = 1;
        StoreLease a = f.lease(s, "A").maxMachineId(63).acquire();
        assertEquals(List.of(0L, 1L), s.claimsTried);
        assertEquals(1, a.machineId());
    }

    @Test
    void aClaimerThatLostAWholeRoundTriesTheOthersInAnotherOrder() {
        FaultyStore s = f.store();
        s.claimsToLose = 31; // all 16 of the first round, then all but the last of the second
        f.lease(s, "A").maxMachineId(15).acquire();
        List<Long> ascending = LongStream.range(0, 16).boxed().toList();
        assertEquals(ascending, s.claimsTried.subList(0, 16));
        List<Long> second = s.claimsTried.subList(16, 32);
        assertEquals(0, second.get(0), "the best candidate stays first");
        // shuffled: ascending again has a chance of 1 in 15!
        assertNotEquals(ascending, second, "claimers that lost a round stop racing in step");
    }

    @Test
    void aRoundThatRunsLongerThanOneCallReadsTheStoresClockAgain() {
        FaultyStore s = f.store();
        s.claimsToLose = 1;
        s.onLostClaim = () -> f.clock.advance(CALL_TIMEOUT);
        f.lease(s, "A").acquire();
        assertEquals(T0 + TTL, s.writes.get(1).expiresMillis(), "a round as long as one call keeps its reading");
        FaultyStore late = f.store();
        late.claimsToLose = 1;
        late.onLostClaim = () -> f.clock.advance(CALL_TIMEOUT + 1);
        long start = f.clock.millis();
        f.lease(late, "B").acquire();
        assertEquals(start + CALL_TIMEOUT + 1 + TTL, late.writes.get(1).expiresMillis(), "a longer one reads again");
    }

    @Test
    void aLeaseThatMustMovePrefersItsOwnIdEvenBeyondTheFirstReadOfOneThousandIds() {
        FaultyStore s = f.store();
        namespaceOfHeldIds(SnowflakeLayout.SONYFLAKE, 1_099);
        expire(1_050);
        StoreLease a = f.lease(s, "A").layout(SnowflakeLayout.SONYFLAKE).maxMachineId(1_099).acquire();
        assertEquals(1_050, a.machineId(), "found in the second read of at most 1,024 ids");
        for (long id = 0; id < 20; id++) {
            expire(id);
        }
        f.clock.advance(TTL + 1); // A paused past its term: its id was taken and given back meanwhile
        LeaseRecord mine = f.memory.records().get(1_050L);
        f.memory.replace(1_050, mine.nonce(), new LeaseRecord("rival", 2, mine.nonce() + 1, T0 + TTL, T0, 700));
        assertTrue(a.renewNow(), a.state());
        assertEquals(1_050, a.machineId(), "its own id, free again, though 20 lower ones are free as well");
    }

    @Test
    void recordsTheStoreLostAreWrittenAgainAtMostSixtyFourAtATime() {
        FaultyStore s = f.store();
        namespaceOfHeldIds(SnowflakeLayout.TWITTER, 199);
        for (long id = 100; id < 200; id++) {
            f.memory.forget(id);
        }
        StoreLease a = f.lease(s, "A").maxMachineId(199).acquire();
        assertEquals(200, f.memory.records().size());
        assertEquals(100, a.machineId());
        assertEquals(LeaseState.CLAIMING, a.phase(), "written again as held for a ttl by a forgotten holder");
    }

    @Test
    void aStoreEmptiedWhileAClaimNamesItsLayoutIsTakenForEmptied() {
        FaultyStore s = f.store();
        s.afterExtend = () -> {
            s.afterExtend = null;
            f.memory.forgetAll();
        };
        StoreLease a = f.lease(s, "A").acquire();
        assertEquals(T0 + TTL, f.memory.readNamespace().trustedFromMillis());
        assertEquals(LeaseState.CLAIMING, a.phase(), a.state());
    }

    @Test
    void aStoreThatLosesARecordEachTimeItIsWrittenAgainEndsTheClaimAfterABoundedNumberOfChanges() {
        FaultyStore s = f.store();
        namespaceOfHeldIds(SnowflakeLayout.TWITTER, 3);
        f.memory.forget(1);
        int[] rewrites = {0};
        s.afterExtend = () -> { // something keeps deleting the record of id 1 behind the lease's back
            rewrites[0]++;
            f.memory.forget(1);
        };
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> f.lease(s, "A").acquire());
        // ids 0..3 are one batch of 64: one extension and one rewrite of it, and one more look per
        // claim round (4 ids, 5 rounds) make 7 changes a claim puts up with; the 8th ends it
        assertTrue(e.getMessage().startsWith("The namespace in test changed 8 times during one claim"), e.getMessage());
        assertEquals(8, rewrites[0], "each change was one rewrite of the lost record");
    }

    /** Ids 0..15, each free since long ago, id {@code i} with the mark {@code marks[i]}, and its own nonce. */
    private void freeIdsWithMarks(long... marks) {
        NamespaceRecord ns = f.memory.readNamespace();
        int last = marks.length - 1;
        f.memory.extend(ns.nonce(), new NamespaceRecord(SnowflakeLayout.TWITTER.signature(), last, ns.nonce() + 1,
                Long.MIN_VALUE), 0, last, new LeaseRecord("other", 1, 5, T0 - 60_000, Long.MIN_VALUE, 700));
        for (int id = 0; id <= last; id++) {
            f.memory.replace(id, 5, new LeaseRecord("other", 1, 100 + id, T0 - 60_000, marks[id], 700));
        }
    }

    @Test
    void anIdWhoseFloorIsTheCurrentMillisecondWaitsBehindOneWhoseFloorHasPassed() {
        freeIdsWithMarks(T0, T0 - 10); // the store's clock reads T0
        StoreLease a = f.lease("A").maxMachineId(1).acquire();
        assertEquals(1, a.machineId(), "an ID at T0 may repeat one of id 0's last holder");
        assertTrue(a.isHeld(), a.state());
    }

    @Test
    void aCandidateReorderedAfterALostRoundIsClaimedWithItsOwnRecordsFloor() {
        long[] marks = LongStream.range(0, 16).map(id -> T0 + 100 + id).toArray();
        freeIdsWithMarks(marks);
        FaultyStore s = f.store();
        s.claimsToLose = 16 + 14; // all of the first round, then all but the last try of the second
        StoreLease a = f.lease(s, "A").maxMachineId(15).acquire();
        assertEquals(31, s.claimsTried.size());
        assertEquals((long) s.claimsTried.get(30), a.machineId());
        // each claim writes its floor as the mark: the id's own mark (believed, within the skew bound)
        for (int i = 0; i < 31; i++) {
            long id = s.claimsTried.get(i);
            assertEquals(T0 + 100 + id, s.writes.get(i).markMillis(), "claim " + i + " of id " + id);
        }
        assertEquals(T0 + 100 + a.machineId(), f.memory.records().get(a.machineId()).markMillis());
    }

    @Test
    void aClaimThatFindsSixteenFreeIdsInItsFirstReadReadsNoFurther() {
        FaultyStore s = f.store();
        namespaceOfHeldIds(SnowflakeLayout.SONYFLAKE, 2_047);
        for (long id = 1_008; id < 1_024; id++) { // the last 16 ids of the first read of 1,024
            expire(id);
        }
        StoreLease a = f.lease(s, "A").layout(SnowflakeLayout.SONYFLAKE).maxMachineId(2_047).acquire();
        assertEquals(1_008, a.machineId());
        assertEquals(1, s.reads, "16 free ids are enough to try; ids 1,024..2,047 are not read");
    }

    @Test
    void aLeaseWhoseOwnIdEndsTheFirstReadReadsNoFurtherWhenItIsFreeAmongSixteen() {
        FaultyStore s = f.store();
        namespaceOfHeldIds(SnowflakeLayout.SONYFLAKE, 2_047);
        expire(1_023);
        StoreLease a = f.lease(s, "A").layout(SnowflakeLayout.SONYFLAKE).maxMachineId(2_047).acquire();
        assertEquals(1_023, a.machineId());
        f.clock.advance(TTL + 1); // A paused past its term: its id was taken and given back meanwhile
        LeaseRecord mine = f.memory.records().get(1_023L);
        f.memory.replace(1_023, mine.nonce(), new LeaseRecord("rival", 2, mine.nonce() + 1, T0 + TTL, T0, 700));
        for (long id = 1_008; id < 1_023; id++) {
            expire(id);
        }
        int before = s.reads;
        assertTrue(a.renewNow(), a.state());
        assertEquals(1_023, a.machineId(), "its own id, free again");
        // one read finds the record is not A's any more, one read of ids 0..1,023 finds 16 free, its own among them
        assertEquals(2, s.reads - before);
    }
}
