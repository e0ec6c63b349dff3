package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A three-server ensemble (Curator's in-process {@code TestingCluster}) loses the server the
 * holder is connected to: the lease fences at once, the client moves to another server with the
 * same session, and the lease is held again with the same node.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkClusterFailoverTest {

    private static final int SESSION_MS = 3000;
    /** The test servers' tickTime, which the leases are told. */
    private static final Duration TICK = Duration.ofMillis(200);

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

    @Test
    void losingTheConnectedServerFencesAndTheSameSessionResumesOnAnother() throws Exception {
        InstanceSpec[] specs = new InstanceSpec[3];
        for (int i = 0; i < 3; i++) {
            specs[i] = new InstanceSpec(null, -1, -1, -1, true, i + 1, 200, -1);
        }
        try (TestingCluster cluster = new TestingCluster(specs)) {
            cluster.start();
            CuratorFramework client = CuratorFrameworkFactory.builder().connectString(cluster.getConnectString())
                    .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
            try (client) {
                client.start();
                assertTrue(client.blockUntilConnected(30, TimeUnit.SECONDS), "client connects to the ensemble");
                ZkMachineIdLease lease = ZkMachineIdLease.builder(client).serverTickTime(TICK).path("/ensemble").acquire();
                try (lease) {
                    SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
                    long last = ids.nextLong();
                    long session = client.getZookeeperClient().getZooKeeper().getSessionId();
                    InstanceSpec connected = cluster.findConnectionInstance(client.getZookeeperClient().getZooKeeper());

                    assertTrue(cluster.killServer(connected));
                    long killed = System.nanoTime();
                    await("fenced when its server goes", Duration.ofMillis(SESSION_MS), () -> !lease.isHeld());
                    long fencedAfter = (System.nanoTime() - killed) / 1_000_000;
                    assertThrows(MachineIdLostException.class, ids::nextLong);

                    await("held again through another server", Duration.ofSeconds(30), lease::isHeld);
                    long next = ids.nextLong();
                    long resumedAfter = (System.nanoTime() - killed) / 1_000_000;
                    assertTrue(next > last);
                    assertEquals(session, client.getZookeeperClient().getZooKeeper().getSessionId(),
                            "the session survived the move");
                    assertNotEquals(connected, cluster.findConnectionInstance(client.getZookeeperClient().getZooKeeper()));
                    System.out.printf("ZooKeeper ensemble lost the holder's server -> refusing after %d ms;"
                            + " first new ID through another server after %d ms%n", fencedAfter, resumedAfter);
                }
            }
        }
    }
}
