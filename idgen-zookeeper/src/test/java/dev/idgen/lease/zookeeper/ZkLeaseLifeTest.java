package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.testkit.lease.BlackholeProxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A machine id's whole life on a ZooKeeper lease (issue 22): a fenced holder whose id was taken
 * claims another and carries its generator on; two copies of one process image, with and without a
 * restore signal; holders with different skew bounds on one id; a mark a day ahead in the record.
 * Real in-process server, tight timings (session 3 s, contacts every 400 ms), bounded waits. Paths
 * are this class's own ({@code /life-...}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZkLeaseLifeTest {

    private static final int SESSION_MS = 3000;
    private static final Duration TICK = Duration.ofMillis(200);

    private TestingServer server;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
    }

    @AfterEach
    void stopAll() throws Exception {
        Collections.reverse(cleanup);
        for (AutoCloseable c : cleanup) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
        server.close();
    }

    private CuratorFramework client(String connect) throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(connect).sessionTimeoutMs(SESSION_MS)
                .connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS), "client connects");
        cleanup.add(c);
        return c;
    }

    /** The brief's tight timings: ttl 3 s, contacts every 400 ms, margin 300 ms, skew 400 ms; caller renews. */
    private static ZkMachineIdLease.Builder tight(CuratorFramework c, String path, long maxMachineId) {
        return ZkMachineIdLease.builder(c).path(path).maxMachineId(maxMachineId).serverTickTime(TICK)
                .ttl(Duration.ofMillis(SESSION_MS)).renewEvery(Duration.ofMillis(400))
                .safetyMargin(Duration.ofMillis(300)).maxClockSkew(Duration.ofMillis(400)).background(false)
                .retryEvery(Duration.ofMillis(100));
    }

    private <T extends AutoCloseable> T track(T closeable) {
        cleanup.add(closeable);
        return closeable;
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            Thread.sleep(50);
        }
    }

    /** Takes the id of {@code path} once it is free (A's session expired), with at most id 0. */
    private ZkMachineIdLease takeOver(ZkMachineIdLease.Builder builder) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            try {
                return track(builder.acquire());
            } catch (MachineIdLeaseException e) {
                if (System.nanoTime() > end) {
                    fail("the id was never freed: " + e.getMessage());
                }
                Thread.sleep(50);
            }
        }
    }

    /** Makes up to {@code n} IDs into {@code into}; returns how many were refused. */
    private static int make(SnowflakeGenerator ids, int n, Collection<Long> into) {
        int refused = 0;
        for (int i = 0; i < n; i++) {
            try {
                into.add(ids.nextLong());
            } catch (MachineIdLostException e) {
                refused++;
            }
        }
        return refused;
    }

    private static void assertRising(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            assertTrue(ids.get(i) > ids.get(i - 1), "ID " + i + " " + ids.get(i) + " not above " + ids.get(i - 1));
        }
    }

    private static Set<Long> common(Collection<Long> a, Collection<Long> b) {
        Set<Long> both = new HashSet<>(a);
        both.retainAll(new HashSet<>(b));
        return both;
    }

    private static long machineIdOf(SnowflakeGenerator ids, long id) {
        return ids.layout().decode(id).machineId();
    }

    // ---- 1. Recover ------------------------------------------------------------------------------------

    @Test
    void aHolderWhoseIdWasTakenClaimsTheLowestFreeIdAndItsGeneratorCarriesOn() throws Exception {
        BlackholeProxy proxy = track(new BlackholeProxy(server.getPort()));
        ZkMachineIdLease a = track(tight(client("127.0.0.1:" + proxy.port()), "/life-recover", 3).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        List<Long> aList = new ArrayList<>();
        assertEquals(0, make(aIds, 1000, aList));
        assertEquals(0, a.machineId());

        proxy.partition(true); // A stops renewing and its session expires
        CuratorFramework bClient = client(server.getConnectString());
        ZkMachineIdLease b = takeOver(tight(bClient, "/life-recover", 0));
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
        List<Long> bList = new ArrayList<>();
        assertEquals(0, make(bIds, 2000, bList));
        assertEquals(0, b.machineId());
        assertTrue(make(aIds, 10, aList) == 10, "A is fenced while partitioned");

        proxy.partition(false);
        await("A holds an id again", Duration.ofSeconds(20), a::renewNow);
        assertEquals(1, a.machineId(), "own id 0 is B's: the lowest free one");
        assertEquals(1, a.reclaims());
        int before = aList.size();
        assertEquals(0, make(aIds, 1000, aList), "the same generator, no rebuild");
        assertEquals(1, machineIdOf(aIds, aList.get(aList.size() - 1)));
        assertEquals(0, machineIdOf(aIds, aList.get(before - 1)));
        assertRising(aList);
        assertEquals(Set.of(), common(aList, bList));
        assertEquals(aList.size(), new HashSet<>(aList).size());
        assertTrue(b.renewNow(), "B keeps its id");
    }

    @Test
    void withReclaimAnyIdOffAHolderStaysFencedWhileItsIdIsHeldThenTakesItBack() throws Exception {
        BlackholeProxy proxy = track(new BlackholeProxy(server.getPort()));
        ZkMachineIdLease a = track(tight(client("127.0.0.1:" + proxy.port()), "/life-own-only", 3)
                .reclaimAnyId(false).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        List<Long> aList = new ArrayList<>();
        assertEquals(0, make(aIds, 1000, aList));

        proxy.partition(true);
        ZkMachineIdLease b = takeOver(tight(client(server.getConnectString()), "/life-own-only", 0));
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
        List<Long> bList = new ArrayList<>();
        assertEquals(0, make(bIds, 2000, bList));
        proxy.partition(false);
        await("A learns that its id is held", Duration.ofSeconds(20),
                () -> a.toString().contains("reclaimAnyId is off"));
        for (int i = 0; i < 5; i++) {
            assertFalse(a.renewNow(), a.toString());
            Thread.sleep(100);
        }
        assertEquals(0, a.machineId());
        assertEquals(10, make(aIds, 10, aList), "A refuses while B holds its id");

        b.close(); // records B's mark and frees id 0
        await("A takes id 0 back", Duration.ofSeconds(10), a::renewNow);
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
        assertEquals(0, make(aIds, 1000, aList));
        assertRising(aList);
        assertEquals(Set.of(), common(aList, bList));
    }

    // ---- 2. Restore: two copies of one image -------------------------------------------------------------

    @Test
    void twoCopiesOfOneImageAfterARestoreSignalShareNoIdAndOneKeepsTheId() throws Exception {
        CuratorFramework c = client(server.getConnectString());
        ZkMachineIdLease one = track(tight(c, "/life-restored", 3).acquire());
        SnowflakeGenerator oneIds = SnowflakeGenerator.builder().machineId(one).build();
        List<Long> oneList = new ArrayList<>();
        assertEquals(0, make(oneIds, 500, oneList));

        ZkMachineIdLease two = track(one.copyOfImage());
        SnowflakeGenerator twoIds = SnowflakeGenerator.builder().machineId(two).build();
        List<Long> twoList = new ArrayList<>();
        // the signals: one copy told by a restore hook, the other sees a new process id
        AtomicLong pid = new AtomicLong(4711);
        two.watchIncarnation(new IncarnationWatch(pid::get, InstantSource.system(), System::nanoTime, 400));
        pid.set(4712);
        one.afterRestore();
        int refusedAfterSignal = make(oneIds, 200, oneList);
        for (int round = 0; round < 6; round++) {
            two.renewNow();
            one.renewNow();
            make(oneIds, 500, oneList);
            make(twoIds, 500, twoList);
            Thread.sleep(150);
        }
        await("both copies hold an id", Duration.ofSeconds(10), () -> one.renewNow() & two.renewNow());
        make(oneIds, 500, oneList);
        make(twoIds, 500, twoList);

        assertEquals(Set.of(), common(oneList, twoList));
        assertTrue(one.machineId() == 0 ^ two.machineId() == 0, "exactly one copy keeps id 0: " + one.machineId()
                + ", " + two.machineId());
        ZkMachineIdLease moved = one.machineId() == 0 ? two : one;
        assertEquals(1, moved.machineId(), "the other claims as a new holder: the lowest free id");
        assertEquals(1, moved.reclaims());
        assertTrue(twoList.size() >= 500 && oneList.size() >= 1000, oneList.size() + " / " + twoList.size());
        System.out.printf("Two copies after a restore signal: %d and %d IDs, 0 in common; id 0 kept by copy %s,"
                + " the other moved to %d; %d of 200 refused right after the signal%n", oneList.size(),
                twoList.size(), one.machineId() == 0 ? "one" : "two", moved.machineId(), refusedAfterSignal);
    }

    @Test
    void twoCopiesWithNoSignalShareIdsOnlyUntilTheLosersFirstRenewal() throws Exception {
        CuratorFramework c = client(server.getConnectString());
        ZkMachineIdLease one = track(tight(c, "/life-cloned", 3).acquire());
        SnowflakeGenerator oneIds = SnowflakeGenerator.builder().machineId(one).build();
        List<Long> oneBefore = new ArrayList<>();
        make(oneIds, 500, oneBefore);
        ZkMachineIdLease two = track(one.copyOfImage());
        SnowflakeGenerator twoIds = SnowflakeGenerator.builder().machineId(two).build();
        List<Long> twoBefore = new ArrayList<>();
        // no signal: both copies issue on id 0 until one renews and the other tries to
        for (int round = 0; round < 4; round++) {
            make(oneIds, 500, oneBefore);
            make(twoIds, 500, twoBefore);
        }
        assertTrue(one.renewNow(), "the first copy to renew rotates the nonce and keeps the id");
        make(oneIds, 500, oneBefore);
        make(twoIds, 500, twoBefore);
        assertFalse(two.renewNow(), "the copy that renews second finds another nonce and is fenced");
        int sharedBefore = common(oneBefore, twoBefore).size();

        List<Long> oneAfter = new ArrayList<>();
        List<Long> twoAfter = new ArrayList<>();
        int refused = make(twoIds, 500, twoAfter);
        for (long id : twoAfter) { // refused at once; only once its new claim opens, IDs of another id
            assertNotEquals(0, machineIdOf(twoIds, id), "the loser issued on the shared id after its renewal");
        }
        await("the loser holds another id", Duration.ofSeconds(10), two::renewNow);
        for (int round = 0; round < 4; round++) {
            one.renewNow();
            two.renewNow();
            make(oneIds, 500, oneAfter);
            make(twoIds, 500, twoAfter);
            Thread.sleep(100);
        }
        assertEquals(0, one.machineId());
        assertEquals(1, two.machineId());
        assertEquals(Set.of(), common(oneAfter, twoBefore));
        assertEquals(Set.of(), common(twoAfter, oneBefore));
        assertEquals(Set.of(), common(oneAfter, twoAfter));
        assertTrue(oneAfter.size() >= 1500 && twoAfter.size() >= 1500, oneAfter.size() + " / " + twoAfter.size());
        System.out.printf("Two copies, no signal: %d of %d / %d IDs in common before the loser's first renewal"
                + " (at most one renewal interval of IDs), 0 after; %d of 500 refused right after%n", sharedBefore,
                oneBefore.size(), twoBefore.size(), refused);
    }

    // ---- 3. Mixed settings ---------------------------------------------------------------------------------

    /** A wall clock the test sets apart from real time. */
    private static final class OffsetClock implements InstantSource {
        final long offset;

        OffsetClock(long offset) {
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

    @Test
    void aClaimerWithALargerSkewBoundStartsAboveTheFenceOfAHolderWithASmallerOne() throws Exception {
        // a server with a 400 ms tick grants sessions up to 8 s: room for B's 3 s skew bound
        TestingServer wide = track(new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 400, -1), true));
        Duration tick = Duration.ofMillis(400);
        BlackholeProxy proxy = track(new BlackholeProxy(wide.getPort()));
        // A: session 3 s, skew 600 ms + margin 50 ms, so its fence stands 650 ms before its expiry
        ZkMachineIdLease a = track(ZkMachineIdLease.builder(client("127.0.0.1:" + proxy.port())).path("/life-mixed")
                .maxMachineId(0).serverTickTime(tick).renewEvery(Duration.ofMillis(300))
                .safetyMargin(Duration.ofMillis(50)).maxClockSkew(Duration.ofMillis(600)).background(false)
                .acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        AtomicLong aMax = new AtomicLong(Long.MIN_VALUE);
        AtomicLong aCount = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread aThread = new Thread(() -> {
            while (!stop.get()) {
                try {
                    aMax.accumulateAndGet(aIds.nextLong(), Math::max);
                    if ((aCount.incrementAndGet() & 255) == 0) {
                        LockSupport.parkNanos(200_000); // leave the lease's calls some CPU on a busy machine
                    }
                } catch (IllegalStateException e) { // refused at the fence, or a clock behind the mark
                    Thread.yield();
                }
            }
        }, "life-mixed-a");
        aThread.setDaemon(true);
        aThread.start();
        try {
            Thread.sleep(100);
            assertTrue(a.renewNow(), a.toString());
            Thread.sleep(300);
            assertTrue(a.renewNow(), a.toString());
            proxy.partition(true); // A issues up to its fence, then its session expires
            long aFence = a.fence().toEpochMilli();

            // B: session 8 s, skew 3 s, its clock 2.9 s behind (within its bound). With its own bound
            // alone B would start 3 s before its claim, far below A's fence
            InstantSource bClock = new OffsetClock(-2900);
            CuratorFramework bClient = CuratorFrameworkFactory.builder().connectString(wide.getConnectString())
                    .sessionTimeoutMs(8000).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
            bClient.start();
            cleanup.add(bClient);
            assertTrue(bClient.blockUntilConnected(10, TimeUnit.SECONDS));
            ZkMachineIdLease b = takeOver(ZkMachineIdLease.builder(bClient)
                    .path("/life-mixed").maxMachineId(0).serverTickTime(tick).renewEvery(Duration.ofMillis(400))
                    .safetyMargin(Duration.ofMillis(100)).maxClockSkew(Duration.ofSeconds(3)).clock(bClock)
                    .background(false));
            SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).clock(bClock)
                    .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(4))).build();
            long bMin = Long.MAX_VALUE;
            for (int i = 0; i < 2000; i++) {
                bMin = Math.min(bMin, bIds.nextLong());
            }
            stop.set(true);
            aThread.join(10_000);
            long bFirstMillis = bIds.layout().decode(bMin).timestamp().toEpochMilli();
            assertTrue(aCount.get() > 0);
            assertTrue(bFirstMillis >= aFence, "B's first ID at " + bFirstMillis + " is below A's fence " + aFence);
            assertTrue(bMin > aMax.get(), "B re-issued IDs of A");
            System.out.printf("Mixed settings (A offset 650 ms, B skew 3000 ms and 2900 ms behind): A %d IDs, B's"
                    + " first %d ms above A's fence%n", aCount.get(), bFirstMillis - aFence);
        } finally {
            stop.set(true);
            aThread.join(10_000);
        }
    }

    // ---- 4. Marks --------------------------------------------------------------------------------------------

    @Test
    void aMarkADayAheadInTheRecordNeitherLocksTheIdOutNorSurvivesARenewal() throws Exception {
        CuratorFramework c = client(server.getConnectString());
        long dayAhead = System.currentTimeMillis() + 86_400_000L;
        c.create().creatingParentsIfNeeded().forPath("/life-poisoned/marks/0",
                ("mark=" + dayAhead + "\n").getBytes(StandardCharsets.US_ASCII));

        ZkMachineIdLease lease = track(tight(c, "/life-poisoned", 0).acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(1))).build();
        long asked = System.currentTimeMillis();
        long first = ids.nextLong();
        long firstMillis = ids.layout().decode(first).timestamp().toEpochMilli();
        assertTrue(firstMillis < asked + 1000, "first ID " + (firstMillis - asked) + " ms ahead");
        assertTrue(lease.renewNow(), lease.toString());

        Stat stat = new Stat();
        ZkLeaseProtocol.MarkRecord recorded = ZkLeaseProtocol.MarkRecord.parse(
                c.getData().storingStatIn(stat).forPath("/life-poisoned/marks/0"));
        assertTrue(recorded.mark() <= stat.getMtime() + 400, "recorded mark " + (recorded.mark() - stat.getMtime())
                + " ms past the server's clock, bound 400 ms");
        assertTrue(recorded.mark() >= firstMillis, "the record still covers the IDs made");
        assertEquals(700, recorded.offset(), "the claimer's fence offset: 400 + 300");
        assertEquals(400, recorded.skew());
    }

    @Test
    void theStartOfAClaimTakesTheSmallerSkewBoundAndCapsTheRecordedMark() {
        ZkLeaseProtocol.MarkRecord none = new ZkLeaseProtocol.MarkRecord(MachineIdLease.NO_MARK,
                ZkLeaseProtocol.NO_OFFSET, ZkLeaseProtocol.NO_OFFSET);
        assertEquals(8_999, ZkLeaseProtocol.claimMark(10_000, 1_000, none), "no record: own skew, as before");
        ZkLeaseProtocol.MarkRecord small = new ZkLeaseProtocol.MarkRecord(MachineIdLease.NO_MARK, 150, 100);
        assertEquals(9_899, ZkLeaseProtocol.claimMark(10_000, 1_000, small), "the earlier holder's smaller bound");
        ZkLeaseProtocol.MarkRecord poisoned = new ZkLeaseProtocol.MarkRecord(10_000 + 86_400_000L, 150, 100);
        assertEquals(11_000, ZkLeaseProtocol.claimMark(10_000, 1_000, poisoned), "capped at server time + 1 s");
        ZkLeaseProtocol.MarkRecord wider = new ZkLeaseProtocol.MarkRecord(12_500, 2_600, 2_500);
        assertEquals(12_500, ZkLeaseProtocol.claimMark(10_000, 1_000, wider),
                "a holder with a wider bound keeps its mark");
        ZkLeaseProtocol.MarkRecord legacy = ZkLeaseProtocol.MarkRecord.parse("9800".getBytes(StandardCharsets.US_ASCII));
        assertEquals(new ZkLeaseProtocol.MarkRecord(9_800, ZkLeaseProtocol.NO_OFFSET, ZkLeaseProtocol.NO_OFFSET),
                legacy);
        assertEquals(9_800, ZkLeaseProtocol.claimMark(10_000, 400, legacy), "above the floor 9 599");
        assertEquals(9_599, ZkLeaseProtocol.claimMark(10_000, 400, ZkLeaseProtocol.MarkRecord.parse(
                "9500".getBytes(StandardCharsets.US_ASCII))), "the floor above a lower mark");
        assertNotEquals(ZkLeaseProtocol.newNonce(), ZkLeaseProtocol.newNonce());
    }
}
