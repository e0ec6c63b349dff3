package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * {@code machineId(long)} on a real, in-process ZooKeeper server: exactly the given id is claimed,
 * a second claimer of it fails naming the first, the range is checked before any claim, and the id
 * is free again once its holder's session has gone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkExactMachineIdTest {

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

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(3000).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS), "client connects");
        cleanup.add(c);
        return c;
    }

    private ZkMachineIdLease.Builder builder(CuratorFramework c) {
        return ZkMachineIdLease.builder(c).serverTickTime(TICK).path("/exact").maxMachineId(31);
    }

    @Test
    void aSecondClaimerOfTheSameIdFailsNamingTheFirst() throws Exception {
        ZkMachineIdLease first = builder(client()).owner("first-instance").machineId(5).acquire();
        cleanup.add(first);
        assertEquals(5, first.machineId(), "the exact id, not the lowest free one (0)");
        assertFalse(first.reclaimsAnyId(), "an exact id never moves to another id");
        assertTrue(first.isHeld());

        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> builder(client()).owner("second-instance").machineId(5).acquire());
        String m = e.getMessage();
        assertTrue(m.startsWith("Machine id 5 under /exact/leases is held by owner=first-instance"), m);
        assertTrue(m.contains("ZooKeeper session 0x"), m);

        ZkMachineIdLease other = builder(client()).owner("third").acquire();
        cleanup.add(other);
        assertEquals(0, other.machineId(), "a lease without an exact id still takes the lowest free");
        assertTrue(other.reclaimsAnyId());
    }

    @Test
    void anIdOutsideTheRangeIsRefusedBeforeAnyClaim() throws Exception {
        CuratorFramework c = client();
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> builder(c).machineId(-1));
        assertEquals("machineId = -1 is negative; allowed: 0..maxMachineId (default 1023)", negative.getMessage());
        IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
                () -> builder(c).machineId(32).acquire());
        assertEquals("machineId = 32 is above maxMachineId = 31; allowed: 0..31", above.getMessage());
        assertEquals(null, c.checkExists().forPath("/exact/leases/32"), "nothing was claimed");
    }

    @Test
    void theIdIsFreeAgainOnceItsHolderIsClosed() throws Exception {
        ZkMachineIdLease a = builder(client()).owner("a").machineId(7).acquire();
        a.close();
        ZkMachineIdLease b = builder(client()).owner("b").machineId(7).acquire();
        cleanup.add(b);
        assertEquals(7, b.machineId());
        assertTrue(b.isHeld());
    }
}
