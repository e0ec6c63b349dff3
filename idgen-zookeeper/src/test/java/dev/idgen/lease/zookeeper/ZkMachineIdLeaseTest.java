package dev.idgen.lease.zookeeper;

import dev.idgen.testkit.lease.BlackholeProxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leases against a real, in-process ZooKeeper server (Curator's {@code TestingServer}): exclusive
 * claims, churn, fencing on server loss and session expiry, the high-water mark and the skew bound.
 * Waits on the server poll with bounded deadlines.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkMachineIdLeaseTest {

    private static final int SESSION_MS = 3000;
    /** The test servers' tickTime, which the leases are told. */
    private static final Duration TICK = Duration.ofMillis(200);

    private TestingServer server;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        // 200 ms ticks: the server accepts sessions of 0.4 to 4 s
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

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS), "client connects");
        cleanup.add(c);
        return c;
    }

    private <T extends AutoCloseable> T track(T closeable) {
        cleanup.add(closeable);
        return closeable;
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** A wall clock the test can set apart from real time. */
    private static final class TestClock implements InstantSource {
        final AtomicLong offset = new AtomicLong();
        final AtomicLong fixed = new AtomicLong(Long.MIN_VALUE);

        @Override
        public long millis() {
            long f = fixed.get();
            return f != Long.MIN_VALUE ? f : System.currentTimeMillis() + offset.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    @Test
    void twoClientsNeverHoldOneIdFreedIdsAreReusedAndAFullRangeIsAClearError() throws Exception {
        List<ZkMachineIdLease> leases = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            leases.add(track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/ids").maxMachineId(2).owner("p" + i).acquire()));
        }
        assertEquals(List.of(0L, 1L, 2L), leases.stream().map(ZkMachineIdLease::machineId).toList());
        CuratorFramework late = client();
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class,
                () -> ZkMachineIdLease.builder(late).serverTickTime(TICK).path("/ids").maxMachineId(2).acquire());
        assertEquals("Every machine id 0..2 under /ids/leases is held by a live session; free one, or widen the space:"
                + " raise maxMachineId (up to the layout's maxMachineId()) or use a layout with more machine-id bits"
                + " (e.g. SnowflakeLayout.SONYFLAKE, 0..65535)", full.getMessage());

        String node = new String(late.getData().forPath("/ids/leases/1"), StandardCharsets.UTF_8);
        assertTrue(node.startsWith("owner=p1\nstarted="), node);

        leases.get(1).close();
        assertFalse(leases.get(1).isHeld());
        ZkMachineIdLease again = track(ZkMachineIdLease.builder(late).serverTickTime(TICK).path("/ids").maxMachineId(2).acquire());
        assertEquals(1, again.machineId(), "the freed id is the lowest free one");
    }

    /** Leases on ids 0..n-1 under {@code path}, each on a client of its own. */
    private List<ZkMachineIdLease> holders(String path, int n) throws Exception {
        List<ZkMachineIdLease> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path(path).maxMachineId(n - 1)
                    .acquire()));
            assertEquals(i, held.get(i).machineId());
        }
        return held;
    }

    /** A rival on a client of its own takes the lowest free id under {@code path}. */
    private ZkMachineIdLease rival(String path, long maxMachineId) {
        try {
            return track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path(path).maxMachineId(maxMachineId)
                    .acquire());
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aClientThatLosesEveryRaceForTenRoundsStillGetsTheEleventhFreedId() throws Exception {
        // ids 1..11 held, 0 free. Each time the claimer is about to create the node of the id it found
        // free, a rival takes that id and the holder of the next one leaves: ten lost rounds, then the
        // eleventh freed id is the claimer's. The first version gave up after eight rounds, saying the
        // space was full.
        List<ZkMachineIdLease> holders = holders("/race", 12);
        holders.get(0).close();
        List<Long> rivals = new ArrayList<>();
        ZkMachineIdLease claimer = track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/race")
                .maxMachineId(11).beforeClaim(id -> {
                    if (rivals.size() < 10) {
                        rivals.add(rival("/race", 11).machineId());
                        holders.get((int) id + 1).close();
                    }
                }).acquire());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), rivals, "each rival took the id just freed");
        assertEquals(10, claimer.machineId());
        assertTrue(claimer.isHeld());
    }

    @Test
    void aClientStillLosingWhenEveryIdCouldHaveChangedHandsGivesUpNamingTheRace() throws Exception {
        // ids 0..1, the bound is three rounds (the space plus one); 1 held, 0 free. Before each claim a
        // rival takes the id and the holder of the other leaves, so every scan finds one id free.
        List<ZkMachineIdLease> held = holders("/endless", 2);
        held.get(0).close();
        int[] claims = new int[1];
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/endless").maxMachineId(1)
                        .beforeClaim(id -> {
                            claims[0]++;
                            ZkMachineIdLease r = rival("/endless", 1);
                            assertEquals(id, r.machineId());
                            held.get(1 - (int) id).close();
                            held.set((int) id, r);
                        }).acquire());
        assertEquals(3, claims[0]);
        assertEquals("Lost the race for the free machine ids 0..1 under /endless/leases 3 times over, each to another"
                + " client; ids are freed as fast as others take them, try again", e.getMessage());
    }

    @Test
    void manyClientsChurningNeverCollide() throws Exception {
        int threads = 6;
        int rounds = 15;
        List<CuratorFramework> clients = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            clients.add(client());
        }
        ConcurrentMap<Long, String> holders = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger claims = new AtomicInteger();
        AtomicInteger full = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            CuratorFramework c = clients.get(t);
            String name = "churn-" + t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        ZkMachineIdLease lease;
                        try {
                            lease = ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/churn").maxMachineId(3).owner(name).acquire();
                        } catch (MachineIdLeaseException e) {
                            full.incrementAndGet();
                            continue;
                        }
                        claims.incrementAndGet();
                        String other = holders.putIfAbsent(lease.machineId(), name);
                        if (other != null) {
                            failures.add(name + " and " + other + " both hold machine id " + lease.machineId());
                        }
                        if (!lease.renewNow()) {
                            failures.add(name + " does not hold its fresh lease " + lease);
                        }
                        holders.remove(lease.machineId(), name);
                        lease.close();
                    }
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(name + ": " + e);
                }
            }, name);
            workers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(threads * rounds, claims.get() + full.get());
        assertTrue(claims.get() >= 4, "claims: " + claims.get());
        System.out.printf("ZooKeeper churn: %d claims, %d refusals (all four ids held) from %d clients%n",
                claims.get(), full.get(), threads);
    }

    @Test
    void serverStoppedRefusesWithinTheSessionTimeoutAndResumesWhenBack() throws Exception {
        ZkMachineIdLease lease = track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/outage").acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long last = ids.nextLong();

        server.stop();
        long stopped = System.nanoTime();
        await("fenced after the server stopped", Duration.ofMillis(SESSION_MS * 2L), () -> !lease.isHeld());
        long fencedAfter = (System.nanoTime() - stopped) / 1_000_000;
        MachineIdLostException lost = assertThrows(MachineIdLostException.class, ids::nextLong);
        assertTrue(lost.getMessage().contains("ZooKeeper connection"), lost.getMessage());
        assertTrue(fencedAfter < SESSION_MS, "fenced after " + fencedAfter + " ms, not within the session timeout");

        server.restart();
        long restarted = System.nanoTime();
        await("held again once the server is back", Duration.ofSeconds(20), lease::isHeld);
        long next = ids.nextLong();
        long resumedAfter = (System.nanoTime() - restarted) / 1_000_000;
        assertTrue(next > last);
        System.out.printf("ZooKeeper server stopped -> refusing after %d ms (session %d ms);"
                + " restarted -> first new ID after %d ms%n", fencedAfter, SESSION_MS, resumedAfter);
    }

    @Test
    void aPartitionedHolderIsFencedBeforeAnotherClientCanTakeItsId() throws Exception {
        BlackholeProxy proxy = track(new BlackholeProxy(server.getPort()));
        CuratorFramework a = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + proxy.port())
                .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        a.start();
        cleanup.add(a);
        assertTrue(a.blockUntilConnected(10, TimeUnit.SECONDS));
        ZkMachineIdLease held = track(ZkMachineIdLease.builder(a).serverTickTime(TICK).path("/partition").maxMachineId(0).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(held).build();
        aIds.nextLong();
        CuratorFramework b = client();

        proxy.partition(true); // silence both ways; the server hears nothing more from A
        long cut = System.nanoTime();
        long[] fencedAfter = {-1};
        ZkMachineIdLease[] taken = new ZkMachineIdLease[1];
        await("B takes the id once A's session has expired", Duration.ofSeconds(20), () -> {
            if (fencedAfter[0] < 0 && !held.isHeld()) {
                fencedAfter[0] = (System.nanoTime() - cut) / 1_000_000;
            }
            try {
                taken[0] = ZkMachineIdLease.builder(b).serverTickTime(TICK).path("/partition").maxMachineId(0).acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                return false;
            }
        });
        long takenAfter = (System.nanoTime() - cut) / 1_000_000;
        track(taken[0]);
        assertFalse(held.isHeld(), "A still held its id when B was given it");
        assertTrue(fencedAfter[0] >= 0 && fencedAfter[0] < takenAfter, "A fenced at " + fencedAfter[0]
                + " ms, B took the id at " + takenAfter + " ms");
        assertThrows(MachineIdLostException.class, aIds::nextLong);

        proxy.partition(false);
        await("A learns that its id is someone else's", Duration.ofSeconds(20),
                () -> held.toString().contains("held by another session"));
        assertFalse(held.isHeld());
        System.out.printf("ZooKeeper partition (silent network) -> A refusing after %d ms; B given the id after"
                + " %d ms (session %d ms)%n", fencedAfter[0], takenAfter, SESSION_MS);
    }

    @Test
    void anExpiredSessionLosesTheLeaseAndReacquiresItWithoutRepeatingAnId() throws Exception {
        CuratorFramework c = client();
        ZkMachineIdLease lease = track(ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/expiry").maxMachineId(0)
                .retryEvery(Duration.ofMillis(100)).acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        List<Long> made = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            made.add(ids.nextLong());
        }

        long expired = System.nanoTime();
        c.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        await("fenced on session expiry", Duration.ofMillis(SESSION_MS), () -> !lease.isHeld());
        long fencedAfter = (System.nanoTime() - expired) / 1_000_000;
        assertThrows(MachineIdLostException.class, ids::nextLong);

        await("re-acquired with a new session", Duration.ofSeconds(20), lease::isHeld);
        long back = (System.nanoTime() - expired) / 1_000_000;
        for (int i = 0; i < 5000; i++) {
            made.add(ids.nextLong());
        }
        for (int i = 1; i < made.size(); i++) {
            assertTrue(made.get(i) > made.get(i - 1), "ID " + i + " is not above the one before");
        }
        assertEquals(0, lease.machineId());
        System.out.printf("ZooKeeper session expired -> refusing after %d ms; held again after %d ms%n",
                fencedAfter, back);
    }

    @Test
    void aHighWaterMarkLeftByAHolderWhoseClockRanAheadIsRespected() throws Exception {
        TestClock ahead = new TestClock();
        ahead.offset.set(600);
        ZkMachineIdLease a = track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/mark").maxMachineId(0)
                .maxClockSkew(Duration.ofMillis(700)).clock(ahead).acquire());
        assertTrue(a.clockSkew().toMillis() <= -500, "A's clock is ahead: " + a.clockSkew());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).clock(ahead).build();
        long aLast = 0;
        for (int i = 0; i < 1000; i++) {
            aLast = aIds.nextLong();
        }
        long aMark = aIds.highWaterMark();
        a.close();

        TestClock bClock = new TestClock();
        ZkMachineIdLease b = track(ZkMachineIdLease.builder(client()).serverTickTime(TICK).path("/mark").maxMachineId(0)
                .clock(bClock).acquire());
        assertEquals(0, b.machineId());
        assertEquals(aMark, b.highWaterMark(), "B reads the mark A recorded on release");
        bClock.fixed.set(aMark - 300);
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).clock(bClock)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5))).build();
        ClockMovedBackwardsException behind = assertThrows(ClockMovedBackwardsException.class, bIds::nextLong);
        assertEquals(300, behind.millisBehind());
        bClock.fixed.set(aMark + 1);
        long bFirst = bIds.nextLong();
        assertTrue(bFirst > aLast, "B's first ID " + bFirst + " is above A's last " + aLast);
    }

    @Test
    void aClockTooFarFromZooKeepersIsRefusedAndLeavesTheIdFree() throws Exception {
        TestClock behind = new TestClock();
        behind.offset.set(-5000);
        CuratorFramework c = client();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/skew").maxMachineId(0).clock(behind).acquire());
        assertTrue(e.getMessage().contains("ms from ZooKeeper's (node /skew/leases/0), beyond the allowed 1000 ms"),
                e.getMessage());
        ZkMachineIdLease ok = track(ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/skew").maxMachineId(0).acquire());
        assertEquals(0, ok.machineId());

        TestClock drifting = new TestClock();
        ok.close();
        ZkMachineIdLease lease = track(ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/skew").maxMachineId(0).clock(drifting).acquire());
        drifting.offset.set(4000);
        assertFalse(lease.renewNow(), "fenced while the clock is 4 s off");
        assertTrue(lease.toString().contains("ms from the coordinator's"), lease.toString());
        assertEquals(Instant.MIN, lease.fence(), "the fence is shut at once");
        drifting.offset.set(0);
        // the next two contacts, a lag apart, open the fence again
        await("held again once the clocks agree", Duration.ofSeconds(5), lease::isHeld);
    }

    @Test
    void aDeletedLeaseNodeFencesUntilItIsCreatedAgain() throws Exception {
        CuratorFramework c = client();
        ZkMachineIdLease lease = track(ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/deleted").retryEvery(Duration.ofMillis(100))
                .acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long last = ids.nextLong();
        CuratorFramework operator = client();
        operator.delete().forPath("/deleted/leases/" + lease.machineId());
        await("held again after the node is re-created", Duration.ofSeconds(10),
                () -> lease.isHeld() && operatorSees(operator, "/deleted/leases/" + lease.machineId()));
        assertTrue(ids.nextLong() > last);
    }

    private static boolean operatorSees(CuratorFramework c, String path) {
        try {
            return c.checkExists().forPath(path) != null;
        } catch (Exception e) {
            return false;
        }
    }
}
