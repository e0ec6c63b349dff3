package dev.idgen.lease.zookeeper;

import dev.idgen.testkit.lease.BlackholeProxy;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseBackend;
import dev.idgen.testkit.lease.LeaseScenarios;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's lease scenarios (churn, hand-over above the mark, fencing on loss) on a real
 * ZooKeeper server: each claimer its own Curator client behind its own silent-able proxy.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkLeaseScenariosTest {

    private static final int SESSION_MS = 3000;

    @Test
    void theSharedLeaseScenariosPass() throws Exception {
        try (TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true)) {
            LeaseScenarios.Report r = LeaseScenarios.check(
                    (name, clock) -> new ZkClaimer(server.getPort(), "/scenarios", clock), Duration.ofSeconds(20));
            assertTrue(r.loss().oldRefusals() > 0);
            assertTrue(r.loss().oldLastMillis() < r.loss().newStartMillis());
            System.out.printf("ZooKeeper lease scenarios: %s%n", r);
        }
    }

    /** One claimer: a Curator client through a proxy that {@link #cutOff()} silences. */
    private static final class ZkClaimer implements LeaseBackend.Claimer {
        private final BlackholeProxy proxy;
        private final CuratorFramework client;
        private final String path;
        private final InstantSource clock;
        private ZkMachineIdLease lease;

        ZkClaimer(int serverPort, String path, InstantSource clock) {
            this.path = path;
            this.clock = clock;
            try {
                this.proxy = new BlackholeProxy(serverPort);
                this.client = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + proxy.port())
                        .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100))
                        .build();
                client.start();
                if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("not connected to ZooKeeper");
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public FencingLease tryAcquire() {
            try {
                lease = ZkMachineIdLease.builder(client).path(path).maxMachineId(0)
                        .serverTickTime(Duration.ofMillis(200)).clock(clock).acquire();
                return lease;
            } catch (MachineIdLeaseException e) {
                return null;
            }
        }

        @Override
        public void release() {
            if (lease != null) {
                lease.close();
            }
        }

        @Override
        public void cutOff() {
            proxy.partition(true);
        }

        @Override
        public void close() {
            release();
            client.close();
            try {
                proxy.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
