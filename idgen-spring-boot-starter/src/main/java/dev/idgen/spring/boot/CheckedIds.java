package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeLayout;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * An id from {@code fixed}, {@code env} or {@code pod-ordinal}, claimed exactly in a lease store
 * ({@code idgen.machine-id.check-with}) so a second instance on the same id fails at start instead
 * of repeating the first one's IDs.
 *
 * <p>Which store: the one {@code check-with} names; for {@code auto}, the first of these the
 * application has, in this order: the JDBC lease table (idgen-jdbc and a DataSource), Redis
 * (idgen-redis, Lettuce and {@code idgen.machine-id.redis.url}), ZooKeeper (idgen-zookeeper, Curator
 * and {@code idgen.machine-id.zookeeper.connect-string}), etcd (idgen-etcd, jetcd and
 * {@code idgen.machine-id.etcd.endpoints}); else nothing, and the starter warns once
 * ({@link Configure#warnIfUnchecked}). The JDBC check is made here; the other three by the store's
 * lease configuration in {@link IdgenLeaseAutoConfiguration}, which {@link InUse} switches on both
 * for {@code source=<store>} and for a check in that store.
 */
final class CheckedIds {

    /** The stores an id can be checked in, in the order {@code auto} tries them. */
    enum Store {
        /** The JDBC lease table. */
        JDBC(OptionalClasses.JDBC_LEASE),
        /** Redis. */
        REDIS(OptionalClasses.REDIS_LEASE, OptionalClasses.LETTUCE_CLIENT),
        /** ZooKeeper. */
        ZOOKEEPER(OptionalClasses.ZOOKEEPER_LEASE, OptionalClasses.CURATOR),
        /** etcd. */
        ETCD(OptionalClasses.ETCD_LEASE, OptionalClasses.JETCD);

        private final String[] classes;

        Store(String... classes) {
            this.classes = classes;
        }

        boolean present(ClassLoader loader) {
            for (String c : classes) {
                if (!OptionalClasses.present(c, loader)) {
                    return false;
                }
            }
            return true;
        }
    }

    private CheckedIds() {
    }

    /**
     * @param binder the application's properties
     * @param loader the application's class loader
     * @param hasDataSource whether the application has a DataSource bean
     * @return the store an id from configuration is checked in, or null (another source, check-with
     *     none, or auto finding no store)
     */
    static Store chosen(Binder binder, ClassLoader loader, boolean hasDataSource) {
        IdgenProperties.Source source = binder.bind("idgen.machine-id.source", IdgenProperties.Source.class)
                .orElse(null);
        if (source != IdgenProperties.Source.FIXED && source != IdgenProperties.Source.ENV
                && source != IdgenProperties.Source.POD_ORDINAL) {
            return null;
        }
        IdgenProperties.CheckWith with = binder.bind("idgen.machine-id.check-with", IdgenProperties.CheckWith.class)
                .orElse(IdgenProperties.CheckWith.AUTO);
        return switch (with) {
            case NONE -> null;
            case JDBC -> Store.JDBC;
            case REDIS -> Store.REDIS;
            case ZOOKEEPER -> Store.ZOOKEEPER;
            case ETCD -> Store.ETCD;
            case AUTO -> {
                if (Store.JDBC.present(loader) && hasDataSource) {
                    yield Store.JDBC;
                }
                if (Store.REDIS.present(loader) && binder.bind("idgen.machine-id.redis.url", String.class).isBound()) {
                    yield Store.REDIS;
                }
                if (Store.ZOOKEEPER.present(loader)
                        && binder.bind("idgen.machine-id.zookeeper.connect-string", String.class).isBound()) {
                    yield Store.ZOOKEEPER;
                }
                if (Store.ETCD.present(loader) && binder.bind(EtcdLeases.ENDPOINTS, Bindable.listOf(String.class))
                        .map(l -> !l.isEmpty()).orElse(false)) {
                    yield Store.ETCD;
                }
                yield null;
            }
        };
    }

    /**
     * {@return {@code configured} claimed in the JDBC lease table when that is the store chosen, or
     * {@code null} when nothing checks it (check-with none, or auto with no store)}
     *
     * @throws IdgenConfigurationException if the id is held by a live lease (naming its owner), or
     *     check-with names a store the application does not have
     */
    static MachineIdLease claim(IdgenProperties.MachineId p, SnowflakeLayout layout, MachineIdLease configured,
            DataSource dataSource, Binder binder) {
        Store store = chosen(binder, ClassUtils.getDefaultClassLoader(), dataSource != null);
        if (store == null) {
            return null;
        }
        if (store != Store.JDBC) {
            // the store's lease configuration would have made the lease bean had it applied
            throw new IdgenConfigurationException("idgen.machine-id.check-with=" + store.name().toLowerCase()
                    + " needs " + needs(store) + "; or set idgen.machine-id.check-with=none to start with the id"
                    + " unchecked");
        }
        if (!store.present(ClassUtils.getDefaultClassLoader()) || dataSource == null) {
            throw new IdgenConfigurationException("idgen.machine-id.check-with=jdbc needs "
                    + (!store.present(ClassUtils.getDefaultClassLoader()) ? "dev.idgen:idgen-jdbc on the classpath"
                            : "a DataSource bean (spring.datasource.url)")
                    + "; or set idgen.machine-id.check-with=none to start with the id unchecked");
        }
        return JdbcLeases.acquireExact(p.getJdbc(), layout, dataSource, configured.machineId(),
                Configure.sourceName(p.getSource()), Configure.where(p));
    }

    private static String needs(Store store) {
        return switch (store) {
            case JDBC -> "dev.idgen:idgen-jdbc and a DataSource";
            case REDIS -> "dev.idgen:idgen-redis and io.lettuce:lettuce-core on the classpath";
            case ZOOKEEPER -> "dev.idgen:idgen-zookeeper and org.apache.curator:curator-framework on the classpath";
            case ETCD -> "dev.idgen:idgen-etcd and io.etcd:jetcd-core on the classpath";
        };
    }

    /**
     * The exact claim of a configured id in a store other than JDBC: the id the configuration gives.
     *
     * @param what the store's name, for the failure message
     * @param claim claims exactly the id (the store's builder with {@code machineId(id)})
     * @return the lease
     */
    static MachineIdLease claimExact(IdgenProperties.MachineId p, SnowflakeLayout layout, String what,
            java.util.function.LongFunction<MachineIdLease> claim) {
        long id = Configure.lease(p, layout, false).machineId();
        try {
            return claim.apply(id);
        } catch (IdgenConfigurationException e) {
            throw e; // a setting of the store (timings, range) names its property: no other id would help
        } catch (RuntimeException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=" + Configure.sourceName(p.getSource())
                    + " gives machine id " + id + ", checked in " + what + " (idgen.machine-id.check-with), and it"
                    + " cannot be claimed: " + e.getMessage(), "Give this instance a machine id of its own: change "
                    + Configure.where(p) + " (each running instance needs a different one), or stop the instance"
                    + " named above. To start without the check (nothing then stops two instances sharing an id),"
                    + " set idgen.machine-id.check-with=none.", e);
        }
    }

    /** {@return whether the application's settings make {@code store}'s lease: as the source, or as the check} */
    static boolean inUse(Store store, ConditionContext context) {
        Binder binder = Binder.get(context.getEnvironment());
        IdgenProperties.Source source = binder.bind("idgen.machine-id.source", IdgenProperties.Source.class)
                .orElse(null);
        if (source != null && source.name().equals(store.name())) {
            return true;
        }
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        boolean hasDataSource = beans != null && beans.getBeanNamesForType(DataSource.class, true, false).length > 0;
        return chosen(binder, context.getClassLoader(), hasDataSource) == store;
    }

    /**
     * Matches when {@link #inUse} for its store; decided when beans are registered, so that the
     * DataSource bean of an earlier auto-configuration counts for {@code auto}.
     */
    abstract static class InUse extends SpringBootCondition implements ConfigurationCondition {
        private final Store store;

        InUse(Store store) {
            this.store = store;
        }

        @Override
        public ConfigurationPhase getConfigurationPhase() {
            return ConfigurationPhase.REGISTER_BEAN;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            String name = store.name().toLowerCase();
            return inUse(store, context)
                    ? ConditionOutcome.match("idgen.machine-id uses " + name + " (source or check-with)")
                    : ConditionOutcome.noMatch("idgen.machine-id uses no " + name + " lease");
        }
    }

    /** Redis as the source or the check. */
    static final class OnRedis extends InUse {
        OnRedis() {
            super(Store.REDIS);
        }
    }

    /** ZooKeeper as the source or the check. */
    static final class OnZooKeeper extends InUse {
        OnZooKeeper() {
            super(Store.ZOOKEEPER);
        }
    }

    /** etcd as the source or the check. */
    static final class OnEtcd extends InUse {
        OnEtcd() {
            super(Store.ETCD);
        }
    }
}
