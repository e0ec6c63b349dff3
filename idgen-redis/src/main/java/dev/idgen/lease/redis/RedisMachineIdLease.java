package dev.idgen.lease.redis;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.text.Quote;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine id leased from Redis, for one generator: the lease life of {@link StoreLease} on
 * records kept in Redis hashes, read and written by Lua scripts, judged by Redis's {@code TIME}.
 *
 * <pre>{@code
 * RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
 * StatefulRedisConnection<String, String> connection = client.connect(); // the lease's own
 * RedisMachineIdLease lease = RedisMachineIdLease.builder(connection)
 *         .keyPrefix("idgen:orders:").layout(SnowflakeLayout.TWITTER)
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p>The keys of prefix {@code p} are {@code {p}namespace} and {@code {p}<id>}, one hash slot for
 * all. None carries a time to live: Redis keeps every record until the lease writes it again, so a
 * record that is gone was lost (a flush, a restart without persistence, an eviction), and the
 * lease then waits until no earlier holder can still stamp ({@code docs/lease-redis.md}).
 */
public final class RedisMachineIdLease extends StoreLease {

    private static final Logger LOG = LoggerFactory.getLogger(RedisMachineIdLease.class);

    private final RedisLeaseStore store;

    private RedisMachineIdLease(Builder builder, RedisLeaseStore store) {
        super(builder, store);
        this.store = store;
    }

    /**
     * A builder for leases on the Redis behind {@code connection}. Give the lease a connection of its
     * own (or one without blocking commands): a renewal queued behind a slow command is late.
     *
     * @param connection a connection to the Redis primary; the lease never closes it
     * @return a new builder
     */
    public static Builder builder(StatefulRedisConnection<String, String> connection) {
        return new Builder(connection);
    }

    /** {@return the Redis key of the record of the machine id in force} */
    public String key() {
        return store.idKey(machineId());
    }

    /** {@return the records' store, for tests} */
    RedisLeaseStore store() {
        return store;
    }

    /** Configures and acquires a {@link RedisMachineIdLease}; the settings every lease shares are {@link LeaseBuilder}'s. */
    public static final class Builder extends LeaseBuilder<Builder, RedisMachineIdLease> {
        private final StatefulRedisConnection<String, String> connection;
        private String keyPrefix = "idgen:lease:";
        private boolean acceptEviction;

        private Builder(StatefulRedisConnection<String, String> connection) {
            this.connection = Objects.requireNonNull(connection, "connection");
        }

        /**
         * @param prefix what the keys of this machine-id space start with inside their hash tag,
         *     e.g. {@code "idgen:orders:"} for the keys {@code {idgen:orders:}namespace} and
         *     {@code {idgen:orders:}7}; one prefix per ID space (per service); default
         *     {@code "idgen:lease:"}
         * @return this builder
         * @throws IllegalArgumentException if the prefix is blank or holds a brace (the lease makes the
         *     hash tag of it)
         */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            if (prefix.isBlank() || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
                throw new IllegalArgumentException("keyPrefix " + Quote.of(prefix) + " is blank or holds a brace;"
                        + " give the service's own prefix without braces, e.g. \"idgen:orders:\" (the lease puts it in"
                        + " braces itself, as the hash tag of all its keys)");
            }
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * Accepts a Redis whose {@code maxmemory-policy} is an {@code allkeys-*} one, which may evict
         * lease records under memory pressure. By default such a server is refused at build time. A
         * lease whose record was evicted finds it gone and stops making IDs, and the id's next claim
         * waits one ttl: no ID repeats, but IDs stop for a while whenever Redis is full. Policies
         * that evict only keys with a time to live ({@code volatile-*}) and {@code noeviction} never
         * touch the lease's keys and need no opt-in.
         *
         * @param accept default {@code false}
         * @return this builder
         */
        public Builder acceptEviction(boolean accept) {
            this.acceptEviction = accept;
            return this;
        }

        /**
         * Checks the server (its eviction policy, keys of the lease before 0.1.0 under the prefix) and
         * makes the lease on it.
         *
         * @throws MachineIdLeaseException naming the policy and {@link #acceptEviction(boolean)}, or the
         *     old keys; or when Redis does not answer
         */
        @Override
        protected RedisMachineIdLease newLease() {
            RedisLeaseStore store = new RedisLeaseStore(connection, keyPrefix, clock(), timings(true).callTimeout());
            String policy;
            boolean oldKeys;
            try {
                policy = store.evictionPolicy();
                oldKeys = store.hasKeysOfTheOldLease();
            } catch (Exception e) {
                throw new MachineIdLeaseException("Could not check the Redis " + store.describe() + ": " + e, e);
            }
            if (policy == null) {
                LOG.warn("Redis refused CONFIG GET maxmemory-policy (a managed service?): the lease {} cannot tell"
                        + " whether Redis may evict its records. Make sure the policy is noeviction or volatile-*; an"
                        + " allkeys-* policy can evict a record, which stops IDs for a ttl", store.describe());
            } else if (policy.startsWith("allkeys-") && !acceptEviction) {
                throw new MachineIdLeaseException("Redis runs maxmemory-policy " + policy + ", which may evict the"
                        + " lease's records (they have no time to live) " + store.describe() + "; a lease whose record"
                        + " was evicted stops making IDs for up to a ttl. Use noeviction or a volatile-* policy, a"
                        + " Redis of its own for the leases, or accept it with acceptEviction(true)");
            }
            if (oldKeys) {
                throw new MachineIdLeaseException("Keys of the Redis lease before 0.1.0 exist under key prefix "
                        + keyPrefix + " (" + keyPrefix + "{0}:token, " + keyPrefix + "{0}:mark): leases of both"
                        + " versions on one prefix would hand out the same machine ids. Stop every holder of the old"
                        + " version first, then delete its keys (" + keyPrefix + "{<id>}, ...:token, ...:mark) or give"
                        + " this version another prefix");
            }
            return new RedisMachineIdLease(this, store);
        }
    }
}
