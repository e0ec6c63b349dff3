package dev.idgen.spring.boot;

import dev.idgen.lease.redis.RedisMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;

/** {@code idgen.machine-id.source=redis}; loaded only when idgen-redis and Lettuce are present. */
final class RedisLeases {

    static final String NEEDS = "idgen.machine-id.source=redis needs idgen.machine-id.redis.url"
            + " (redis://host:port/database) or a RedisClient or StatefulRedisConnection<String, String> bean";

    private RedisLeases() {
    }

    static RedisClient client(IdgenProperties.Redis p) {
        try {
            return RedisClient.create(p.getUrl());
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.redis.url=" + redact(p.getUrl())
                    + " is not a Redis URI; allowed: redis://[user:password@]host[:port][/database], or rediss:// for"
                    + " TLS: " + e.getMessage(), e);
        }
    }

    /**
     * The connection the lease uses: the application's own {@code StatefulRedisConnection<String, String>}
     * bean if it has one (left to the application to close), else a new one from the client (closed at
     * shutdown, after the lease).
     *
     * @param ownClient whether {@code client} is the application's bean rather than the starter's for
     *     {@code idgen.machine-id.redis.url}, for the message when Redis does not answer
     */
    static LeaseConnection connect(IdgenProperties.MachineId m, StatefulRedisConnection<String, String> own,
            RedisClient client, boolean ownClient) {
        if (own != null) {
            return new LeaseConnection(own, false);
        }
        if (client == null) {
            throw new IdgenConfigurationException(NEEDS);
        }
        try {
            return new LeaseConnection(client.connect(), true);
        } catch (RedisException e) {
            String url = m.getRedis().getUrl();
            throw StoreFailures.unreachable(StoreFailures.use(m, "redis"), "Redis", ownClient
                    ? "the application's RedisClient bean" : "idgen.machine-id.redis.url=" + redact(url),
                    "could not be connected to: " + e.getMessage(), e);
        }
    }

    static MachineIdLease acquire(IdgenProperties.Redis p, SnowflakeLayout layout, LeaseConnection connection,
            boolean reclaimAnyId) {
        RedisMachineIdLease.Builder b = builder(p, layout, connection).reclaimAnyId(reclaimAnyId);
        try {
            return claim(b); // closed (released) by Spring at shutdown, before the connection
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=redis: no machine id could be claimed"
                    + " under key prefix " + p.getKeyPrefix() + ": " + e.getMessage(), e);
        }
    }

    /** Claims exactly {@code id} (from fixed, env or pod-ordinal); renewed and fenced, never moved. */
    static MachineIdLease acquireExact(IdgenProperties.Redis p, SnowflakeLayout layout, LeaseConnection connection,
            long id) {
        return claim(builder(p, layout, connection).machineId(id));
    }

    /** Acquires; a Redis refused for its eviction policy is refused naming the starter's property for the opt-in. */
    private static MachineIdLease claim(RedisMachineIdLease.Builder b) {
        try {
            return b.acquire();
        } catch (MachineIdLeaseException e) {
            String m = e.getMessage();
            if (m != null && m.contains("acceptEviction(true)")) {
                throw new MachineIdLeaseException(m.replace("acceptEviction(true)",
                        "idgen.machine-id.redis.accept-eviction=true"), e);
            }
            throw e;
        }
    }

    private static RedisMachineIdLease.Builder builder(IdgenProperties.Redis p, SnowflakeLayout layout,
            LeaseConnection connection) {
        RedisMachineIdLease.Builder b = RedisMachineIdLease.builder(connection.connection)
                .acceptEviction(p.isAcceptEviction());
        Setting.apply("idgen.machine-id.redis", ".key-prefix", p.getKeyPrefix(), () -> b.keyPrefix(p.getKeyPrefix()));
        return LeaseBuilders.configure(b, "redis", p, layout, true);
    }

    /** A Redis URI without its password, for messages. */
    static String redact(String url) {
        return url == null ? null : url.replaceAll("(?<=//)[^@/]*@", "***@");
    }

    /** The lease's connection, closed at shutdown if the starter opened it. */
    static final class LeaseConnection implements AutoCloseable {
        final StatefulRedisConnection<String, String> connection;
        private final boolean opened;

        LeaseConnection(StatefulRedisConnection<String, String> connection, boolean opened) {
            this.connection = connection;
            this.opened = opened;
        }

        @Override
        public void close() {
            if (opened) {
                connection.close();
            }
        }
    }
}
