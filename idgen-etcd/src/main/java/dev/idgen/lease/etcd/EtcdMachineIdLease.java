package dev.idgen.lease.etcd;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.StoreLease;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.Objects;

/**
 * A machine id leased from etcd, for one generator: the lease life every store shares
 * ({@link StoreLease}) on records kept under an etcd key prefix.
 *
 * <pre>{@code
 * EtcdMachineIdLease lease = EtcdMachineIdLease.builder(client)
 *         .namespace("/idgen/machine-ids")
 *         .layout(SnowflakeLayout.TWITTER)
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p>Each record is one key, written by a transaction that compares its revision with the one
 * read, so two claimers of one id cannot both win. No key is bound to an etcd lease: the expiry is
 * a field of the record. etcd shows no clock, so the lease cannot measure how far this process's
 * clock is from the others': it assumes every holder's clock within {@code maxClockSkew} of true
 * time (run NTP) and fences with twice that bound ({@code docs/lease-etcd.md}).
 */
public final class EtcdMachineIdLease extends StoreLease {

    private EtcdMachineIdLease(Builder builder, EtcdLeaseStore store) {
        super(builder, store);
    }

    /**
     * A builder for leases under a namespace of {@code client}'s cluster.
     *
     * @param client the etcd client, closed by its owner after the lease
     * @return a new builder
     */
    public static Builder builder(Client client) {
        return new Builder(client);
    }

    /** The shortest a call to etcd may take before it counts as failed. */
    static final Duration MIN_CALL = Duration.ofSeconds(2);

    /** Configures and acquires an {@link EtcdMachineIdLease}. Not thread-safe. */
    public static final class Builder extends LeaseBuilder<Builder, EtcdMachineIdLease> {
        private final Client client;
        private String namespace = "/idgen/machine-ids";

        private Builder(Client client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param namespace the key prefix the records live under; default {@code /idgen/machine-ids}.
         *     Generators that must not share ids share a namespace.
         * @return this builder
         * @throws IllegalArgumentException if it is empty, ends with {@code /} or holds anything but
         *     printable ASCII without spaces
         */
        public Builder namespace(String namespace) {
            Objects.requireNonNull(namespace, "namespace");
            if (namespace.isEmpty() || namespace.endsWith("/") || namespace.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new IllegalArgumentException("namespace \"" + namespace.replaceAll("\\p{Cntrl}", "?")
                        + "\" must be printable ASCII without spaces, not empty, and not end with /");
            }
            this.namespace = namespace;
            return this;
        }

        @Override
        protected EtcdMachineIdLease newLease() {
            // a call waits at least 2 s: on a loaded machine an answer late is worth more than a
            // timeout and a retry, and nothing about safety rides on it (the fence is by time)
            Duration call = timings(false).callTimeout();
            return new EtcdMachineIdLease(this, new EtcdLeaseStore(client, namespace, clock(),
                    call.compareTo(MIN_CALL) < 0 ? MIN_CALL : call));
        }
    }
}
