package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A machine id's whole life on the machine's Redis (issue 22): a lease whose id was taken claims
 * another and carries its generator on; two copies of one process image (same owner, token, nonce)
 * never both keep the id; holders with different fence offsets never overlap; a mark far ahead does
 * not lock the id out. Tight timings (ttl 3 s, renew 0.4 s, margin 0.3 s, skew 0.4 s), renewals
 * driven by the test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLeaseLifeTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;

    private final List<Runnable> cleanup = new ArrayList<>();
    private TestRedis redis;
    private RedisCommands<String, String> sync;

    @BeforeEach
    void connect() {
        redis = TestRedis.shared("life");
        sync = redis.connect().sync();
    }

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
        redis.close();
    }

    private RedisMachineIdLease track(RedisMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    /** The test timings on a connection of its own, under this test's prefix, renewed by the test. */
    private RedisMachineIdLease.Builder builder(String owner) {
        return RedisLeaseBackend.timings(RedisMachineIdLease.builder(redis.connect())).keyPrefix(redis.prefix)
                .owner(owner).background(false);
    }

    /** Acquires once the id space has a free id (an earlier holder's key expired), within 10 s. */
    private RedisMachineIdLease acquireWhenFree(RedisMachineIdLease.Builder b) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return track(b.acquire());
            } catch (MachineIdLeaseException e) {
                if (!e.getMessage().startsWith("Every machine id") || System.nanoTime() - end > 0) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    private static List<Long> make(SnowflakeGenerator ids, int n) {
        List<Long> made = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            made.add(ids.nextLong());
        }
        return made;
    }

    /** Up to {@code n} IDs, stopping at the first refusal. */
    private static List<Long> makeWhileHeld(SnowflakeGenerator ids, int n) {
        List<Long> made = new ArrayList<>(n);
        try {
            for (int i = 0; i < n; i++) {
                made.add(ids.nextLong());
            }
        } catch (MachineIdLostException e) {
            // fenced: what was made so far
        }
        return made;
    }

    private static Set<Long> common(List<Long> a, List<Long> b) {
        Set<Long> s = new HashSet<>(a);
        s.retainAll(new HashSet<>(b));
        return s;
    }

    /** Fails naming how many IDs {@code a} and {@code b} have in common, and the first of them. */
    private static void assertDisjoint(List<Long> a, List<Long> b, String what) {
        Set<Long> c = common(a, b);
        if (!c.isEmpty()) {
            long first = Collections.min(c);
            fail(what + (what.isEmpty() ? "" : ": ") + c.size() + " IDs in common, the first " + LAYOUT.decode(first));
        }
    }

    private static long millisOf(long id) {
        return LAYOUT.decode(id).timestamp().toEpochMilli();
    }

    private static void assertStrictlyIncreasing(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) <= ids.get(i - 1)) {
                fail("ID " + i + " (" + LAYOUT.decode(ids.get(i)) + ") is not above the one before ("
                        + LAYOUT.decode(ids.get(i - 1)) + ")");
            }
        }
    }

    /** Redis's clock, in Unix milliseconds. */
    private long redisNow() {
        List<String> t = sync.time();
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    // ---- 1. recover ------------------------------------------------------------------------------

    @Test
    void aLeaseWhoseIdWasTakenClaimsAnotherAndItsGeneratorCarriesOnUnderIt() {
        RedisMachineIdLease a = track(builder("A").maxMachineId(1).acquire());
        assertEquals(0, a.machineId());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        List<Long> aMade = new ArrayList<>(make(aIds, 1_000));

        // A stops renewing; B, whose space is id 0 alone, gets it once A's key expired
        RedisMachineIdLease b = acquireWhenFree(builder("B").maxMachineId(0));
        assertEquals(0, b.machineId());
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
        List<Long> bMade = make(bIds, 1_000);
        assertThrows(MachineIdLostException.class, aIds::nextLong, "A is past its fence");

        assertTrue(a.renewNow(), "A finds its key taken and claims the free id: " + a);
        assertEquals(1, a.machineId());
        assertEquals(redis.prefix + "{1}", a.key());
        assertEquals(1, a.reclaims());
        assertEquals(1, aIds.machineId(), "the same generator, moved to the new id");
        List<Long> after = make(aIds, 1_000);
        after.forEach(id -> assertEquals(1, LAYOUT.decode(id).machineId()));
        aMade.addAll(after);
        assertStrictlyIncreasing(aMade);
        assertEquals(2_000, new HashSet<>(aMade).size());
        assertDisjoint(aMade, bMade, "");
        assertTrue(b.renewNow(), "B keeps id 0");
        assertTrue(a.renewNow(), "A keeps id 1");
        assertEquals(1, a.reclaims(), "a renewal of the new claim is no re-claim");
    }

    @Test
    void withReclaimAnyIdOffALeaseStaysFencedWhileItsIdIsTakenThenTakesItBackAboveTheOtherHolder() {
        RedisMachineIdLease a = track(builder("A").maxMachineId(1).reclaimAnyId(false).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        List<Long> aMade = new ArrayList<>(make(aIds, 1_000));

        RedisMachineIdLease b = acquireWhenFree(builder("B").maxMachineId(0));
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
        List<Long> bMade = new ArrayList<>(make(bIds, 1_000));
        for (int i = 0; i < 3; i++) {
            assertFalse(a.renewNow(), "id 1 is free, but A waits for its own id 0");
            assertTrue(b.renewNow());
            bMade.addAll(make(bIds, 100));
        }
        assertEquals(0, a.machineId());
        assertEquals(0, a.reclaims());
        assertThrows(MachineIdLostException.class, aIds::nextLong);
        assertEquals(0, sync.exists(redis.prefix + "{1}"), "A took nothing else");

        b.close();
        assertTrue(a.renewNow(), "B let id 0 go: A takes it back: " + a);
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
        List<Long> after = make(aIds, 1_000);
        long bLast = Collections.max(bMade);
        assertTrue(after.get(0) > bLast, "A's first ID after taking its id back is above B's last");
        aMade.addAll(after);
        assertStrictlyIncreasing(aMade);
        assertDisjoint(aMade, bMade, "");
    }

    @Test
    void aFreeIdTheGeneratorHasNoRoomForIsGivenBackAndTheLeaseStaysFenced() {
        SnowflakeLayout twoIds = SnowflakeLayout.custom("two-ids").timestampBits(41).machineBits(1).sequenceBits(21)
                .epoch(LAYOUT.epoch()).tick(Duration.ofMillis(1)).build();
        RedisMachineIdLease a = track(builder("A").maxMachineId(3).acquire());
        track(builder("C").maxMachineId(3).background(true).acquire()); // holds id 1 throughout
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().layout(twoIds).machineId(a).build();
        aIds.nextLong();
        RedisMachineIdLease b = acquireWhenFree(builder("B").maxMachineId(0));
        assertEquals(0, b.machineId());

        for (int i = 0; i < 2; i++) {
            assertFalse(a.renewNow(), "the lowest free id is 2, which a 1-bit machine field cannot hold");
            assertEquals(0, sync.exists(redis.prefix + "{2}"), "the claim of id 2 was given back at once");
            assertEquals(redis.prefix + "{0}", a.key(), "the lease still tries its own id first");
        }
        // (a.machineId() names 2 here: LeaseGuard.claimed records the id before the generator refuses it)
        assertEquals(0, a.reclaims());
        assertThrows(MachineIdLostException.class, aIds::nextLong);
        assertTrue(a.toString().contains("expired or was taken by another holder"), a.toString());
    }

    @Test
    void afterRestoreShutsTheFenceAtOnceAndTheRenewalThreadProvesTheClaimWithoutWaitingForItsSchedule() {
        // renewals every 3 s: a fence open again within 2 s of acquire() came from afterRestore's renewals
        RedisMachineIdLease a = track(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix)
                .owner("A").maxMachineId(0).ttl(Duration.ofSeconds(10)).renewEvery(Duration.ofSeconds(3))
                .safetyMargin(Duration.ofMillis(300)).maxClockSkew(Duration.ofMillis(400)).acquire());
        long acquired = System.nanoTime();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(a).build();
        long before = ids.nextLong();
        a.afterRestore();
        assertEquals(1, a.losses(), "the open fence was shut");
        RedisMachineIdLeaseTest.await("held again", Duration.ofSeconds(2), a::isHeld);
        assertTrue(System.nanoTime() - acquired < TimeUnit.SECONDS.toNanos(3), "before the first scheduled renewal");
        assertTrue(ids.nextLong() > before);
        assertEquals(0, a.machineId());
        assertEquals(0, a.reclaims(), "this copy proved its claim: no new claim");
    }

    // ---- 2. copies of one image ------------------------------------------------------------------

    @Test
    void twoCopiesOfOneImageToldOfTheRestoreShareNoIdAndExactlyOneKeepsTheId() {
        RedisMachineIdLease a = track(builder("image").maxMachineId(1).acquire());
        RedisMachineIdLease c = track(a.copyOfImage(redis.connect()));
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        SnowflakeGenerator cIds = SnowflakeGenerator.builder().machineId(c).build();
        assertEquals(a.owner(), c.owner());
        assertEquals(a.token(), c.token());
        assertEquals(a.fence(), c.fence(), "the copy holds what the image held");

        a.afterRestore(); // both copies are told (a CRaC afterRestore hook)
        c.afterRestore();
        assertThrows(MachineIdLostException.class, aIds::nextLong, "the fence shut at once");
        assertThrows(MachineIdLostException.class, cIds::nextLong, "the fence shut at once");
        List<Long> aMade = new ArrayList<>();
        List<Long> cMade = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            a.renewNow();
            c.renewNow();
            aMade.addAll(makeWhileHeld(aIds, 500));
            cMade.addAll(makeWhileHeld(cIds, 500));
        }
        assertDisjoint(aMade, cMade, "");
        assertEquals(Set.of(0L, 1L), Set.of(a.machineId(), c.machineId()), "one copy keeps id 0, the other claimed 1");
        RedisMachineIdLease loser = a.machineId() == 0 ? c : a;
        assertEquals(0, (loser == a ? c : a).reclaims());
        assertEquals(1, loser.reclaims());
        assertTrue(a.isHeld() && c.isHeld(), a + " / " + c);
        assertTrue(aMade.size() >= 1_000 && cMade.size() >= 1_000, aMade.size() + " / " + cMade.size());
        assertStrictlyIncreasing(aMade);
        assertStrictlyIncreasing(cMade);
    }

    @Test
    void aCopyThatSeesANewProcessIdProvesItsClaimAndTheOtherCopyLearnsFromTheNonce() {
        RedisMachineIdLease a = track(builder("image").maxMachineId(1).acquire());
        RedisMachineIdLease c = track(a.copyOfImage(redis.connect()));
        AtomicLong pid = new AtomicLong(4711);
        c.watchIncarnation(new IncarnationWatch(pid::get, InstantSource.system(), System::nanoTime, 400));
        pid.set(4712); // the restored copy runs under another process id; the original sees no change
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        SnowflakeGenerator cIds = SnowflakeGenerator.builder().machineId(c).build();

        assertFalse(c.renewNow(), "the copy notices the new pid: fenced until two renewals prove its claim");
        assertThrows(MachineIdLostException.class, cIds::nextLong);
        assertTrue(a.renewNow(), "the original finds the nonce rotated by the copy and claims another id");
        assertEquals(1, a.machineId());
        assertTrue(a.toString().contains("held"), a.toString());
        assertTrue(c.renewNow(), "the second renewal of the copy opens its fence");
        assertEquals(0, c.machineId());
        List<Long> aMade = new ArrayList<>();
        List<Long> cMade = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            aMade.addAll(make(aIds, 500));
            cMade.addAll(make(cIds, 500));
            assertTrue(a.renewNow());
            assertTrue(c.renewNow());
        }
        assertDisjoint(aMade, cMade, "");
        assertEquals(1, a.reclaims());
        assertEquals(0, c.reclaims());
        assertEquals(1, c.losses(), "the restore shut the copy's open fence once");
    }

    @Test
    void twoCopiesWithNoSignalShareIdsOnlyUntilTheLosersFirstRenewal() {
        RedisMachineIdLease a = track(builder("image").maxMachineId(1).acquire());
        RedisMachineIdLease c = track(a.copyOfImage(redis.connect()));
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        SnowflakeGenerator cIds = SnowflakeGenerator.builder().machineId(c).build();
        long interval = a.timings().renewEvery().toNanos();

        // both copies run in step, as two clones of one VM would, for one renewal interval
        List<Long> aBefore = new ArrayList<>();
        List<Long> cBefore = new ArrayList<>();
        long start = System.nanoTime();
        while (System.nanoTime() - start < interval) {
            aBefore.add(aIds.nextLong());
            cBefore.add(cIds.nextLong());
        }
        assertTrue(a.renewNow(), "the first copy to renew rotates the nonce and keeps the id");
        assertTrue(c.renewNow(), "the other finds the nonce changed and claims another id: " + c);
        long loserRenewed = System.currentTimeMillis();
        assertEquals(0, a.machineId());
        assertEquals(1, c.machineId());

        List<Long> aAfter = new ArrayList<>();
        List<Long> cAfter = new ArrayList<>();
        start = System.nanoTime();
        while (System.nanoTime() - start < interval) {
            aAfter.add(aIds.nextLong());
            cAfter.add(cIds.nextLong());
        }
        assertTrue(a.renewNow() && c.renewNow());
        List<Long> aAll = new ArrayList<>(aBefore);
        aAll.addAll(aAfter);
        List<Long> cAll = new ArrayList<>(cBefore);
        cAll.addAll(cAfter);
        Set<Long> shared = common(aAll, cAll);
        assertDisjoint(aAfter, cAfter, "after the loser's first renewal the copies share nothing");
        assertDisjoint(aAll, cAfter, "no ID the loser made after its renewal is the winner's");
        long lastShared = shared.stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(millisOf(lastShared) <= loserRenewed, "a shared ID (" + LAYOUT.decode(lastShared) + ") stamped"
                + " after the loser's renewal at " + Instant.ofEpochMilli(loserRenewed));
        assertFalse(shared.isEmpty(), "copies in step with no signal do repeat each other until the renewal");
        System.out.printf("Redis, two copies of one image, no restore signal: %,d of %,d IDs in common, all made"
                + " before the loser's first renewal (renewal interval %d ms); 0 of %,d after%n", shared.size(),
                aBefore.size(), a.timings().renewEvery().toMillis(), aAfter.size());
    }

    // ---- 3. mixed settings -----------------------------------------------------------------------

    @Test
    void aClaimerWithALargerSkewBoundStartsAboveTheFenceOfAHolderWithASmallerOne() {
        // A: skew 100 ms + margin 100 ms = fence offset 200 ms
        RedisMachineIdLease a = track(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix)
                .owner("small").background(false).maxMachineId(0).ttl(Duration.ofMillis(3000))
                .renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(100))
                .maxClockSkew(Duration.ofMillis(100)).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        assertTrue(a.renewNow());
        long aFence = a.fence().toEpochMilli();
        // A makes IDs up to its fence, then stops (it renews no more)
        List<Long> aMade = new ArrayList<>();
        try {
            while (true) {
                aMade.add(aIds.nextLong());
                LockSupport.parkNanos(200_000);
            }
        } catch (MachineIdLostException e) {
            // the fence
        }
        long aLast = Collections.max(aMade);
        assertTrue(millisOf(aLast) < aFence);

        // B: skew 900 ms + margin 100 ms = fence offset 1000 ms, its clock 700 ms behind Redis's
        RequestedOffsetClock bClock = new RequestedOffsetClock(-700);
        RedisMachineIdLease b = acquireWhenFree(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix)
                .owner("large").background(false).maxMachineId(0).ttl(Duration.ofMillis(3000))
                .renewEvery(Duration.ofMillis(300)).safetyMargin(Duration.ofMillis(100))
                .maxClockSkew(Duration.ofMillis(900)).clock(bClock));
        assertTrue(b.highWaterMark() >= aFence - 1, "the claim raised the mark by A's offset, the smaller: mark "
                + b.highWaterMark() + ", A's fence " + aFence);
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).clock(bClock)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(2))).build();
        List<Long> bMade = make(bIds, 5_000);
        long bFirst = bMade.get(0);
        assertTrue(millisOf(bFirst) >= aFence, "B's first ID (" + LAYOUT.decode(bFirst) + ") is at or above A's fence "
                + Instant.ofEpochMilli(aFence));
        assertTrue(bFirst > aLast);
        assertDisjoint(aMade, bMade, "");
        assertEquals("1000", sync.hget(redis.prefix + "{0}:mark", "o"), "the record carries B's offset now");
    }

    /** Real time plus a fixed offset. */
    private static final class RequestedOffsetClock implements InstantSource {
        private final long offset;

        RequestedOffsetClock(long offset) {
            this.offset = offset;
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + offset;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    // ---- 4. marks --------------------------------------------------------------------------------

    @Test
    void aMarkADayAheadIsNotBelievedTheNewHolderMakesIdsAtOnceAndTheRecordHeals() {
        String markKey = redis.prefix + "{0}:mark";
        long day = TimeUnit.DAYS.toMillis(1);
        sync.hset(markKey, "m", Long.toString(redisNow() + day)); // written by a clock a day ahead
        long before = redisNow();
        RedisMachineIdLease b = track(builder("B").maxMachineId(0).acquire());
        long skew = b.timings().maxClockSkew().toMillis();
        assertTrue(b.highWaterMark() <= redisNow() + skew, "mark " + b.highWaterMark());
        assertTrue(b.highWaterMark() >= before + skew, "the record's mark is believed up to Redis's now + skew");
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(b)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(skew + 100))).build();
        long asked = System.nanoTime();
        long first = ids.nextLong();
        long waited = (System.nanoTime() - asked) / 1_000_000;
        assertTrue(millisOf(first) > b.highWaterMark() - 1 && millisOf(first) < before + day / 2, LAYOUT.decode(first)
                .toString());
        assertTrue(waited <= skew + 100, "waited " + waited + " ms, not a day");
        assertTrue(b.renewNow());
        long recorded = Long.parseLong(sync.hget(markKey, "m"));
        assertTrue(recorded <= redisNow() + skew, "the record healed: " + recorded);
    }

    @Test
    void aRunAheadMarkIsRecordedNoFurtherThanRedisTimePlusTheSkewYetTheNextHolderStartsAboveIt() {
        // 2 IDs a millisecond and a run-ahead of 5 s: a tight loop pushes the mark up to the fence
        SnowflakeLayout tiny = SnowflakeLayout.custom("tiny").epoch(LAYOUT.epoch()).tick(Duration.ofMillis(1))
                .timestampBits(52).machineBits(10).sequenceBits(1)
                .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();
        Supplier<SnowflakeGenerator.Builder> gen = () -> SnowflakeGenerator.builder().layout(tiny)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(5)));
        RedisMachineIdLease a = track(builder("A").maxMachineId(0).acquire());
        SnowflakeGenerator aIds = gen.get().machineId(a).build();
        long aLast = 0;
        for (int i = 0; i < 20_000; i++) {
            try {
                aLast = aIds.nextLong();
            } catch (MachineIdLostException e) {
                break; // at the fence
            }
        }
        long skew = a.timings().maxClockSkew().toMillis();
        long aMark = aIds.highWaterMark();
        assertTrue(aMark > System.currentTimeMillis() + skew + 500, "ran ahead: mark " + aMark);
        assertTrue(a.renewNow());
        long recorded = Long.parseLong(sync.hget(redis.prefix + "{0}:mark", "m"));
        assertTrue(recorded <= redisNow() + skew, "recorded " + recorded + ", the generator's " + aMark);
        assertTrue(recorded < aMark);

        a.close();
        RedisMachineIdLease b = track(builder("B").maxMachineId(0).acquire());
        assertTrue(b.highWaterMark() >= aMark, "the release left a floor above every ID A made: " + b.highWaterMark()
                + " vs " + aMark);
        SnowflakeGenerator bIds = gen.get().machineId(b).build();
        long bFirst = bIds.nextLong();
        assertTrue(bFirst > aLast, tiny.decode(bFirst) + " after " + tiny.decode(aLast));
    }
}
