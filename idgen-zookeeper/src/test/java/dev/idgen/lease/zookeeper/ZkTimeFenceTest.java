package dev.idgen.lease.zookeeper;

import dev.idgen.testkit.lease.BlackholeProxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.machine.spi.LeaseTimings;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
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
 * The time fence of the ZooKeeper lease against the faults that made duplicates while the fence
 * followed a flag: unsafe timings, a call paused between its lease check and its clock read, a
 * forward clock step, run-ahead, and both holders' clocks at the edges of the skew bound. Each
 * hand-over partitions holder A behind a silent proxy, lets B take the id once A's session has
 * expired, and checks that every ID of B is above every ID of A (each generator's IDs rise, so
 * that makes the sets disjoint). Real servers, bounded waits.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkTimeFenceTest {

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
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(connect)
                .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS), "client connects");
        cleanup.add(c);
        return c;
    }

    /** A wall clock the test can move apart from real time. */
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
    void aThreeSecondSessionWithTheDefaultSkewBoundIsRefusedNamingTheNumbersAndClaimsNothing() throws Exception {
        CuratorFramework c = client(server.getConnectString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZkMachineIdLease.builder(c).path("/timings").acquire());
        assertEquals("ZooKeeper session timeout 3000 ms (as negotiated; serverTickTime unset, taken as 1500 ms,"
                + " so contacts every 850 ms) is too short: Lease timings do not fit: ttl 3000 ms must exceed"
                + " 2 x renewEvery (850 ms) + 2 x maxClockSkew (1000 ms) + safetyMargin (100 ms) = 3800 ms, or a"
                + " healthy holder is fenced before its next renewal (its fence is the older of its last two"
                + " acknowledged expiries minus maxClockSkew and safetyMargin); lengthen the ttl or shorten the"
                + " others", e.getMessage());
        IllegalArgumentException soon = assertThrows(IllegalArgumentException.class,
                () -> ZkMachineIdLease.builder(c).path("/timings").serverTickTime(TICK)
                        .renewEvery(Duration.ofMillis(150)).acquire());
        assertEquals("renewEvery 150 ms is shorter than the 200 ms a ZooKeeper follower may take to report a"
                + " contact to the leader (serverTickTime 200 ms / 2 + safetyMargin 100 ms); use at least 200 ms",
                soon.getMessage());
        assertEquals(null, c.checkExists().forPath("/timings/leases/0"), "a refused configuration claims no id");

        ZkMachineIdLease ok = ZkMachineIdLease.builder(c).path("/timings").serverTickTime(TICK).acquire();
        cleanup.add(ok);
        assertEquals(Duration.ofMillis(300), ok.timings().renewEvery(), "a third of 3000 - 2 x 1000 - 100");
        assertTrue(ok.isHeld(), ok.toString());
    }

    @Test
    void theBuilderTakesTheSharedTimingNamesWithTheSessionAsTheLongestTtl() throws Exception {
        CuratorFramework c = client(server.getConnectString());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> ZkMachineIdLease.builder(c).path("/shared").serverTickTime(TICK).ttl(Duration.ofMillis(3500))
                        .acquire());
        assertEquals("ttl 3500 ms exceeds the negotiated ZooKeeper session timeout 3000 ms: a session may expire"
                + " that long after the server last heard from it; use at most 3000 ms, or leave ttl unset",
                tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZkMachineIdLease.builder(c).owner(" "));
        assertEquals(null, c.checkExists().forPath("/shared/leases/0"), "a refused configuration claims no id");

        // a shorter ttl, the shared names, and no background contacts: the caller renews
        ZkMachineIdLease lease = ZkMachineIdLease.builder(c).path("/shared").serverTickTime(TICK)
                .ttl(Duration.ofMillis(2800)).renewEvery(Duration.ofMillis(250)).safetyMargin(Duration.ofMillis(150))
                .maxClockSkew(Duration.ofMillis(500)).owner("shared-names").background(false).acquire();
        cleanup.add(lease);
        assertEquals(new LeaseTimings(Duration.ofMillis(2800), Duration.ofMillis(250), Duration.ofMillis(150),
                Duration.ofMillis(500)), lease.timings());
        assertEquals("shared-names", lease.owner());
        assertTrue(lease.isHeld(), lease.toString());
        int version = c.checkExists().forPath("/shared/leases/" + lease.machineId()).getVersion();
        Thread.sleep(600); // real time: more than two renewal intervals with no thread of the lease's own
        assertEquals(version, c.checkExists().forPath("/shared/leases/" + lease.machineId()).getVersion(),
                "no contact without background renewal");
        assertTrue(lease.renewNow(), lease.toString());
        assertTrue(c.checkExists().forPath("/shared/leases/" + lease.machineId()).getVersion() > version,
                "renewNow contacts");
    }

    @Test
    void theArithmeticOfOneContact() {
        // mtime 10 000, sent and acknowledged 2.5 ms apart (3 ms rounded up), session 3 000
        assertEquals(12_997, ZkLeaseProtocol.expiry(10_000, 1_000_000, 3_500_000, 3_000));
        assertEquals(8_999, ZkLeaseProtocol.claimMark(10_000, 1_000, new ZkLeaseProtocol.MarkRecord(
                dev.idgen.machine.MachineIdLease.NO_MARK, ZkLeaseProtocol.NO_OFFSET, ZkLeaseProtocol.NO_OFFSET)));
        assertEquals(200, ZkLeaseProtocol.lagMillis(200, 3_000, 100));
        assertEquals(850, ZkLeaseProtocol.lagMillis(0, 3_000, 100), "unset tick: half the session");
    }

    @Test
    void aCallPausedBeforeItsClockReadResumesAfterTheHandOverAndIsRefused() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> victim = new AtomicReference<>();
        InstantSource pausing = new InstantSource() {
            @Override
            public long millis() {
                if (Thread.currentThread() == victim.get()) {
                    entered.countDown();
                    try {
                        release.await(); // a GC or a descheduled thread between lease check and clock read
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return System.currentTimeMillis();
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(millis());
            }
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        HandOver h = handOver("/paused-call", InstantSource.system(), pausing, Duration.ofSeconds(1),
                ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)), InstantSource.system(), aIds -> {
                    Thread t = new Thread(() -> {
                        try {
                            outcome.set(aIds.nextLong());
                        } catch (RuntimeException e) {
                            outcome.set(e);
                        }
                    }, "paused-call");
                    victim.set(t);
                    t.start();
                    await(entered);
                }, () -> {
                    release.countDown();
                    join(victim.get());
                });
        assertTrue(outcome.get() instanceof MachineIdLostException, "the paused call returned " + outcome.get());
        assertTrue(h.bMin > h.aMax);
    }

    @Test
    void aForwardStepBetweenContactsIsRefusedByTheTimeItsIdsWouldCarry() throws Exception {
        TestClock aClock = new TestClock();
        AtomicLong returnedAfterStep = new AtomicLong(-1);
        HandOver h = handOver("/step", aClock, aClock, Duration.ofSeconds(1), ClockBackwardsPolicy.waitUpTo(
                Duration.ofMillis(5)), InstantSource.system(), aIds -> {
                    aClock.offset.set(5_000); // five seconds ahead, past the fence at once
                    long ok = 0;
                    for (int i = 0; i < 1000; i++) {
                        try {
                            aIds.nextLong();
                            ok++;
                        } catch (MachineIdLostException refused) {
                            // expected
                        }
                    }
                    returnedAfterStep.set(ok);
                    aClock.offset.set(600); // a smaller step, inside the fence: its IDs are issued
                }, () -> { });
        assertEquals(0, returnedAfterStep.get(), "IDs returned five seconds ahead");
        assertTrue(h.bMin > h.aMax, "the next holder starts above the forward-stepped IDs");
        System.out.printf("Forward step: +5 s refused at once (0 of 1000 returned); +600 ms IDs (%d) all below"
                + " the next holder's%n", h.aCount);
    }

    @Test
    void aRunAheadGeneratorStopsAtTheFenceAndTheNextHolderStartsAboveIt() throws Exception {
        TestClock frozen = new TestClock();
        frozen.fixed.set(System.currentTimeMillis());
        // the lease reads the real clock; the generator's stands still, so every ID runs ahead of it
        // Sonyflake's 256 IDs per 10 ms tick: a saturated generator runs ahead by seconds per second
        HandOver h = handOver("/run-ahead", SnowflakeLayout.SONYFLAKE, InstantSource.system(), frozen,
                Duration.ofSeconds(1),
                // a refused call still takes its (tick, sequence): an hour of run-ahead outlasts the test
                ClockBackwardsPolicy.runAhead(Duration.ofHours(1)), InstantSource.system(), aIds -> { },
                () -> { });
        assertTrue(h.aRefused > 0, "the saturated generator reached its fence");
        assertTrue(h.bMin > h.aMax, "the next holder starts above the run-ahead IDs");
        System.out.printf("Run-ahead (Sonyflake, frozen clock, 1 h bound): %d IDs up to %d ms past the clock, then refused;"
                + " next holder above them%n", h.aCount, h.aMaxMillis - frozen.fixed.get());
    }

    @Test
    void bothClocksAtTheEdgesOfTheSkewBoundStillHandOverWithoutARepeat() throws Exception {
        TestClock ahead = new TestClock();
        ahead.offset.set(850);
        TestClock behind = new TestClock();
        behind.offset.set(-850);
        HandOver h = handOver("/skew-edges", ahead, ahead, Duration.ofSeconds(1),
                ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)), behind, aIds -> { }, () -> { });
        assertTrue(h.aCount > 0 && h.bCount > 0);
        assertTrue(h.bMin > h.aMax, "B (850 ms behind) re-issued an ID of A (850 ms ahead)");
        System.out.printf("Skew edges (A +850 ms, B -850 ms, bound 1000 ms, session 3000 ms): A %d IDs, B %d IDs,"
                + " B's first %d ms after A's last (ID time)%n", h.aCount, h.bCount, h.bMinMillis - h.aMaxMillis);
    }

    /** What a hand-over from A to B left: A's highest ID, B's lowest, and counts. */
    private record HandOver(long aMax, long aMaxMillis, long aCount, long aRefused, long bMin, long bMinMillis,
            long bCount) {
    }

    /**
     * A holds the id through a proxy and makes IDs on a thread; {@code meanwhile} runs with A's
     * generator; the proxy goes silent; B takes the id after A's session expired ({@code whenTaken}
     * runs) and makes 2 000 IDs on its clock.
     */
    private HandOver handOver(String path, InstantSource aLeaseClock, InstantSource aClock, Duration maxSkew,
            ClockBackwardsPolicy aPolicy, InstantSource bClock, Consumer<SnowflakeGenerator> meanwhile,
            Runnable whenTaken) throws Exception {
        return handOver(path, SnowflakeLayout.TWITTER, aLeaseClock, aClock, maxSkew, aPolicy, bClock, meanwhile,
                whenTaken);
    }

    private HandOver handOver(String path, SnowflakeLayout layout, InstantSource aLeaseClock, InstantSource aClock,
            Duration maxSkew, ClockBackwardsPolicy aPolicy, InstantSource bClock,
            Consumer<SnowflakeGenerator> meanwhile, Runnable whenTaken) throws Exception {
        BlackholeProxy proxy = new BlackholeProxy(server.getPort());
        cleanup.add(proxy);
        CuratorFramework a = client("127.0.0.1:" + proxy.port());
        ZkMachineIdLease aLease = ZkMachineIdLease.builder(a).path(path).maxMachineId(0).serverTickTime(TICK)
                .maxClockSkew(maxSkew).clock(aLeaseClock).acquire();
        cleanup.add(aLease);
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().layout(layout).machineId(aLease).clock(aClock)
                .onClockBackwards(aPolicy).build();
        AtomicLong aMax = new AtomicLong(Long.MIN_VALUE);
        AtomicLong aCount = new AtomicLong();
        AtomicLong aRefused = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread aThread = new Thread(() -> {
            while (!stop.get()) {
                try {
                    long id = aIds.nextLong();
                    aMax.accumulateAndGet(id, Math::max);
                    aCount.incrementAndGet();
                } catch (MachineIdLostException e) {
                    aRefused.incrementAndGet();
                    Thread.yield();
                } catch (IllegalStateException e) {
                    Thread.yield(); // a clock behind the mark under waitUpTo: not an ID
                }
            }
        }, "holder-a");
        aThread.setDaemon(true);
        aThread.start();
        try {
            Thread.sleep(300); // fault test: A makes IDs for real
            meanwhile.accept(aIds);
            Thread.sleep(200);
            proxy.partition(true);

            CuratorFramework b = client(server.getConnectString());
            ZkMachineIdLease bLease = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (bLease == null) {
                try {
                    bLease = ZkMachineIdLease.builder(b).path(path).maxMachineId(0).serverTickTime(TICK)
                            .maxClockSkew(maxSkew).clock(bClock).acquire();
                } catch (MachineIdLeaseException e) {
                    if (System.nanoTime() > deadline) {
                        fail("A's id was never freed: " + e.getMessage());
                    }
                    Thread.sleep(50);
                }
            }
            cleanup.add(bLease);
            whenTaken.run();
            SnowflakeGenerator bIds = SnowflakeGenerator.builder().layout(layout).machineId(bLease).clock(bClock)
                    .build();
            long bMin = Long.MAX_VALUE;
            long bCount = 0;
            for (int i = 0; i < 2000; i++) {
                long id = bIds.nextLong();
                bMin = Math.min(bMin, id);
                bCount++;
            }
            Thread.sleep(300); // A keeps trying while B holds the id
            stop.set(true);
            aThread.join(10_000);
            long aTop = aMax.get();
            return new HandOver(aTop, aTop == Long.MIN_VALUE ? Long.MIN_VALUE
                    : aIds.layout().decode(aTop).timestamp().toEpochMilli(), aCount.get(), aRefused.get(), bMin,
                    bIds.layout().decode(bMin).timestamp().toEpochMilli(), bCount);
        } finally {
            stop.set(true);
            aThread.join(10_000);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
