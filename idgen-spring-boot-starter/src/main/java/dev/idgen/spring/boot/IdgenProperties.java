package dev.idgen.spring.boot;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code idgen.*} properties.
 *
 * <pre>
 * idgen.machine-id.source=jdbc              # fixed | env | pod-ordinal | jdbc | zookeeper | redis | etcd (required)
 * idgen.snowflake.layout=twitter            # twitter | discord | instagram | sonyflake | custom
 * idgen.snowflake.field-order=             # the layout's own, or time-machine-sequence | time-sequence-machine | machine-time-sequence
 * idgen.snowflake.clock-backwards=wait      # wait | refuse | run-ahead
 * idgen.snowflake.clock-backwards-max=5ms
 * </pre>
 */
@ConfigurationProperties("idgen")
public class IdgenProperties {

    private final Snowflake snowflake = new Snowflake();
    private final MachineId machineId = new MachineId();
    private final UuidV7 uuidV7 = new UuidV7();
    private final Health health = new Health();
    private final Readiness readiness = new Readiness();

    /** Creates the properties with their defaults. */
    public IdgenProperties() {
    }

    /** {@return the Snowflake generator's properties} */
    public Snowflake getSnowflake() {
        return snowflake;
    }

    /** {@return where the Snowflake generator's machine id comes from} */
    public MachineId getMachineId() {
        return machineId;
    }

    /** {@return the UUIDv7 generator's properties} */
    public UuidV7 getUuidV7() {
        return uuidV7;
    }

    /** {@return the health indicator's properties} */
    public Health getHealth() {
        return health;
    }

    /** {@return the readiness properties} */
    public Readiness getReadiness() {
        return readiness;
    }

    /** What a time-ordered generator does when the clock reads earlier than its last tick. */
    public enum ClockBackwards {
        /** Spin until the clock is back, up to the bound; further behind, refuse. */
        WAIT,
        /** Throw {@code ClockMovedBackwardsException} at once. */
        REFUSE,
        /** Carry on from the last tick, up to the bound ahead of the clock; further, refuse. */
        RUN_AHEAD
    }

    /** Where the machine id comes from. */
    public enum Source {
        /** {@code idgen.machine-id.value}. */
        FIXED,
        /** An environment variable holding the number ({@code idgen.machine-id.variable}, default {@code MACHINE_ID}). */
        ENV,
        /** The ordinal of a StatefulSet pod whose name is in {@code idgen.machine-id.variable} (default {@code HOSTNAME}). */
        POD_ORDINAL,
        /** A lease on a table in the application's {@code DataSource} (idgen-jdbc). */
        JDBC,
        /** A lease on ZooKeeper (idgen-zookeeper). */
        ZOOKEEPER,
        /** A lease on Redis (idgen-redis, Lettuce). */
        REDIS,
        /** A lease on etcd (idgen-etcd, jetcd). */
        ETCD
    }

    /** Where a machine id from {@code fixed}, {@code env} or {@code pod-ordinal} is claimed, so two processes cannot share it. */
    public enum CheckWith {
        /**
         * The first store the application has: {@code jdbc} (idgen-jdbc and a DataSource), {@code redis}
         * ({@code idgen.machine-id.redis.url}), {@code zookeeper} ({@code idgen.machine-id.zookeeper.connect-string}),
         * {@code etcd} ({@code idgen.machine-id.etcd.endpoints}), each with its idgen module and client on the
         * classpath; else {@code none}.
         */
        AUTO,
        /** Claim the id exactly in the lease table {@code idgen.machine-id.jdbc.*} of the application's DataSource. */
        JDBC,
        /** Claim the id exactly under {@code idgen.machine-id.redis.key-prefix} (the url, or the application's client). */
        REDIS,
        /** Claim the id exactly under {@code idgen.machine-id.zookeeper.path}. */
        ZOOKEEPER,
        /** Claim the id exactly under {@code idgen.machine-id.etcd.namespace}. */
        ETCD,
        /** Nothing checks the id; the starter warns once at start and health shows {@code machineIdChecked: false}. */
        NONE
    }

    /** {@code idgen.snowflake.*}. */
    public static class Snowflake {
        /** Whether to make a SnowflakeGenerator bean (and so require a machine id). */
        private boolean enabled = true;
        /** A preset layout (twitter, discord, instagram, sonyflake), or custom to use the bits below. */
        private String layout = "twitter";
        /**
         * The order of the layout's fields, high bits first, when not the layout's own:
         * time-machine-sequence, time-sequence-machine, or machine-time-sequence (the machine id on
         * top: fuller InnoDB pages with many writers, no time order across machines).
         */
        private String fieldOrder;
        /** Custom layout: bits of the tick count. */
        private Integer timestampBits;
        /** Custom layout: bits of the machine id. */
        private Integer machineBits;
        /** Custom layout: bits of the per-tick sequence. */
        private Integer sequenceBits;
        /** Custom layout: the instant of tick 0. */
        private Instant epoch;
        /** Custom layout: the length of one tick, a whole number of milliseconds. */
        private Duration tick = Duration.ofMillis(1);
        /** What to do when the clock steps back. */
        private ClockBackwards clockBackwards = ClockBackwards.WAIT;
        /** How far back the clock may be before the generator refuses (wait: at most 10 s; run-ahead: at most 1 day). */
        private Duration clockBackwardsMax = Duration.ofMillis(5);

        /** Creates the defaults. */
        public Snowflake() {
        }

        /** {@return whether the bean is made} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the bean is made.
         *
         * @param enabled whether the bean is made
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the layout name} */
        public String getLayout() {
            return layout;
        }

        /**
         * Sets a preset name or {@code custom}.
         *
         * @param layout a preset name or {@code custom}
         */
        public void setLayout(String layout) {
            this.layout = layout;
        }

        /** {@return the field order asked for, or null for the layout's own} */
        public String getFieldOrder() {
            return fieldOrder;
        }

        /**
         * Sets the field order, high bits first.
         *
         * @param fieldOrder {@code time-machine-sequence}, {@code time-sequence-machine} or
         *     {@code machine-time-sequence}; null or blank for the layout's own
         */
        public void setFieldOrder(String fieldOrder) {
            this.fieldOrder = fieldOrder;
        }

        /** {@return custom timestamp bits} */
        public Integer getTimestampBits() {
            return timestampBits;
        }

        /**
         * Sets custom timestamp bits.
         *
         * @param timestampBits custom timestamp bits
         */
        public void setTimestampBits(Integer timestampBits) {
            this.timestampBits = timestampBits;
        }

        /** {@return custom machine bits} */
        public Integer getMachineBits() {
            return machineBits;
        }

        /**
         * Sets custom machine bits.
         *
         * @param machineBits custom machine bits
         */
        public void setMachineBits(Integer machineBits) {
            this.machineBits = machineBits;
        }

        /** {@return custom sequence bits} */
        public Integer getSequenceBits() {
            return sequenceBits;
        }

        /**
         * Sets custom sequence bits.
         *
         * @param sequenceBits custom sequence bits
         */
        public void setSequenceBits(Integer sequenceBits) {
            this.sequenceBits = sequenceBits;
        }

        /** {@return the custom epoch} */
        public Instant getEpoch() {
            return epoch;
        }

        /**
         * Sets the custom epoch.
         *
         * @param epoch the custom epoch
         */
        public void setEpoch(Instant epoch) {
            this.epoch = epoch;
        }

        /** {@return the custom tick} */
        public Duration getTick() {
            return tick;
        }

        /**
         * Sets the custom tick.
         *
         * @param tick the custom tick
         */
        public void setTick(Duration tick) {
            this.tick = tick;
        }

        /** {@return the clock-backwards policy} */
        public ClockBackwards getClockBackwards() {
            return clockBackwards;
        }

        /**
         * Sets the clock-backwards policy.
         *
         * @param clockBackwards the clock-backwards policy
         */
        public void setClockBackwards(ClockBackwards clockBackwards) {
            this.clockBackwards = clockBackwards;
        }

        /** {@return the policy's bound} */
        public Duration getClockBackwardsMax() {
            return clockBackwardsMax;
        }

        /**
         * Sets the policy's bound.
         *
         * @param clockBackwardsMax the policy's bound
         */
        public void setClockBackwardsMax(Duration clockBackwardsMax) {
            this.clockBackwardsMax = clockBackwardsMax;
        }
    }

    /** {@code idgen.machine-id.*}. */
    public static class MachineId {
        /** Where the machine id comes from: fixed, env, pod-ordinal, jdbc, zookeeper, redis or etcd. Required for the Snowflake generator. */
        private Source source;
        /** The machine id, for source fixed. */
        private Long value;
        /** The environment variable, for source env (default MACHINE_ID) or pod-ordinal (default HOSTNAME). */
        private String variable;
        /**
         * Whether a lease whose id another holder took (after a pause or a cut-off longer than the ttl)
         * claims any free id and carries the generator on under it; false waits for its own id.
         */
        private boolean reclaimAnyId = true;
        /**
         * Where an id from fixed, env or pod-ordinal is claimed exactly (renewed and fenced like a
         * leased id), so a second process on the same id fails at start: auto, jdbc or none.
         */
        private CheckWith checkWith = CheckWith.AUTO;
        private final Jdbc jdbc = new Jdbc();
        private final Zookeeper zookeeper = new Zookeeper();
        private final Redis redis = new Redis();
        private final Etcd etcd = new Etcd();

        /** Creates the defaults. */
        public MachineId() {
        }

        /** {@return the source, or null when not configured} */
        public Source getSource() {
            return source;
        }

        /**
         * Sets the source.
         *
         * @param source the source
         */
        public void setSource(Source source) {
            this.source = source;
        }

        /** {@return the fixed id} */
        public Long getValue() {
            return value;
        }

        /**
         * Sets the fixed id.
         *
         * @param value the fixed id
         */
        public void setValue(Long value) {
            this.value = value;
        }

        /** {@return the environment variable} */
        public String getVariable() {
            return variable;
        }

        /**
         * Sets the environment variable.
         *
         * @param variable the environment variable
         */
        public void setVariable(String variable) {
            this.variable = variable;
        }

        /** {@return whether a lease whose id was taken claims any free id} */
        public boolean isReclaimAnyId() {
            return reclaimAnyId;
        }

        /**
         * Sets whether a lease whose id was taken claims any free id.
         *
         * @param reclaimAnyId false to wait for the lease's own id
         */
        public void setReclaimAnyId(boolean reclaimAnyId) {
            this.reclaimAnyId = reclaimAnyId;
        }

        /** {@return where an id from configuration or the environment is claimed} */
        public CheckWith getCheckWith() {
            return checkWith;
        }

        /**
         * Sets where an id from configuration or the environment is claimed.
         *
         * @param checkWith auto, jdbc or none
         */
        public void setCheckWith(CheckWith checkWith) {
            this.checkWith = checkWith;
        }

        /** {@return the JDBC lease's properties} */
        public Jdbc getJdbc() {
            return jdbc;
        }

        /** {@return the ZooKeeper lease's properties} */
        public Zookeeper getZookeeper() {
            return zookeeper;
        }

        /** {@return the Redis lease's properties} */
        public Redis getRedis() {
            return redis;
        }

        /** {@return the etcd lease's properties} */
        public Etcd getEtcd() {
            return etcd;
        }
    }

    /**
     * What every lease store takes ({@code idgen.machine-id.<store>.*}): the timings, and the range of
     * machine ids this store hands out.
     */
    public abstract static class TimedLease {
        /** How long a claim or renewal lasts, by the store's clock. */
        private Duration ttl = Duration.ofSeconds(30);
        /** The pause between renewals; default a fifth of the TTL. */
        private Duration renewEvery;
        /** How far before its expiry, less the clock-skew bound, a holder stops making IDs; default a tenth of the TTL. */
        private Duration safetyMargin;
        /**
         * The largest difference allowed between this process's clock and the store's (for etcd, which shows
         * no clock: between each holder's clock and true time, and counted twice); default 1s.
         */
        private Duration maxClockSkew;
        /**
         * The smallest machine id this store hands out. With max-machine-id, the range of this store when
         * two stores serve one ID space (a move from one store to another): give each a range of its own.
         */
        private long minMachineId;
        /** The largest machine id this store hands out; default the layout's largest. */
        private Long maxMachineId;

        /** Creates the defaults. */
        protected TimedLease() {
        }

        /** {@return the TTL} */
        public Duration getTtl() {
            return ttl;
        }

        /**
         * Sets the TTL.
         *
         * @param ttl the TTL
         */
        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }

        /** {@return the renewal pause, or null for a fifth of the TTL} */
        public Duration getRenewEvery() {
            return renewEvery;
        }

        /**
         * Sets the renewal pause.
         *
         * @param renewEvery the renewal pause
         */
        public void setRenewEvery(Duration renewEvery) {
            this.renewEvery = renewEvery;
        }

        /** {@return the safety margin, or null for a tenth of the TTL} */
        public Duration getSafetyMargin() {
            return safetyMargin;
        }

        /**
         * Sets the safety margin.
         *
         * @param safetyMargin the safety margin
         */
        public void setSafetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
        }

        /** {@return the clock-skew bound, or null for the lease's default (1 s)} */
        public Duration getMaxClockSkew() {
            return maxClockSkew;
        }

        /**
         * Sets the clock-skew bound.
         *
         * @param maxClockSkew the clock-skew bound
         */
        public void setMaxClockSkew(Duration maxClockSkew) {
            this.maxClockSkew = maxClockSkew;
        }

        /** {@return the smallest machine id handed out} */
        public long getMinMachineId() {
            return minMachineId;
        }

        /**
         * Sets the smallest machine id handed out.
         *
         * @param minMachineId the smallest machine id
         */
        public void setMinMachineId(long minMachineId) {
            this.minMachineId = minMachineId;
        }

        /** {@return the largest machine id handed out, or null for the layout's largest} */
        public Long getMaxMachineId() {
            return maxMachineId;
        }

        /**
         * Sets the largest machine id handed out.
         *
         * @param maxMachineId the largest machine id
         */
        public void setMaxMachineId(Long maxMachineId) {
            this.maxMachineId = maxMachineId;
        }
    }

    /** {@code idgen.machine-id.jdbc.*}. */
    public static class Jdbc extends TimedLease {
        /** The lease table. */
        private String table = "idgen_machine_lease";
        /** Whether to create the lease table if it does not exist. */
        private boolean createTable = true;

        /** Creates the defaults. */
        public Jdbc() {
        }

        /** {@return the table} */
        public String getTable() {
            return table;
        }

        /**
         * Sets the table.
         *
         * @param table the table
         */
        public void setTable(String table) {
            this.table = table;
        }

        /** {@return whether the table is created} */
        public boolean isCreateTable() {
            return createTable;
        }

        /**
         * Sets whether the table is created.
         *
         * @param createTable whether the table is created
         */
        public void setCreateTable(boolean createTable) {
            this.createTable = createTable;
        }
    }

    /** {@code idgen.machine-id.redis.*}. */
    public static class Redis extends TimedLease {
        /**
         * The Redis server, as a Lettuce URI (redis://[user:password@]host[:port][/database], rediss:// for
         * TLS), used unless the application has a StatefulRedisConnection or RedisClient bean.
         */
        private String url;
        /** The start of every key the lease uses; one prefix per machine-id space (per service). */
        private String keyPrefix = "idgen:lease:";
        /**
         * Whether to start on a Redis whose maxmemory-policy is an allkeys-* one, which may evict the lease's
         * records: no ID repeats, but IDs stop for up to a TTL after an eviction. Refused at start unless true.
         */
        private boolean acceptEviction;

        /** Creates the defaults. */
        public Redis() {
        }

        /** {@return the Redis URI, or null} */
        public String getUrl() {
            return url;
        }

        /**
         * Sets the Redis URI.
         *
         * @param url the Redis URI
         */
        public void setUrl(String url) {
            this.url = url;
        }

        /** {@return the key prefix} */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /**
         * Sets the key prefix.
         *
         * @param keyPrefix the key prefix
         */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /** {@return whether a Redis that may evict the lease's records is accepted} */
        public boolean isAcceptEviction() {
            return acceptEviction;
        }

        /**
         * Sets whether a Redis that may evict the lease's records is accepted.
         *
         * @param acceptEviction true to start on an allkeys-* maxmemory-policy
         */
        public void setAcceptEviction(boolean acceptEviction) {
            this.acceptEviction = acceptEviction;
        }
    }

    /** {@code idgen.machine-id.etcd.*}. */
    public static class Etcd extends TimedLease {
        /** The etcd members' client URLs (http://host:2379,...), used unless the application has a jetcd Client bean. */
        private List<String> endpoints = new ArrayList<>();
        /** The key prefix of this machine-id space, without a trailing slash. */
        private String namespace = "/idgen/machine-ids";

        /** Creates the defaults. */
        public Etcd() {
        }

        /** {@return the endpoints, empty when not configured} */
        public List<String> getEndpoints() {
            return endpoints;
        }

        /**
         * Sets the endpoints.
         *
         * @param endpoints the endpoints
         */
        public void setEndpoints(List<String> endpoints) {
            this.endpoints = endpoints;
        }

        /** {@return the namespace} */
        public String getNamespace() {
            return namespace;
        }

        /**
         * Sets the namespace.
         *
         * @param namespace the namespace
         */
        public void setNamespace(String namespace) {
            this.namespace = namespace;
        }
    }

    /** {@code idgen.machine-id.zookeeper.*}. */
    public static class Zookeeper extends TimedLease {
        /** The ZooKeeper connect string (host:port,...), used unless the application has a CuratorFramework bean. */
        private String connectString;
        /** The lease's base path. */
        private String path = "/idgen";
        /**
         * The session timeout of the Curator client made from the connect string: only the connection's; the
         * lease's timings are its ttl and renew-every.
         */
        private Duration sessionTimeout = Duration.ofSeconds(15);

        /** Creates the defaults. */
        public Zookeeper() {
        }

        /** {@return the connect string} */
        public String getConnectString() {
            return connectString;
        }

        /**
         * Sets the connect string.
         *
         * @param connectString the connect string
         */
        public void setConnectString(String connectString) {
            this.connectString = connectString;
        }

        /** {@return the base path} */
        public String getPath() {
            return path;
        }

        /**
         * Sets the base path.
         *
         * @param path the base path
         */
        public void setPath(String path) {
            this.path = path;
        }

        /** {@return the session timeout} */
        public Duration getSessionTimeout() {
            return sessionTimeout;
        }

        /**
         * Sets the session timeout.
         *
         * @param sessionTimeout the session timeout
         */
        public void setSessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
        }
    }

    /** {@code idgen.uuid-v7.*}. */
    public static class UuidV7 {
        /** Whether UUIDs from one generator strictly increase (a counter within the millisecond). */
        private boolean monotonic = true;
        /** What a monotonic generator does when the clock steps back. */
        private ClockBackwards clockBackwards = ClockBackwards.RUN_AHEAD;
        /** The policy's bound. */
        private Duration clockBackwardsMax = Duration.ofSeconds(10);

        /** Creates the defaults. */
        public UuidV7() {
        }

        /** {@return whether monotonic} */
        public boolean isMonotonic() {
            return monotonic;
        }

        /**
         * Sets whether monotonic.
         *
         * @param monotonic whether monotonic
         */
        public void setMonotonic(boolean monotonic) {
            this.monotonic = monotonic;
        }

        /** {@return the clock-backwards policy} */
        public ClockBackwards getClockBackwards() {
            return clockBackwards;
        }

        /**
         * Sets the clock-backwards policy.
         *
         * @param clockBackwards the clock-backwards policy
         */
        public void setClockBackwards(ClockBackwards clockBackwards) {
            this.clockBackwards = clockBackwards;
        }

        /** {@return the policy's bound} */
        public Duration getClockBackwardsMax() {
            return clockBackwardsMax;
        }

        /**
         * Sets the policy's bound.
         *
         * @param clockBackwardsMax the policy's bound
         */
        public void setClockBackwardsMax(Duration clockBackwardsMax) {
            this.clockBackwardsMax = clockBackwardsMax;
        }
    }

    /** {@code idgen.health.*}. */
    public static class Health {
        /** How long after a refused clock the health stays OUT_OF_SERVICE (and readiness refuses traffic). */
        private Duration refusalWindow = Duration.ofSeconds(30);

        /** Creates the defaults. */
        public Health() {
        }

        /** {@return the window} */
        public Duration getRefusalWindow() {
            return refusalWindow;
        }

        /**
         * Sets the window.
         *
         * @param refusalWindow the window
         */
        public void setRefusalWindow(Duration refusalWindow) {
            this.refusalWindow = refusalWindow;
        }
    }

    /** {@code idgen.readiness.*}. */
    public static class Readiness {
        /**
         * Whether the application refuses traffic (readiness REFUSING_TRAFFIC, liveness unchanged) while
         * a generator cannot make IDs: the machine-id lease fenced or claiming again, or a clock refusal
         * within idgen.health.refusal-window.
         */
        private boolean enabled = true;
        /** How often a daemon thread compares the generators' state with the readiness state (10ms..10s). */
        private Duration checkEvery = Duration.ofMillis(250);

        /** Creates the defaults. */
        public Readiness() {
        }

        /** {@return whether readiness follows the generators} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether readiness follows the generators.
         *
         * @param enabled whether readiness follows the generators
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the period of the check} */
        public Duration getCheckEvery() {
            return checkEvery;
        }

        /**
         * Sets the period of the check.
         *
         * @param checkEvery the period, 10 ms to 10 s
         */
        public void setCheckEvery(Duration checkEvery) {
            this.checkEvery = checkEvery;
        }
    }
}
