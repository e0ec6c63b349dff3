package dev.idgen.lease.zookeeper;

import static dev.idgen.lease.zookeeper.ZkTestServer.await;
import static dev.idgen.lease.zookeeper.ZkTestServer.lease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leases against a real, in-process ZooKeeper server: claims on many clients at once, the ZooKeeper
 * faults the shared conformance suite cannot make (the server stopped and started again, a session
 * expired), and what the builder refuses. Each test has a server of its own; waits are bounded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkMachineIdLeaseTest {

    private ZkTestServer zk;

    @BeforeEach
    void startServer() throws Exception {
        zk = new ZkTestServer();
    }

    @AfterEach
    void stopServer() throws Exception {
        zk.close();
    }

    @Test
    void clientsClaimTheLowestFreeIdsAFullRangeIsRefusedAndAClosedIdIsReused() throws Exception {
        String path = zk.freshPath("ids");
        List<ZkMachineIdLease> leases = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            leases.add(zk.track(lease(zk.client(), path).maxMachineId(2).owner("p" + i).acquire()));
        }
        assertEquals(List.of(0L, 1L, 2L), leases.stream().map(ZkMachineIdLease::machineId).toList());
        CuratorFramework late = zk.client();
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class,
                () -> lease(late, path).maxMachineId(2).acquire());
        assertEquals("Every machine id 0..2 under ZooKeeper path " + path + " is held by a live lease; free one, or"
                + " widen the space: raise maxMachineId (up to the layout's maxMachineId()) or use a layout with more"
                + " machine-id bits (e.g. SnowflakeLayout.SONYFLAKE, 0..65535)", full.getMessage());

        leases.get(1).close();
        assertFalse(leases.get(1).isHeld());
        ZkMachineIdLease again = zk.track(lease(late, path).maxMachineId(2).acquire());
        assertEquals(1, again.machineId(), "the freed id is the lowest free one");
    }

    @Test
    void aSecondClaimerOfAFixedIdFailsNamingTheHolder() throws Exception {
        String path = zk.freshPath("fixed");
        ZkMachineIdLease first = zk.track(lease(zk.client(), path).machineId(5).owner("first").acquire());
        assertEquals(5, first.machineId());
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> lease(zk.client(), path).machineId(5).owner("second").acquire());
        assertTrue(e.getMessage().startsWith("Machine id 5 under ZooKeeper path " + path + " is held by a live lease"
                + " of owner 'first' (token 1) until "), e.getMessage());
        first.close();
        ZkMachineIdLease second = zk.track(lease(zk.client(), path).machineId(5).owner("second").acquire());
        assertEquals(5, second.machineId(), "free once its holder closed");
    }

    @Test
    void manyClientsChurningNeverShareAnId() throws Exception {
        String path = zk.freshPath("churn");
        int threads = 6;
        int rounds = 10;
        List<CuratorFramework> clients = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            clients.add(zk.client());
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
                            lease = lease(c, path).maxMachineId(3).owner(name).background(false).acquire();
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
    @Tag("slow")
    void aStoppedServerFencesTheHolderByTimeAndWhenBackTheSameIdGoesOn() throws Exception {
        String path = zk.freshPath("outage");
        ZkMachineIdLease lease = zk.track(lease(zk.client(), path).acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long last = ids.nextLong();
        long id = lease.machineId();

        zk.server().stop();
        long stopped = System.nanoTime();
        await("fenced while the server is down", ZkTestServer.TTL.multipliedBy(2), () -> !lease.isHeld());
        long fencedAfter = (System.nanoTime() - stopped) / 1_000_000;
        assertThrows(MachineIdLostException.class, ids::nextLong);

        zk.server().restart();
        long restarted = System.nanoTime();
        await("held again once the server is back", Duration.ofSeconds(30), lease::isHeld);
        long next = ids.nextLong();
        long resumedAfter = (System.nanoTime() - restarted) / 1_000_000;
        assertTrue(next > last);
        assertEquals(id, lease.machineId(), "the record survived the restart: the lease kept its id");
        System.out.printf("ZooKeeper server stopped -> refusing after %d ms (ttl %d ms, silence bound %d ms);"
                + " restarted -> first new ID after %d ms%n", fencedAfter, ZkTestServer.TTL.toMillis(),
                lease.timings().silence().toMillis(), resumedAfter);
    }

    @Test
    void anExpiredSessionCostsTheLeaseNothing() throws Exception {
        String path = zk.freshPath("expiry");
        CuratorFramework c = zk.client();
        ZkMachineIdLease lease = zk.track(lease(c, path).acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long last = ids.nextLong();
        long session = c.getZookeeperClient().getZooKeeper().getSessionId();

        c.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        await("a new session", Duration.ofSeconds(20), () -> sessionOf(c) != 0 && sessionOf(c) != session);
        Thread.sleep(3 * lease.timings().renewEvery().toMillis()); // fault test: three renewals on the new session
        await("held on the new session", ZkTestServer.TTL, lease::isHeld);
        long next = ids.nextLong();
        assertTrue(next > last);
        assertEquals(0, lease.losses(), "the expiry fenced the lease: " + lease);
        assertEquals(0, lease.reclaims());
        assertEquals(0, lease.machineId());
    }

    private static long sessionOf(CuratorFramework c) {
        try {
            return c.getZookeeperClient().isConnected() ? c.getZookeeperClient().getZooKeeper().getSessionId() : 0;
        } catch (Exception e) {
            return 0;
        }
    }

    @Test
    void theBuilderRefusesABadPathAndAClientNotStarted() {
        CuratorFramework c = zk.client();
        IllegalArgumentException relative = assertThrows(IllegalArgumentException.class,
                () -> ZkMachineIdLease.builder(c).path("idgen"));
        assertEquals("path 'idgen' is not a ZooKeeper path: Path must start with / character; allowed: an absolute"
                + " path such as /idgen/orders", relative.getMessage());
        IllegalArgumentException root = assertThrows(IllegalArgumentException.class,
                () -> ZkMachineIdLease.builder(c).path("/"));
        assertEquals("path '/' is the root; give the leases a node of their own, e.g. /idgen/orders", root.getMessage());

        CuratorFramework idle = CuratorFrameworkFactory.newClient(zk.server().getConnectString(), new RetryOneTime(10));
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> ZkMachineIdLease.builder(idle).path("/idle").acquire());
        assertEquals("The Curator client is not connected to ZooKeeper; start it and wait until it is"
                + " (blockUntilConnected) before claiming a machine id under /idle", e.getMessage());
        idle.close();
    }
}
