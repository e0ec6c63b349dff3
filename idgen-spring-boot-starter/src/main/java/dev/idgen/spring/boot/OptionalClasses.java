package dev.idgen.spring.boot;

import java.util.List;
import org.springframework.util.ClassUtils;

/**
 * The optional classes the starter looks for by name while the application runs: a store's idgen
 * module and its client library, when a machine id is checked ({@link CheckedIds}), a segment
 * counter picks its store ({@link SegmentStores}) or a message says what is missing
 * ({@link Configure}). The conditions of the auto-configurations name classes too, but Spring AOT
 * settles those at build time; these checks run in the built application, where a native image
 * answers {@code Class.forName} only for types registered for reflection. So
 * {@link IdgenRuntimeHints} registers every name in {@link #ALL}, and a new check by name belongs
 * here.
 */
final class OptionalClasses {

    /** idgen-jdbc's lease. */
    static final String JDBC_LEASE = "dev.idgen.lease.jdbc.JdbcMachineIdLease";
    /** idgen-redis's lease. */
    static final String REDIS_LEASE = "dev.idgen.lease.redis.RedisMachineIdLease";
    /** idgen-zookeeper's lease. */
    static final String ZOOKEEPER_LEASE = "dev.idgen.lease.zookeeper.ZkMachineIdLease";
    /** idgen-etcd's lease. */
    static final String ETCD_LEASE = "dev.idgen.lease.etcd.EtcdMachineIdLease";
    /** idgen-jdbc's segment source. */
    static final String JDBC_SEGMENTS = "dev.idgen.segment.jdbc.JdbcSegmentSource";
    /** idgen-redis's segment source. */
    static final String REDIS_SEGMENTS = "dev.idgen.segment.redis.RedisSegmentSource";
    /** idgen-zookeeper's segment source. */
    static final String ZOOKEEPER_SEGMENTS = "dev.idgen.segment.zookeeper.ZkSegmentSource";
    /** idgen-etcd's segment source. */
    static final String ETCD_SEGMENTS = "dev.idgen.segment.etcd.EtcdSegmentSource";
    /** Lettuce's client. */
    static final String LETTUCE_CLIENT = "io.lettuce.core.RedisClient";
    /** Lettuce's connection. */
    static final String LETTUCE_CONNECTION = "io.lettuce.core.api.StatefulRedisConnection";
    /** Curator's client. */
    static final String CURATOR = "org.apache.curator.framework.CuratorFramework";
    /** jetcd's client. */
    static final String JETCD = "io.etcd.jetcd.Client";

    /** Every name above. */
    static final List<String> ALL = List.of(JDBC_LEASE, REDIS_LEASE, ZOOKEEPER_LEASE, ETCD_LEASE, JDBC_SEGMENTS,
            REDIS_SEGMENTS, ZOOKEEPER_SEGMENTS, ETCD_SEGMENTS, LETTUCE_CLIENT, LETTUCE_CONNECTION, CURATOR, JETCD);

    private OptionalClasses() {
    }

    /** {@return whether {@code name}, one of {@link #ALL}, can be loaded by {@code loader} (null: the default)} */
    static boolean present(String name, ClassLoader loader) {
        return ClassUtils.isPresent(name, loader);
    }
}
