package dev.idgen.lease.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.lease.LeaseScenarios;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The etcd lease on one real etcd server, started for this class. */
class EtcdMachineIdLeaseTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private static EtcdCluster etcd;
    private static Client client;

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.start(1);
        client = Client.builder().endpoints(etcd.endpoint(0)).build();
    }

    @AfterAll
    static void stopEtcd() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    private static String namespace(TestInfo info) {
        return "/idgen-etcd-test/" + info.getTestMethod().orElseThrow().getName() + "/" + System.nanoTime();
    }

    @Test
    void concurrentClaimersGetDistinctLowestIdsAndTheNextOneIsToldTheSpaceIsFull(TestInfo info) throws Exception {
        String ns = namespace(info);
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<EtcdMachineIdLease>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Callable<EtcdMachineIdLease> claim = () -> {
                go.await();
                return EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns).maxMachineId(n - 1)
                        .acquire();
            };
            futures.add(pool.submit(claim));
        }
        go.countDown();
        List<EtcdMachineIdLease> leases = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        for (Future<EtcdMachineIdLease> f : futures) {
            EtcdMachineIdLease l = f.get();
            leases.add(l);
            assertTrue(l.isHeld(), l.toString());
            ids.add(l.machineId());
        }
        pool.shutdown();
        assertEquals(Set.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), ids);
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class,
                () -> EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns).maxMachineId(n - 1)
                        .acquire());
        assertTrue(full.getMessage().contains("Every machine id 0..7"), full.getMessage());
        assertTrue(full.getMessage().contains("raise maxMachineId (up to the layout's maxMachineId()) or use a layout"
                + " with more machine-id bits"), full.getMessage());
        leases.stream().filter(l -> l.machineId() == 3).findFirst().orElseThrow().close();
        EtcdMachineIdLease again = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns)
                .maxMachineId(n - 1).acquire();
        assertEquals(3, again.machineId(), "the lowest free id after a release");
        again.close();
        leases.forEach(EtcdMachineIdLease::close);
    }

    @Test
    void aGrantThatExpiresBeforeTheClaimWinsIsReplacedAndTheClaimGoesOn(TestInfo info) throws Exception {
        // etcd revokes the claim's first grant before it claims, as when a large fleet's claims lose
        // races on lower ids for longer than the TTL: the claim takes a new grant and still wins id 0
        List<Long> grants = new ArrayList<>();
        EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                .maxMachineId(0).background(false).afterGrant(id -> {
                    grants.add(id);
                    if (grants.size() == 1) {
                        client.getLeaseClient().revoke(id).join();
                    }
                }).acquire();
        assertEquals(2, grants.size(), "one grant revoked, one more taken");
        assertEquals(0, lease.machineId());
        assertTrue(lease.isHeld(), lease.toString());
        assertTrue(lease.renewNow(), "the lease lives under the second grant");
        lease.close();
    }

    @Test
    void aClaimWhoseEveryGrantIsGoneGivesUpAfterThreeNewOnes(TestInfo info) {
        List<Long> grants = new ArrayList<>();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                        .maxMachineId(0).background(false).afterGrant(id -> {
                            grants.add(id);
                            client.getLeaseClient().revoke(id).join();
                        }).acquire());
        assertEquals(4, grants.size(), "the first grant and three more");
        assertTrue(e.getMessage().startsWith("Could not claim a machine id under etcd /idgen-etcd-test/"), e.getMessage());
    }

    @Test
    void timingsAndTtlThatDoNotFitAreRejectedNamingTheNumbers() {
        IllegalArgumentException sub = assertThrows(IllegalArgumentException.class,
                () -> EtcdMachineIdLease.builder(client).ttl(Duration.ofMillis(2500)));
        assertTrue(sub.getMessage().contains("2500 ms") && sub.getMessage().contains("whole number of seconds"),
                sub.getMessage());
        IllegalArgumentException tight = assertThrows(IllegalArgumentException.class,
                () -> EtcdMachineIdLease.builder(client).ttl(Duration.ofSeconds(3)).acquire());
        // 2 x 600 + 2 x 1000 + 300 = 3500 >= 3000
        assertTrue(tight.getMessage().contains("3500 ms"), tight.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EtcdMachineIdLease.builder(client).namespace("/a/"));
        assertThrows(IllegalArgumentException.class, () -> EtcdMachineIdLease.builder(client).namespace("a b"));
    }

    @Test
    void theFenceStandsTtlLessTwiceTheSkewAndTheMarginAfterTheOlderOfTheLastTwoKeepAlives(TestInfo info) {
        long[] now = {System.currentTimeMillis()};
        InstantSource clock = () -> Instant.ofEpochMilli(now[0]);
        // the elapsed-time clock moves with the wall clock: the lease sees no step, only time passing
        EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                .maxMachineId(0).clock(clock).elapsedClock(() -> now[0] * 1_000_000L).background(false).acquire();
        // the restore watch compares the same two clocks, so it sees no jump either
        lease.watchIncarnation(new IncarnationWatch(() -> 1, clock, () -> now[0] * 1_000_000L, 400));
        long first = now[0];
        // both the grant and the first keep-alive were sent at `first`: ttl 3000 - 2 x 400 - 300
        assertEquals(first + 1900, lease.fence().toEpochMilli());
        now[0] += 500;
        assertTrue(lease.renewNow());
        assertEquals(first + 1900, lease.fence().toEpochMilli(), "the older of the last two sends");
        now[0] += 500;
        assertTrue(lease.renewNow());
        assertEquals(first + 500 + 1900, lease.fence().toEpochMilli());
        now[0] = first + 500 + 1900; // no keep-alive acknowledged since: the fence has come
        assertTrue(!lease.isHeld(), lease.toString());
        lease.close();
    }

    @Test
    void anEtcdLeaseRevokedOnTheServerFencesAtOnceAndTheIdIsClaimedAgainAboveTheMark(TestInfo info) throws Exception {
        EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                .maxMachineId(0).background(false).acquire();
        SnowflakeGenerator g = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).build();
        long before = 0;
        for (int i = 0; i < 100; i++) {
            before = g.nextLong();
        }
        long genMark = g.highWaterMark();
        long old = lease.etcdLeaseId();
        client.getLeaseClient().revoke(old).get(); // as an operator or a compaction of leases would
        assertTrue(lease.renewNow(), lease.toString());
        assertTrue(lease.etcdLeaseId() != old, "claimed again under a new etcd lease");
        assertEquals(1, lease.losses());
        assertTrue(lease.highWaterMark() >= genMark, "mark " + lease.highWaterMark() + " below " + genMark);
        assertTrue(g.nextLong() > before);
        lease.close();
    }

    @Test
    void aHolderWhoseKeepAlivesStopIsTakenOverAfterExpiryAboveItsRecordedMark(TestInfo info) {
        String ns = namespace(info);
        long ahead = 5_000; // the first holder's clock runs 5 s ahead: only the mark keeps the next one above it
        InstantSource aheadClock = () -> Instant.ofEpochMilli(System.currentTimeMillis() + ahead);
        EtcdMachineIdLease a = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns).maxMachineId(0)
                .clock(aheadClock).background(false).acquire();
        SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(LAYOUT).clock(aheadClock).machineId(a).build();
        Set<Long> aIds = new HashSet<>();
        long aLast = 0;
        for (int i = 0; i < 2000; i++) {
            aLast = ga.nextLong();
            aIds.add(aLast);
        }
        assertTrue(a.renewNow()); // records the mark; then A falls silent (never closed, never renewed)
        long recorded = ga.highWaterMark();
        long start = System.nanoTime();
        EtcdMachineIdLease b = null;
        while (b == null) {
            assertTrue(System.nanoTime() - start < 15_000_000_000L, "the id was not taken over within 15 s");
            try {
                b = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(ns).maxMachineId(0).acquire();
            } catch (MachineIdLeaseException e) {
                assertTrue(e.getMessage().startsWith("Every machine id"), e.getMessage());
                EtcdCluster.sleep(100);
            }
        }
        long takenAfter = (System.nanoTime() - start) / 1_000_000;
        assertTrue(takenAfter >= 2_500, "taken after " + takenAfter + " ms, before the 3 s TTL could have run out");
        assertTrue(b.highWaterMark() >= recorded, "B read mark " + b.highWaterMark() + " below A's " + recorded);
        SnowflakeGenerator gb = SnowflakeGenerator.builder().layout(LAYOUT).machineId(b)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(6))).build();
        // B starts above A's fence as A's clock read it (the record's expiry less the offset), 5 s
        // ahead of B's: B is refused until its own fence, moved by its keep-alives, passes that
        Long first = null;
        while (first == null) {
            assertTrue(System.nanoTime() - start < 20_000_000_000L, "B made no ID within 20 s");
            try {
                first = gb.nextLong();
            } catch (MachineIdLostException e) {
                EtcdCluster.sleep(50);
            }
        }
        long bFirst = first;
        assertTrue(bFirst > aLast, "B's first ID " + gb.decode(bFirst) + " is not above A's last " + ga.decode(aLast));
        for (int i = 0; i < 2000; i++) {
            long id = gb.nextLong();
            assertTrue(!aIds.contains(id), "both made " + id);
        }
        b.close();
        a.close();
    }

    @Test
    void theSharedLeaseScenariosPassWithASilentPartitionAsTheCut(TestInfo info) {
        LeaseScenarios.Report r = LeaseScenarios.check(new EtcdLeaseBackend(etcd, namespace(info)),
                Duration.ofSeconds(20));
        System.out.println("etcd lease scenarios: " + r);
        // fenced before the other claimer had the id, and within the 1900 ms the timings allow
        assertTrue(r.loss().refusedAfterMillis() < r.loss().takenAfterMillis(), r.toString());
        assertTrue(r.loss().refusedAfterMillis() <= 1900 + 300, r.toString()); // + the maker's pauses
    }

    @Test
    void aForwardWallClockStepBeyondTheSkewBoundWhileHeldFencesTheLeaseUntilTheClockIsBack(TestInfo info) {
        long[] offset = {0};
        InstantSource clock = () -> Instant.ofEpochMilli(System.currentTimeMillis() + offset[0]);
        EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                .maxMachineId(0).clock(clock).background(false).acquire();
        // this clock follows real time, so the restore watch compares it with the monotonic clock as
        // it does the system clock (an injected clock is otherwise watched for a new pid only)
        lease.watchIncarnation(new IncarnationWatch(() -> ProcessHandle.current().pid(), clock, System::nanoTime,
                lease.timings().maxClockSkew().toMillis()));
        SnowflakeGenerator g = SnowflakeGenerator.builder().layout(LAYOUT).clock(clock).machineId(lease).build();
        g.nextLong();
        assertTrue(lease.renewNow(), lease.toString());
        assertTrue(Math.abs(lease.clockSkew().toMillis()) < 100, "no step yet: " + lease.clockSkew());

        offset[0] = 2_000; // an NTP step, an operator, a restored snapshot: 2 s forward, the bound is 400 ms
        assertTrue(!lease.renewNow(), "held after a 2 s step: " + lease);
        long skew = lease.clockSkew().toMillis();
        System.out.println("etcd lease: a 2 s forward step measured as clockSkew " + skew + " ms");
        assertTrue(skew <= -1_900 && skew >= -2_100, "the step is measured: " + skew + " ms");
        assertThrows(MachineIdLostException.class, g::nextLong, "IDs in the stepped clock are refused");
        assertEquals(1, lease.losses());
        assertTrue(!lease.renewNow(), "still fenced while the clock stays stepped: " + lease);

        offset[0] = 0; // the clock is back: two acknowledged keep-alives open the fence again
        lease.renewNow();
        assertTrue(lease.renewNow(), lease.toString());

        // a step back is measured and fences nothing by itself (IDs stamped by a clock behind stay
        // below the fence); the restore watch takes any jump beyond the bound for a restore, though,
        // so the lease proves its claim with two renewals before it opens again
        offset[0] = -2_000;
        assertTrue(!lease.renewNow(), "a 2 s jump is a restore signal: " + lease);
        assertTrue(lease.toString().contains("restored"), lease.toString());
        assertTrue(lease.renewNow(), "a step back alone keeps the lease: " + lease);
        skew = lease.clockSkew().toMillis();
        assertTrue(skew >= 1_900 && skew <= 2_100, "the step back is measured: " + skew + " ms");
        assertEquals(2, lease.losses());
        lease.close();
    }

    @Test
    void aHolderWhoseClocksRunSlowerThanEtcdsCountdownIsFenced(TestInfo info) {
        // wall and elapsed clocks both at half speed: no step between them, but etcd's leader counts
        // the TTL twice as fast as this holder, whose fence would fall after the etcd lease expired
        long startWall = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        InstantSource slowWall = () -> Instant.ofEpochMilli(startWall + (System.nanoTime() - startNanos) / 2_000_000);
        EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client)).namespace(namespace(info))
                .maxMachineId(0).clock(slowWall).elapsedClock(() -> startNanos + (System.nanoTime() - startNanos) / 2)
                .background(false).acquire();
        assertTrue(lease.renewNow(), lease.toString());
        // 2 s of real time: the leader's countdown reads 0 whole seconds left (more than 2 s counted),
        // this holder counted about 1 s, and the fence (1.9 s after the send, in its own time) is ahead
        EtcdCluster.sleep(2_000);
        assertTrue(lease.fence().toEpochMilli() > slowWall.millis(), "the fence alone would still allow IDs");
        assertTrue(!lease.renewNow(), "held though etcd counted twice as fast: " + lease);
        assertTrue(lease.toString().contains("countdown"), lease.toString());
        System.out.println("etcd lease, clocks at half speed: " + lease);
        lease.close();
    }

    @Test
    void theCountdownArithmetic() {
        // granted 3 s, 1 whole second left: the leader counted more than 1 s; we counted at most 1 s
        assertEquals(1_000 - 1_000 - 300, EtcdMachineIdLease.countdownExcessMillis(3, 1, 0, 1_000_000_000L, 300));
        // 0 left: more than 2 s counted against our 1 s: 700 ms beyond a 300 ms margin
        assertEquals(700, EtcdMachineIdLease.countdownExcessMillis(3, 0, 0, 1_000_000_000L, 300));
        // a new leader extended the lease (remaining above the grant): never an excess
        assertTrue(EtcdMachineIdLease.countdownExcessMillis(3, 4, 0, 1, 0) < 0);
        // the local count rounds up to whole milliseconds: 1 ns counts as 1 ms
        assertEquals(2_000 - 1 - 0, EtcdMachineIdLease.countdownExcessMillis(3, 0, 0, 1, 0));
    }
}
