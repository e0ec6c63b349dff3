package dev.idgen.lease.zookeeper;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.text.Quote;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.utils.PathUtils;

/**
 * A machine id leased from ZooKeeper through Apache Curator, for one generator.
 *
 * <pre>{@code
 * ZkMachineIdLease lease = ZkMachineIdLease.builder(curator).path("/idgen/orders").acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p>The life of the lease is {@link StoreLease}'s, the same on every store; ZooKeeper keeps its
 * records. Each is a persistent znode: {@code <path>/ids/<n>} per machine id and
 * {@code <path>/namespace} once per path, written with versioned {@code setData} (the
 * compare-and-set) and, to create the records of new ids, one multi-op. The store's clock is the
 * leader's: the {@code mtime} of a write to {@code <path>/clock}. Nothing is ephemeral and no
 * session decides who holds an id: the Curator client is only the connection, and a session that
 * expires costs at most a renewal. A holder cut off from ZooKeeper is refused by time, like on
 * every store ({@code docs/lease-safety-zookeeper.md}).
 *
 * <p>The builder takes the settings every lease takes ({@link LeaseBuilder}: ttl, renewal, skew
 * bound, layout, range, owner) and the path.
 */
public final class ZkMachineIdLease extends StoreLease {

    private ZkMachineIdLease(Builder builder, ZkLeaseStore store) {
        super(builder, store);
    }

    /**
     * A builder of leases under {@code client}, which must be started and connected. The client's
     * session timeout plays no part in the lease's timings.
     *
     * @param client a started Curator client; the lease does not close it
     * @return a new builder
     */
    public static Builder builder(CuratorFramework client) {
        return new Builder(client);
    }

    /** Configures and acquires a {@link ZkMachineIdLease}. Not thread-safe. */
    public static final class Builder extends LeaseBuilder<Builder, ZkMachineIdLease> {

        private final CuratorFramework client;
        private String path = "/idgen";

        private Builder(CuratorFramework client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param path the znode of this set of machine ids, e.g. {@code /idgen/orders}; default
         *     {@code /idgen}. Leases of one ID space share it; another ID space needs another path
         * @return this builder
         * @throws IllegalArgumentException if it is not an absolute ZooKeeper path, or is the root
         */
        public Builder path(String path) {
            Objects.requireNonNull(path, "path");
            try {
                PathUtils.validatePath(path);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("path " + Quote.of(path) + " is not a ZooKeeper path: "
                        + e.getMessage() + "; allowed: an absolute path such as /idgen/orders", e);
            }
            if (path.equals("/")) {
                throw new IllegalArgumentException("path '/' is the root; give the leases a node of their own, e.g."
                        + " /idgen/orders");
            }
            this.path = path;
            return this;
        }

        /**
         * @throws MachineIdLeaseException if the client is not started and connected, or the path
         *     holds leases of idgen before 0.1.0
         */
        @Override
        protected ZkMachineIdLease newLease() {
            if (client.getState() != CuratorFrameworkState.STARTED || !client.getZookeeperClient().isConnected()) {
                throw new MachineIdLeaseException("The Curator client is not connected to ZooKeeper; start it and wait"
                        + " until it is (blockUntilConnected) before claiming a machine id under " + path);
            }
            ZkLeaseStore store = new ZkLeaseStore(client, path, clock());
            try {
                store.refuseLeasesOfTheOldLayout();
            } catch (MachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new MachineIdLeaseException("Could not read " + path + " on ZooKeeper: " + e, e);
            }
            return new ZkMachineIdLease(this, store);
        }
    }
}
