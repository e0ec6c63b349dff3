package dev.idgen.spring.boot;

import dev.idgen.lease.zookeeper.ZkMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** {@code idgen.machine-id.source=zookeeper}; loaded only when idgen-zookeeper is present. */
final class ZooKeeperLeases {

    private ZooKeeperLeases() {
    }

    static CuratorFramework connect(IdgenProperties.Zookeeper p) {
        int session = Math.toIntExact(p.getSessionTimeout().toMillis());
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(p.getConnectString())
                .sessionTimeoutMs(session).connectionTimeoutMs(Math.min(session, 15_000))
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).build();
        client.start();
        try {
            if (!client.blockUntilConnected(Math.min(session, 15_000), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new IdgenConfigurationException("idgen.machine-id.zookeeper.connect-string="
                        + p.getConnectString() + ": no ZooKeeper server answered within "
                        + Math.min(session, 15_000) + " ms");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new IdgenConfigurationException("interrupted while connecting to ZooKeeper", e);
        }
        return client;
    }

    static MachineIdLease acquire(IdgenProperties.Zookeeper p, SnowflakeLayout layout, CuratorFramework client,
            boolean reclaimAnyId) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.source=zookeeper needs"
                    + " idgen.machine-id.zookeeper.connect-string (host:port,...) or a CuratorFramework bean");
        }
        try {
            ZkMachineIdLease.Builder b = ZkMachineIdLease.builder(client).path(p.getPath()).layout(layout)
                    .maxMachineId(layout.maxMachineId()).reclaimAnyId(reclaimAnyId);
            p.timings(b::ttl, b::renewEvery);
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
        ZkMachineIdLease.Builder b = ZkMachineIdLease.builder(client).path(p.getPath()).layout(layout)
                .maxMachineId(layout.maxMachineId()).machineId(id);
        p.timings(b::ttl, b::renewEvery);
        return b.acquire();
    }
}
