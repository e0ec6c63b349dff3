package dev.idgen.lease.zookeeper;

import static dev.idgen.lease.zookeeper.ZkTestServer.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A three-server ensemble (Curator's in-process {@code TestingCluster}) loses its leader, whose
 * clock the lease reads: the two left elect another, the client moves to a live server if it was on
 * the dead one, and the lease renews through the new leader (its clock now the store's) with the
 * same machine id. IDs are made all the while; none repeats and each is above the last.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkClusterFailoverTest {

    @Test
    void losingTheLeaderCostsAtMostTheElectionAndTheSameIdGoesOn() throws Exception {
        System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
        InstanceSpec[] specs = new InstanceSpec[3];
        for (int i = 0; i < 3; i++) {
            specs[i] = new InstanceSpec(null, -1, -1, -1, true, i + 1, 200, -1);
        }
        try (TestingCluster cluster = new TestingCluster(specs)) {
            cluster.start();
            try (CuratorFramework client = ZkTestServer.connect(cluster.getConnectString())) {
                assertTrue(ZkTestServer.lease(client, "/ensemble").initializeNewNamespace());
                try (ZkMachineIdLease lease = ZkTestServer.lease(client, "/ensemble").acquire()) {
                    SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
                    List<Long> made = new ArrayList<>();
                    long[] longestGapNanos = {0};
                    AtomicBoolean stop = new AtomicBoolean();
                    Thread maker = new Thread(() -> {
                        long lastMade = System.nanoTime();
                        while (!stop.get()) {
                            try {
                                made.add(ids.nextLong());
                                lastMade = System.nanoTime();
                            } catch (MachineIdLostException refused) {
                                longestGapNanos[0] = Math.max(longestGapNanos[0], System.nanoTime() - lastMade);
                            }
                            LockSupport.parkNanos(100_000);
                        }
                    }, "id-maker");
                    maker.start();
                    Thread.sleep(500); // fault test: IDs before the fault

                    InstanceSpec leader = leader(specs);
                    boolean onLeader = leader.equals(cluster.findConnectionInstance(
                            client.getZookeeperClient().getZooKeeper()));
                    assertTrue(cluster.killServer(leader));
                    long killed = System.nanoTime();
                    await("a new leader", Duration.ofSeconds(30), () -> leaderOrNull(specs, leader) != null);
                    long electedAfter = (System.nanoTime() - killed) / 1_000_000;
                    Thread.sleep(3 * lease.timings().renewEvery().toMillis()); // renewals through the new leader
                    await("held through the new leader", Duration.ofSeconds(30), lease::isHeld);
                    Thread.sleep(500);
                    stop.set(true);
                    maker.join();

                    assertEquals(0, lease.machineId(), "the same id");
                    for (int i = 1; i < made.size(); i++) {
                        assertTrue(made.get(i) > made.get(i - 1), "ID " + i + " is not above the one before");
                    }
                    System.out.printf("ZooKeeper ensemble lost its leader (client %s it): new leader after %d ms;"
                            + " longest time without an ID %d ms; %d IDs, losses %d, machine id %d throughout%n",
                            onLeader ? "on" : "not on", electedAfter, longestGapNanos[0] / 1_000_000, made.size(),
                            lease.losses(), lease.machineId());
                }
            }
        }
    }

    private static InstanceSpec leader(InstanceSpec[] specs) {
        InstanceSpec leader = leaderOrNull(specs, null);
        if (leader == null) {
            throw new IllegalStateException("no server of the ensemble says it leads");
        }
        return leader;
    }

    /** The server whose {@code srvr} says {@code Mode: leader}, other than {@code dead}; null if none does. */
    private static InstanceSpec leaderOrNull(InstanceSpec[] specs, InstanceSpec dead) {
        for (InstanceSpec s : specs) {
            if (!s.equals(dead) && srvr(s.getPort()).contains("Mode: leader")) {
                return s;
            }
        }
        return null;
    }

    private static String srvr(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return ""; // not serving
        }
    }
}
