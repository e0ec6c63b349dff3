package dev.idgen.spring.boot;

import dev.idgen.lease.zookeeper.ZkMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** {@code idgen.machine-id.source=zookeeper}; loaded only when idgen-zookeeper is present. */
final class ZooKeeperLeases {

    private ZooKeeperLeases() {
    }

    /** The starter's client for {@code idgen.machine-id.zookeeper.connect-string}, connected, or the failure naming it. */
    static CuratorFramework connect(IdgenProperties.MachineId m) {
        IdgenProperties.Zookeeper p = m.getZookeeper();
        int session = Math.toIntExact(p.getSessionTimeout().toMillis());
        int wait = Math.min(session, 15_000);
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(p.getConnectString())
                .sessionTimeoutMs(session).connectionTimeoutMs(wait)
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).build();
        client.start();
        awaitConnection(m, client, wait, "idgen.machine-id.zookeeper.connect-string=" + p.getConnectString(),
                " (idgen.machine-id.zookeeper.session-timeout bounds the wait, at most 15 s)", true);
        return client;
    }

    /**
     * Waits, up to the client's own connection timeout, until the application's started
     * {@code CuratorFramework} bean is connected, so that a ZooKeeper that does not answer fails the
     * start naming the bean; a client that is not started is left to the lease, which names that.
     */
    static void requireConnected(IdgenProperties.MachineId m, CuratorFramework client) {
        if (client.getState() == CuratorFrameworkState.STARTED) {
            awaitConnection(m, client, client.getZookeeperClient().getConnectionTimeoutMs(),
                    "the application's CuratorFramework bean", "", false);
        }
    }

    /** @param ours whether the starter made the client (and so closes it when it fails) */
    private static void awaitConnection(IdgenProperties.MachineId m, CuratorFramework client, int millis,
            String setting, String bound, boolean ours) {
        boolean connected;
        try {
            connected = client.blockUntilConnected(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected && ours) {
            client.close();
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new IdgenConfigurationException("interrupted while connecting to ZooKeeper at " + setting);
        }
        if (!connected) {
            throw StoreFailures.unreachable(StoreFailures.use(m, "zookeeper"), "ZooKeeper", setting,
                    "gave no answer within " + millis + " ms" + bound, null);
        }
    }

    static MachineIdLease acquire(IdgenProperties.Zookeeper p, SnowflakeLayout layout, CuratorFramework client,
            boolean reclaimAnyId) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.source=zookeeper needs"
                    + " idgen.machine-id.zookeeper.connect-string (host:port,...) or a CuratorFramework bean");
        }
        ZkMachineIdLease.Builder b = builder(p, layout, client).reclaimAnyId(reclaimAnyId);
        try {
            return b.acquire(); // closed (released) by Spring at shutdown, before the client it uses
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=zookeeper: no machine id could be claimed"
                    + " under " + p.getPath() + ": " + e.getMessage(), e);
        }
    }

    /** Claims exactly {@code id} (from fixed, env or pod-ordinal); renewed and fenced, never moved. */
    static MachineIdLease acquireExact(IdgenProperties.Zookeeper p, SnowflakeLayout layout, CuratorFramework client,
            long id) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.check-with=zookeeper needs"
                    + " idgen.machine-id.zookeeper.connect-string (host:port,...) or a CuratorFramework bean");
        }
        return builder(p, layout, client).machineId(id).acquire();
    }

    private static ZkMachineIdLease.Builder builder(IdgenProperties.Zookeeper p, SnowflakeLayout layout,
            CuratorFramework client) {
        ZkMachineIdLease.Builder b = ZkMachineIdLease.builder(client);
        Setting.apply("idgen.machine-id.zookeeper", ".path", p.getPath(), () -> b.path(p.getPath()));
        return LeaseBuilders.configure(b, "zookeeper", p, layout, true);
    }
}
