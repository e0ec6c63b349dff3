package dev.idgen.spring.boot;

import dev.idgen.segment.spi.SegmentSource;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Makes the {@link SegmentSource} of one {@code idgen.segment.<name>} counter from the store it
 * names and the application's own beans (its DataSource, Redis connection, Curator or jetcd
 * client). Each store's classes are touched only inside its own nested class, so an application
 * without a store's library never loads them.
 */
final class SegmentStores {

    private SegmentStores() {
    }

    /**
     * @param prefix the counter's properties, e.g. {@code idgen.segment.orders}
     * @param c where the counter is kept
     * @param beans the application's beans
     * @return the store
     */
    static SegmentSource source(String prefix, IdgenSegmentProperties.StoreSettings c, ListableBeanFactory beans) {
        IdgenSegmentProperties.Store store = c.getStore() == IdgenSegmentProperties.Store.AUTO ? auto(beans)
                : c.getStore();
        if (store == null) {
            throw new IdgenConfigurationException(prefix + " needs a store, and the application has"
                    + " none idgen can use: add dev.idgen:idgen-jdbc and a DataSource, or set"
                    + " " + prefix + ".store to redis, zookeeper or etcd with that client as a bean");
        }
        String prop = prefix + ".store=" + store.name().toLowerCase();
        try {
            return switch (store) {
                case JDBC -> Jdbc.source(prop, c, beans);
                case REDIS -> Redis.source(prop, c, beans);
                case ZOOKEEPER -> ZooKeeper.source(prop, c, beans);
                case ETCD -> Etcd.source(prop, c, beans);
                case AUTO -> throw new IllegalStateException("auto was resolved above");
            };
        } catch (NoClassDefFoundError e) {
            throw new IdgenConfigurationException(prop + " needs the store's idgen module and client on the classpath:"
                    + " missing " + e.getMessage(), e);
        }
    }

    /** {@return the first store the application has, or null} */
    private static IdgenSegmentProperties.Store auto(ListableBeanFactory beans) {
        if (present(OptionalClasses.JDBC_SEGMENTS) && beans.getBeanNamesForType(DataSource.class).length > 0) {
            return IdgenSegmentProperties.Store.JDBC;
        }
        if (present(OptionalClasses.REDIS_SEGMENTS) && present(OptionalClasses.LETTUCE_CONNECTION)
                && Redis.has(beans)) {
            return IdgenSegmentProperties.Store.REDIS;
        }
        if (present(OptionalClasses.ZOOKEEPER_SEGMENTS)
                && present(OptionalClasses.CURATOR) && ZooKeeper.has(beans)) {
            return IdgenSegmentProperties.Store.ZOOKEEPER;
        }
        if (present(OptionalClasses.ETCD_SEGMENTS) && present(OptionalClasses.JETCD) && Etcd.has(beans)) {
            return IdgenSegmentProperties.Store.ETCD;
        }
        return null;
    }

    private static boolean present(String className) {
        return OptionalClasses.present(className, null);
    }

    private static <T> T one(ListableBeanFactory beans, Class<T> type, String prop, String what) {
        T bean = beans.getBeanProvider(type).getIfUnique();
        if (bean == null) {
            throw new IdgenConfigurationException(prop + " needs " + what + " bean (exactly one)");
        }
        return bean;
    }

    private static final class Jdbc {
        static SegmentSource source(String prop, IdgenSegmentProperties.StoreSettings c, ListableBeanFactory beans) {
            DataSource ds = one(beans, DataSource.class, prop, "a DataSource");
            return dev.idgen.segment.jdbc.JdbcSegmentSource.builder(ds).table(c.getTable())
                    .createTable(c.isCreateTable()).build();
        }
    }

    private static final class Redis {
        static boolean has(ListableBeanFactory beans) {
            return beans.getBeanNamesForType(io.lettuce.core.api.StatefulRedisConnection.class).length > 0;
        }

        @SuppressWarnings("unchecked")
        static SegmentSource source(String prop, IdgenSegmentProperties.StoreSettings c, ListableBeanFactory beans) {
            io.lettuce.core.api.StatefulRedisConnection<String, String> connection = one(beans,
                    io.lettuce.core.api.StatefulRedisConnection.class, prop,
                    "a StatefulRedisConnection<String, String>");
            return dev.idgen.segment.redis.RedisSegmentSource.builder(connection).keyPrefix(c.getKeyPrefix()).build();
        }
    }

    private static final class ZooKeeper {
        static boolean has(ListableBeanFactory beans) {
            return beans.getBeanNamesForType(org.apache.curator.framework.CuratorFramework.class).length > 0;
        }

        static SegmentSource source(String prop, IdgenSegmentProperties.StoreSettings c, ListableBeanFactory beans) {
            return dev.idgen.segment.zookeeper.ZkSegmentSource.builder(one(beans,
                    org.apache.curator.framework.CuratorFramework.class, prop, "a CuratorFramework"))
                    .path(c.getPath()).build();
        }
    }

    private static final class Etcd {
        static boolean has(ListableBeanFactory beans) {
            return beans.getBeanNamesForType(io.etcd.jetcd.Client.class).length > 0;
        }

        static SegmentSource source(String prop, IdgenSegmentProperties.StoreSettings c, ListableBeanFactory beans) {
            return dev.idgen.segment.etcd.EtcdSegmentSource.builder(one(beans, io.etcd.jetcd.Client.class, prop,
                    "a jetcd Client")).namespace(c.getNamespace()).build();
        }
    }
}
