package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIds;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns {@link IdgenProperties} into core values; every failure names the property and what is allowed. */
final class Configure {

    private static final Logger LOG = LoggerFactory.getLogger(IdgenAutoConfiguration.class);

    static final String CHOICES = "set idgen.machine-id.source to one of:\n"
            + "  fixed        the id in idgen.machine-id.value\n"
            + "  env          the id in an environment variable (idgen.machine-id.variable, default MACHINE_ID)\n"
            + "  pod-ordinal  the ordinal of a StatefulSet pod, orders-7 -> 7 (pod name in idgen.machine-id.variable,"
            + " default HOSTNAME)\n"
            + "  jdbc         a lease in a table of the application's DataSource (needs dev.idgen:idgen-jdbc)\n"
            + "  zookeeper    a lease on ZooKeeper at idgen.machine-id.zookeeper.connect-string"
            + " (needs dev.idgen:idgen-zookeeper)\n"
            + "  redis        a lease on Redis at idgen.machine-id.redis.url, or the application's RedisClient"
            + " (needs dev.idgen:idgen-redis)\n"
            + "  etcd         a lease on etcd at idgen.machine-id.etcd.endpoints, or the application's jetcd Client"
            + " (needs dev.idgen:idgen-etcd)\n"
            + "or set idgen.snowflake.enabled=false if the application makes no Snowflake ids";

    private Configure() {
    }

    static SnowflakeLayout layout(IdgenProperties.Snowflake p) {
        SnowflakeLayout layout = baseLayout(p);
        String order = p.getFieldOrder();
        if (order == null || order.isBlank()) {
            return layout;
        }
        SnowflakeLayout.FieldOrder parsed;
        try {
            parsed = SnowflakeLayout.FieldOrder.parse(order);
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.snowflake.field-order=" + order + " is not a field order;"
                    + " allowed: " + SnowflakeLayout.FieldOrder.names() + ", or unset for the layout's own", e);
        }
        try {
            return layout.withFieldOrder(parsed);
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.snowflake.field-order=" + order + " does not fit"
                    + " idgen.snowflake.layout=" + p.getLayout() + ": " + e.getMessage(), e);
        }
    }

    private static SnowflakeLayout baseLayout(IdgenProperties.Snowflake p) {
        String name = p.getLayout() == null ? "" : p.getLayout().strip().toLowerCase(Locale.ROOT);
        if (!name.equals("custom")) {
            try {
                return SnowflakeLayout.preset(name);
            } catch (IllegalArgumentException e) {
                throw new IdgenConfigurationException("idgen.snowflake.layout=" + p.getLayout()
                        + " is not a layout; allowed: twitter, discord, instagram, sonyflake, custom", e);
            }
        }
        if (p.getTimestampBits() == null || p.getMachineBits() == null || p.getSequenceBits() == null
                || p.getEpoch() == null) {
            throw new IdgenConfigurationException("idgen.snowflake.layout=custom needs idgen.snowflake.timestamp-bits,"
                    + " machine-bits, sequence-bits (adding up to 63) and epoch (an ISO-8601 instant); tick defaults"
                    + " to 1ms");
        }
        try {
            return SnowflakeLayout.custom("custom").timestampBits(p.getTimestampBits()).machineBits(p.getMachineBits())
                    .sequenceBits(p.getSequenceBits()).epoch(p.getEpoch()).tick(p.getTick()).build();
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.snowflake.* does not make a layout: " + e.getMessage(), e);
        }
    }

    static ClockBackwardsPolicy policy(String prefix, IdgenProperties.ClockBackwards kind, Duration max) {
        try {
            return switch (kind) {
                case REFUSE -> ClockBackwardsPolicy.refuse();
                case WAIT -> ClockBackwardsPolicy.waitUpTo(max);
                case RUN_AHEAD -> ClockBackwardsPolicy.runAhead(max);
            };
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException(prefix + ".clock-backwards-max=" + max + " does not fit "
                    + prefix + ".clock-backwards=" + kind.name().toLowerCase(Locale.ROOT).replace('_', '-')
                    + ": " + e.getMessage(), e);
        }
    }

    /** The sources that need no other bean; for jdbc and zookeeper, why their configuration did not apply. */
    static MachineIdLease lease(IdgenProperties.MachineId p, SnowflakeLayout layout, boolean hasDataSource) {
        if (p.getSource() == null) {
            throw new IdgenConfigurationException("The Snowflake generator needs a machine id, unique among the"
                    + " processes that write the same ids, and none is configured: " + CHOICES);
        }
        try {
            return switch (p.getSource()) {
                case FIXED -> {
                    if (p.getValue() == null) {
                        throw new IdgenConfigurationException("idgen.machine-id.source=fixed needs idgen.machine-id.value"
                                + " (0.." + layout.maxMachineId() + " for layout " + layout.name() + ")");
                    }
                    if (p.getValue() < 0 || p.getValue() > layout.maxMachineId()) {
                        throw new IdgenConfigurationException("idgen.machine-id.value=" + p.getValue()
                                + " is outside 0.." + layout.maxMachineId() + " allowed by layout " + layout.name());
                    }
                    yield MachineIdLease.fixed(p.getValue());
                }
                case ENV -> MachineIds.fromVariable(variable(p, "MACHINE_ID"), layout.maxMachineId());
                case POD_ORDINAL -> MachineIds.fromPodOrdinal(variable(p, "HOSTNAME"), layout.maxMachineId());
                case JDBC -> throw new IdgenConfigurationException(
                        !OptionalClasses.present(OptionalClasses.JDBC_LEASE, null)
                                ? "idgen.machine-id.source=jdbc needs dev.idgen:idgen-jdbc on the classpath"
                                : !hasDataSource ? "idgen.machine-id.source=jdbc needs a DataSource bean"
                                        + " (spring.datasource.url)"
                                : "idgen.machine-id.source=jdbc: the JDBC lease was not configured");
                case ZOOKEEPER -> throw new IdgenConfigurationException(
                        "idgen.machine-id.source=zookeeper needs dev.idgen:idgen-zookeeper and"
                                + " org.apache.curator:curator-framework on the classpath");
                case REDIS -> throw new IdgenConfigurationException(
                        "idgen.machine-id.source=redis needs dev.idgen:idgen-redis and io.lettuce:lettuce-core"
                                + " on the classpath" + missing(OptionalClasses.REDIS_LEASE,
                                OptionalClasses.LETTUCE_CLIENT));
                case ETCD -> throw new IdgenConfigurationException(
                        "idgen.machine-id.source=etcd needs dev.idgen:idgen-etcd and io.etcd:jetcd-core on the"
                                + " classpath" + missing(OptionalClasses.ETCD_LEASE,
                                OptionalClasses.JETCD));
            };
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=" + sourceName(p.getSource()) + ": "
                    + e.getMessage(), e);
        }
    }

    /** {@return "; missing: " and the classes not found, or nothing when all are there} */
    private static String missing(String... classes) {
        StringBuilder absent = new StringBuilder();
        for (String c : classes) {
            if (!OptionalClasses.present(c, null)) { // the context class loader, as for jdbc above
                absent.append(absent.isEmpty() ? "; missing: " : ", ").append(c);
            }
        }
        return absent.toString();
    }

    /** {@return the source's property value, or {@code custom} when none is set (the application's own lease)} */
    static String sourceName(IdgenProperties.MachineId p) {
        return p.getSource() == null ? "custom" : sourceName(p.getSource());
    }

    /**
     * Warns, once per context (the lease bean is made once), that nothing checks a machine id from
     * configuration or the environment: two processes given one id start silently and repeat each
     * other's IDs. A lease that fences (a coordinator checks it) gets no warning.
     */
    static void warnIfUnchecked(IdgenProperties.MachineId p, MachineIdLease lease) {
        if (IdgenHealth.checksUniqueness(lease)) {
            return;
        }
        String where = where(p);
        LOG.warn("Machine id {} comes from idgen.machine-id.source={} ({}) and nothing checks that no other process"
                + " uses it: two processes on one id repeat each other's IDs. To have it checked, set"
                + " idgen.machine-id.source to jdbc, zookeeper, redis or etcd (a lease hands out ids no other holder"
                + " has), or keep the source and give the application a lease store to claim this id in"
                + " (idgen.machine-id.check-with=jdbc, redis, zookeeper or etcd).", lease.machineId(),
                sourceName(p.getSource()), where);
    }

    /** {@return the property or environment variable a fixed, env or pod-ordinal id comes from} */
    static String where(IdgenProperties.MachineId p) {
        return switch (p.getSource()) {
            case FIXED -> "idgen.machine-id.value";
            case ENV, POD_ORDINAL -> "the environment variable " + variable(p,
                    p.getSource() == IdgenProperties.Source.ENV ? "MACHINE_ID" : "HOSTNAME");
            default -> "idgen.machine-id.*";
        };
    }

    static String sourceName(IdgenProperties.Source source) {
        return source.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String variable(IdgenProperties.MachineId p, String dflt) {
        return p.getVariable() == null || p.getVariable().isBlank() ? dflt : p.getVariable().strip();
    }
}
