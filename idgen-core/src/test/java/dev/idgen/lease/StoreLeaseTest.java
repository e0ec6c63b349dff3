package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The life of a lease on the in-memory store, driven by hand ({@code background(false)},
 * {@link StoreLease#renewNow()}) on a clock set by hand: every number below is worked from the
 * timings (ttl 3 s, renewal every 400 ms, margin 300 ms, skew bound 400 ms: fence offset 700 ms,
 * headroom 1.1 s, silence bound 1,533 ms).
 */
class StoreLeaseTest {

    private static final long T0 = 1_800_000_000_000L;
    private static final long OFFSET = 700;
    private static final long SILENCE = 1_533;
    private static final long TTL = 3_000;

    private final LeaseClock clock = new LeaseClock(T0);
    private final InMemoryLeaseStore memory = new InMemoryLeaseStore(clock, "in test");

    private StoreLease.Builder lease(FaultyStore store, String owner) {
        return StoreLease.builder(store).clock(clock).owner(owner).background(false).ttl(Duration.ofMillis(TTL))
                .renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400)).maxMachineId(3);
    }

    private StoreLease.Builder lease(String owner) {
        return lease(new FaultyStore(memory), owner);
    }

    private SnowflakeGenerator ids(MachineIdLease lease, InstantSource c) {
        return SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).clock(c).machineId(lease)
                .onClockBackwards(ClockBackwardsPolicy.refuse()).build();
    }

    private SnowflakeGenerator ids(MachineIdLease lease) {
        return ids(lease, clock);
    }

    private static Set<Long> make(SnowflakeGenerator g, int n) {
        Set<Long> made = new HashSet<>();
        for (int i = 0; i < n; i++) {
            made.add(g.nextLong());
        }
        return made;
    }

    private static long millisOf(SnowflakeGenerator g, long id) {
        return g.decode(id).timestamp().toEpochMilli();
    }

    @Test
    void aClaimOpensAfterItsSecondWriteWithTheFenceAtTheSilenceBound() {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").acquire();
        assertEquals(2, s.replaces, "the claim and the write that confirms it");
        assertEquals(0, a.machineId());
        assertTrue(a.isHeld(), a.state());
        assertEquals(LeaseState.HELD, a.phase());
        // expiries T0 + 3000 twice: min(T0 + 3000 - 700, T0 + 1533)
        assertEquals(Instant.ofEpochMilli(T0 + SILENCE), a.fence());
        assertEquals("held (fence at " + Instant.ofEpochMilli(T0 + SILENCE) + ")", a.state());
        assertEquals(1, a.token());
        assertEquals("A", a.owner());
        assertEquals(0, a.reclaims());
        assertEquals(0, a.losses());
        LeaseRecord r = memory.records().get(0L);
        assertEquals(new LeaseRecord("A", 1, r.nonce(), T0 + TTL, Long.MIN_VALUE, OFFSET), r);
    }

    @Test
    void aClaimWhoseConfirmingWriteIsLostNeverOpens() {
        FaultyStore s = new FaultyStore(memory);
        s.loseWriteNumber = 2;
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> lease(s, "A").acquire());
        assertTrue(e.getMessage().startsWith("Could not claim a machine id in test: java.io.IOException: the write"
                + " was lost"), e.getMessage());
    }

    @Test
    void renewalsMoveTheFenceAndAFenceThatTimePassedIsOneLossCountedOnce() {
        StoreLease a = lease("A").acquire();
        SnowflakeGenerator g = ids(a);
        g.nextLong();
        clock.advance(400);
        assertTrue(a.renewNow());
        assertEquals(Instant.ofEpochMilli(T0 + 400 + SILENCE), a.fence());
        clock.set(T0 + 400 + SILENCE - 1);
        assertTrue(a.isHeld());
        assertEquals(0, millisOf(g, g.nextLong()) - (T0 + 400 + SILENCE - 1), "the last millisecond before the fence");
        clock.advance(1);
        assertThrows(MachineIdLostException.class, g::nextLong, "refused by time: no thread needed");
        assertFalse(a.isHeld());
        assertEquals(1, a.losses());
        assertEquals(1, a.losses(), "counted once");
        assertEquals(LeaseState.FENCED, a.phase());
        assertTrue(a.state().startsWith("fenced: no renewal acknowledged in time: the fence at "), a.state());
    }

    @Test
    void aLeaseWhoseOwnRecordIsStillItsOwnAfterAPauseHoldsAgainWithTwoWritesAndCountsTheReturn() {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").acquire();
        SnowflakeGenerator g = ids(a);
        long before = g.nextLong();
        clock.advance(10_000);
        assertFalse(a.isHeld());
        int writes = s.replaces;
        assertTrue(a.renewNow(), a.state());
        assertEquals(2, s.replaces - writes, "one write opens nothing after a lapse; the second at once");
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
        assertEquals(1, a.losses());
        assertTrue(g.nextLong() > before);
    }

    @Test
    void aPausedHolderWhoseIdWasTakenClaimsAnotherAndCarriesItsGeneratorOnAboveItsIds() {
        StoreLease a = lease("A").maxMachineId(1).acquire();
        SnowflakeGenerator g = ids(a);
        long first = make(g, 100).stream().max(Long::compare).orElseThrow();
        clock.advance(TTL + 1);
        StoreLease b = lease("B").maxMachineId(1).acquire();
        assertEquals(0, b.machineId(), "the expired id");
        Set<Long> bIds = make(ids(b), 100);
        assertThrows(MachineIdLostException.class, g::nextLong);
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId());
        Set<Long> after = make(g, 100);
        assertTrue(after.stream().allMatch(id -> id > first && g.decode(id).machineId() == 1));
        after.retainAll(bIds);
        assertTrue(after.isEmpty());
        assertEquals(1, a.reclaims());
        assertEquals(1, a.losses());
        assertTrue(a.state().startsWith("held"), a.state());
    }

    @Test
    void aHolderThatMustMoveMovesOntoIdZeroAndStampsIt() {
        StoreLease x = lease("X").maxMachineId(1).acquire();
        StoreLease a = lease("A").maxMachineId(1).acquire();
        assertEquals(1, a.machineId());
        SnowflakeGenerator g = ids(a);
        assertEquals(1, g.decode(g.nextLong()).machineId());
        x.close(); // id 0 free
        clock.advance(TTL + 1);
        StoreLease c = lease("C").maxMachineId(1).machineId(1).acquire(); // takes A's expired id
        assertEquals(1, c.machineId());
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
        long id = g.nextLong();
        assertEquals(0, g.decode(id).machineId(), "the generator stamps the new id 0, not its old one");
    }

    @Test
    void aLeaseThatMustKeepItsIdWaitsForItAndStartsAboveItsOtherHolder() {
        StoreLease a = lease("A").maxMachineId(1).reclaimAnyId(false).acquire();
        assertFalse(a.reclaimsAnyId());
        SnowflakeGenerator g = ids(a);
        g.nextLong();
        clock.advance(TTL + 1);
        StoreLease b = lease("B").maxMachineId(1).machineId(0).acquire();
        SnowflakeGenerator gb = ids(b);
        long bLast = make(gb, 10).stream().max(Long::compare).orElseThrow();
        assertFalse(a.renewNow(), "id 1 is free, but A keeps only its own id");
        assertEquals(0, a.machineId());
        assertEquals(LeaseState.FENCED, a.phase());
        clock.advance(5);
        b.close();
        clock.advance(1);
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
        assertTrue(g.nextLong() > bLast, "above every ID of the holder between");
    }

    @Test
    void aLeaseThatFindsItsOwnIdFreeAgainPrefersItToALowerFreeOne() {
        StoreLease x = lease("X").maxMachineId(1).acquire();
        StoreLease a = lease("A").maxMachineId(1).acquire();
        assertEquals(1, a.machineId());
        x.close();
        clock.advance(TTL + 1);
        StoreLease y = lease("Y").maxMachineId(1).machineId(1).acquire();
        clock.advance(10);
        y.close();
        clock.advance(1);
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId(), "its own id, though 0 is free too");
    }

    @Test
    void anExactIdHeldByAnotherIsRefusedNamingItsHolderAndWhenItsClaimEnds() {
        lease("A").machineId(2).acquire();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> lease("B").machineId(2).acquire());
        assertEquals("Machine id 2 in test is held by a live lease of owner 'A' (token 1) until "
                + Instant.ofEpochMilli(T0 + TTL) + " by the store's clock (3000 ms from now): another process runs"
                + " with this id. Give this process an id of its own, or stop that one; if it has stopped already,"
                + " the id is free once its claim has expired", e.getMessage());
    }

    @Test
    void aFullSpaceIsRefusedNamingTheRangeAndHowToWidenIt() {
        lease("A").maxMachineId(0).acquire();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> lease("B").maxMachineId(0).acquire());
        assertEquals("Every machine id 0..0 in test is held by a live lease; free one, or widen the space: raise"
                + " maxMachineId (up to the layout's maxMachineId()) or use a layout with more machine-id bits (e.g."
                + " SnowflakeLayout.SONYFLAKE, 0..65535)", e.getMessage());
    }

    @Test
    void theNamespaceGrowsSixtyFourIdsAtATime() {
        Set<Long> held = new HashSet<>();
        for (int i = 0; i < 70; i++) {
            held.add(lease("L" + i).maxMachineId(130).acquire().machineId());
        }
        assertEquals(70, held.size());
        assertEquals(127, memory.readNamespace().highestId());
        assertEquals(128, memory.records().size());
    }

    @Test
    void aStoreThatMayHaveLostWritesInARestartLetsNoClaimStartBelowRestartPlusTtl() {
        FaultyStore s = new FaultyStore(memory);
        s.restartedAt = T0 - 1_000;
        StoreLease a = lease(s, "A").acquire();
        assertEquals(LeaseState.CLAIMING, a.phase());
        assertFalse(a.isHeld());
        assertEquals("claiming: waiting until " + Instant.ofEpochMilli(T0 + 1_999) + ", above every ID an earlier"
                + " holder of machine id 0 may have made", a.state());
        SnowflakeGenerator g = ids(a);
        assertThrows(MachineIdLostException.class, g::nextLong);
        clock.set(T0 + 1_999);
        assertFalse(a.renewNow(), "the clock is at the floor, not past it");
        clock.set(T0 + 2_000);
        assertTrue(a.renewNow(), a.state());
        assertEquals(T0 + 2_000, millisOf(g, g.nextLong()));
    }

    @Test
    void anEmptiedStoreMakesTheNextClaimWaitOneTtlFromWhenItNoticed() {
        StoreLease a = lease("A").maxMachineId(0).acquire();
        SnowflakeGenerator g = ids(a);
        long aLast = g.nextLong();
        memory.forgetAll();
        clock.advance(100);
        StoreLease b = lease("B").maxMachineId(0).acquire();
        assertEquals(LeaseState.CLAIMING, b.phase(), b.state());
        assertEquals(T0 + 100 + TTL, memory.readNamespace().trustedFromMillis());
        assertEquals(Instant.ofEpochMilli(T0 + 100 + TTL - 1).toString(), b.state().replaceAll(".*until ([^,]+),.*", "$1"));
        assertFalse(a.renewNow(), "A's record is gone: it is not A's any more");
        assertTrue(a.state().startsWith("fenced: Every machine id 0..0 in test is held"), a.state());
        clock.set(T0 + 100 + TTL);
        assertTrue(b.renewNow(), b.state());
        assertTrue(ids(b).nextLong() > aLast);
    }

    @Test
    void aLostRecordIsWrittenAgainAsHeldForOneTtlAndTheClaimerWaitsItOut() {
        StoreLease a = lease("A").maxMachineId(1).acquire();
        SnowflakeGenerator ga = ids(a);
        long aLast = make(ga, 10).stream().max(Long::compare).orElseThrow();
        memory.forget(0);
        StoreLease b = lease("B").maxMachineId(0).acquire();
        assertEquals(0, b.machineId());
        assertEquals(LeaseState.CLAIMING, b.phase(), "waiting out a ttl for the forgotten holder");
        LeaseRecord r = memory.records().get(0L);
        assertEquals("B", r.owner());
        assertEquals(1, r.token(), "the record written again had token 0");
        assertEquals(T0 + TTL - 1, r.markMillis(), "the floor is kept as the record's mark");
        assertTrue(a.renewNow(), "its record is not its own: A claims the free id 1");
        assertEquals(1, a.machineId());
        clock.set(T0 + TTL);
        assertTrue(b.renewNow(), b.state());
        assertTrue(ids(b).nextLong() > aLast);
    }

    @Test
    void aCopyThatSeesARestoreClaimsAnotherIdAndNeverWritesTheOldClaimAgain() {
        FaultyStore mine = new FaultyStore(memory);
        StoreLease a = lease(mine, "A").acquire();
        SnowflakeGenerator g = ids(a);
        Set<Long> aIds = make(g, 10);
        FaultyStore copies = new FaultyStore(memory);
        StoreLease copy = a.copyOfImage(copies);
        SnowflakeGenerator gc = ids(copy);
        copy.afterRestore();
        assertThrows(MachineIdLostException.class, gc::nextLong, "fenced at once");
        clock.advance(1); // the copy's generator starts after the last tick the image had used
        assertTrue(copy.renewNow(), copy.state());
        assertEquals(1, copy.machineId());
        assertEquals(2, copies.replaces, "a claim of id 1 and its confirmation; nothing written to id 0");
        Set<Long> copyIds = make(gc, 10);
        clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        assertEquals(0, a.machineId());
        aIds.addAll(make(g, 10));
        copyIds.retainAll(aIds);
        assertTrue(copyIds.isEmpty());
    }

    @Test
    void ofTwoCopiesWithNoSignalTheFirstToWriteKeepsTheClaimAndTheOtherMoves() {
        StoreLease a = lease("A").acquire();
        StoreLease copy = a.copyOfImage(new FaultyStore(memory));
        SnowflakeGenerator g = ids(a);
        g.nextLong();
        SnowflakeGenerator gc = ids(copy);
        clock.advance(400);
        assertTrue(copy.renewNow(), "the copy writes first: the claim is its");
        assertEquals(0, copy.machineId());
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId(), "the original found a nonce it never wrote");
        assertTrue(a.state().startsWith("held"));
        assertNotEquals(g.decode(g.nextLong()).machineId(), gc.decode(gc.nextLong()).machineId());
    }

    @Test
    void aCopyThatCannotWriteStopsAtTheSilenceBoundOfTheLastWriteItCopied() {
        StoreLease a = lease("A").acquire();
        clock.advance(300);
        assertTrue(a.renewNow());
        FaultyStore cut = new FaultyStore(memory);
        cut.cut = true;
        StoreLease copy = a.copyOfImage(cut);
        SnowflakeGenerator gc = ids(copy);
        clock.set(T0 + 300 + SILENCE - 1);
        assertTrue(copy.renewNow(), "its writes fail, and it goes on up to the fence it copied");
        gc.nextLong();
        clock.advance(1);
        assertThrows(MachineIdLostException.class, gc::nextLong);
    }

    @Test
    void aRenewalWhoseAnswerIsLostIsSettledByReadingTheRecordAtTheNextOne() {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").acquire();
        clock.advance(400);
        s.loseNextAnswer = true;
        assertTrue(a.renewNow(), "the fence stands where the last acknowledged writes put it");
        assertEquals(Instant.ofEpochMilli(T0 + SILENCE), a.fence(), "an unanswered write moves nothing");
        clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        // the write that landed unanswered is not counted: the older expiry is still the claim's T0 + 3000
        assertEquals(Instant.ofEpochMilli(T0 + TTL - OFFSET), a.fence());
        clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        assertEquals(Instant.ofEpochMilli(T0 + 1_200 + SILENCE), a.fence());
        assertEquals(0, a.losses());
        s.loseNextWrite = true;
        clock.advance(400);
        a.renewNow();
        clock.advance(400);
        assertTrue(a.renewNow(), "a write that never landed leaves the record ours");
        assertEquals(0, a.losses());
    }

    @Test
    void aClaimWhoseAnswerIsLostIsTakenUpByTheNextClaim() {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").maxMachineId(1).acquire();
        clock.advance(TTL + 1);
        StoreLease b = lease("B").maxMachineId(1).acquire();
        assertEquals(0, b.machineId());
        s.loseAnswerNumber = s.replaces + 2; // the renewal fails; the claim of id 1 lands, its answer does not
        assertFalse(a.renewNow());
        assertEquals("A", memory.records().get(1L).owner());
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.machineId());
        assertEquals(1, memory.records().get(1L).token(), "no second claim of id 1");
    }

    @Test
    void releaseShutsTheFenceFirstRecordsTheMarkAndFreesTheIdAtOnce() {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").acquire();
        SnowflakeGenerator g = ids(a);
        g.nextLong();
        a.close();
        assertThrows(MachineIdLostException.class, g::nextLong);
        assertFalse(a.isHeld());
        assertEquals(LeaseState.RELEASED, a.phase());
        assertEquals("released", a.state());
        LeaseRecord r = memory.records().get(0L);
        assertEquals(T0 - 1, r.expiresMillis());
        assertEquals(T0, r.markMillis());
        int writes = s.replaces;
        a.close();
        assertEquals(writes, s.replaces, "idempotent");
        assertFalse(a.renewNow());
    }

    @Test
    void aReleaseWithAMarkAheadOfTheStoresClockKeepsTheIdUntilTheNextFloorCoversIt() {
        LeaseClock ahead = new LeaseClock(T0 + 300);
        StoreLease a = StoreLease.builder(new FaultyStore(memory)).clock(ahead).owner("A").background(false)
                .ttl(Duration.ofMillis(TTL)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400)).maxMachineId(0).acquire();
        SnowflakeGenerator g = ids(a, ahead);
        long last = make(g, 10).stream().max(Long::compare).orElseThrow();
        a.close();
        assertEquals(T0 + 300 + OFFSET + 1, memory.records().get(0L).expiresMillis());
        assertThrows(MachineIdLeaseException.class, () -> lease("B").maxMachineId(0).acquire());
        clock.set(T0 + 300 + OFFSET + 2);
        StoreLease b = lease("B").maxMachineId(0).acquire();
        assertTrue(ids(b).nextLong() > last);
    }

    @Test
    void aClockBeyondTheSkewBoundIsRefusedAtTheClaimAndFencesAHeldLeaseUntilItIsBack() {
        FaultyStore s = new FaultyStore(memory);
        s.clockOffset = 401;
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> lease(s, "A").acquire());
        assertEquals("The local clock is 401 ms from the clock in test (measured within 0 ms), beyond maxClockSkew 400"
                + " ms: no claim until it is back within the bound", e.getMessage());
        s.clockOffset = 400;
        StoreLease a = lease(s, "A").acquire();
        assertEquals(Duration.ofMillis(400), a.clockSkew());
        s.clockOffset = -401;
        clock.advance(400);
        assertFalse(a.renewNow());
        assertEquals(1, a.losses());
        assertTrue(a.state().contains("-401 ms from the clock in test"), a.state());
        s.clockOffset = 0;
        clock.advance(400);
        assertTrue(a.renewNow(), a.state());
        assertEquals(1, a.reclaims());
    }

    @Test
    void aNamespaceOfAnotherLayoutIsRefusedNamingBothAndAGeneratorMustHaveTheLeasesLayout() {
        StoreLease a = lease("A").layout(SnowflakeLayout.TWITTER).acquire();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> lease("B").layout(SnowflakeLayout.SONYFLAKE).maxMachineId(3).acquire());
        assertTrue(e.getMessage().contains("[" + SnowflakeLayout.TWITTER.signature() + "]")
                && e.getMessage().contains("[" + SnowflakeLayout.SONYFLAKE.signature() + "]"), e.getMessage());
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> SnowflakeGenerator.builder()
                .layout(SnowflakeLayout.DISCORD).clock(clock).machineId(a).build());
        assertTrue(wrong.getMessage().contains(SnowflakeLayout.DISCORD.signature()), wrong.getMessage());
        ids(a);
        IllegalStateException second = assertThrows(IllegalStateException.class, () -> ids(a));
        assertEquals("The lease on machine id 0 in test already serves another generator; one generator per lease",
                second.getMessage());
    }

    @Test
    void anIdTheGeneratorHasNoRoomForIsGivenBackAndTheLeaseStaysFenced() {
        StoreLease a = lease("A").maxMachineId(1).acquire();
        long[] fence = new long[1];
        a.attach(new MachineIdUser() {
            @Override
            public long highWaterMark() {
                return MachineIdLease.NO_MARK;
            }

            @Override
            public void raiseHighWaterMark(long unixMillis) {
            }

            @Override
            public void fenceFrom(long unixMillis) {
                fence[0] = unixMillis;
            }

            @Override
            public void switchTo(long machineId) {
                if (machineId > 0) {
                    throw new IllegalArgumentException("machine id " + machineId + " is outside 0..0");
                }
            }
        });
        assertEquals(T0 + SILENCE, fence[0]);
        clock.advance(TTL + 1);
        lease("B").maxMachineId(1).machineId(0).acquire();
        assertFalse(a.renewNow());
        assertEquals(Long.MIN_VALUE, fence[0]);
        assertTrue(memory.records().get(1L).expiresMillis() < clock.millis(), "id 1 was given back");
    }

    @Test
    void theLeaseNamesItsIdStoreOwnerAndState() {
        StoreLease a = lease("A").acquire();
        assertEquals("lease on machine id 0 in test by A, token 1, held (fence at " + Instant.ofEpochMilli(T0 + SILENCE)
                + ")", a.toString());
        assertEquals(TTL, a.timings().ttl().toMillis());
    }

    @Test
    @org.junit.jupiter.api.Timeout(30)
    void aRefusedIdAndTheLeasesStateNeverWaitForAStoreCallThatHangs() throws Exception {
        FaultyStore s = new FaultyStore(memory);
        StoreLease a = lease(s, "A").acquire();
        SnowflakeGenerator g = ids(a);
        g.nextLong();
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        s.hangTime = new java.util.concurrent.CountDownLatch[] {entered, release};
        Thread renewal = new Thread(a::renewNow, "renewal");
        renewal.start();
        entered.await(); // the renewal holds the lease's lock, waiting for the store
        clock.advance(SILENCE + 1);
        // if either of these waited for the lock, this thread would never release the renewal
        MachineIdLostException e = assertThrows(MachineIdLostException.class, g::nextLong);
        assertTrue(e.getMessage().contains("fenced: no renewal acknowledged in time"), e.getMessage());
        assertFalse(a.isHeld());
        assertEquals(1, a.losses());
        assertEquals(LeaseState.FENCED, a.phase());
        s.hangTime = null;
        release.countDown();
        renewal.join();
    }

    @Test
    void aRangeFarAboveItsSizeIsClaimedThoughTheNamespaceGrowsBatchAfterBatchToReachIt() {
        StoreLease a = lease("A").minMachineId(512).maxMachineId(513).acquire();
        assertEquals(512, a.machineId());
        assertEquals(513, memory.readNamespace().highestId(), "eight batches of 64 ids and one of 2");
        assertEquals(513, lease("B").minMachineId(512).maxMachineId(513).acquire().machineId());
    }
}
