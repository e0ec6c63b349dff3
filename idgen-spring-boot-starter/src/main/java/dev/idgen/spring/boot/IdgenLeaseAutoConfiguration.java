package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeLayout;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The machine-id leases that need a coordinator: {@code idgen.machine-id.source=jdbc} (a table in
 * the application's {@code DataSource}, idgen-jdbc), {@code zookeeper} (idgen-zookeeper),
 * {@code redis} (idgen-redis) and {@code etcd} (idgen-etcd). Each applies only when its
 * library is present; the client it uses is the application's own bean, or one made from
 * {@code idgen.machine-id.<source>.*}. The Redis, ZooKeeper and etcd configurations also apply when
 * that store checks an id from {@code fixed}, {@code env} or {@code pod-ordinal}
 * ({@code idgen.machine-id.check-with}, {@link CheckedIds}): the lease then claims exactly that id.
 * The lease is claimed when the bean is made and released ({@code close()}) when the context
 * closes, after everything that uses the Snowflake generator. Runs before
 * {@link IdgenAutoConfiguration}, which builds the generator on it.
 */
@AutoConfiguration(before = IdgenAutoConfiguration.class,
        afterName = BootGeneration.DATA_SOURCE_AUTO_CONFIGURATION)
@EnableConfigurationProperties(IdgenProperties.class)
@ConditionalOnBooleanProperty(name = "idgen.snowflake.enabled", matchIfMissing = true)
public class IdgenLeaseAutoConfiguration {

    /** Made by Spring. */
    public IdgenLeaseAutoConfiguration() {
    }

    /** {@code idgen.machine-id.source=jdbc}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.idgen.lease.jdbc.JdbcMachineIdLease")
    @ConditionalOnProperty(name = "idgen.machine-id.source", havingValue = "jdbc")
    static class Jdbc {

        @Bean
        @ConditionalOnMissingBean(MachineIdLease.class)
        @ConditionalOnBean(DataSource.class)
        MachineIdLease idgenMachineIdLease(IdgenProperties properties, SnowflakeLayout layout, DataSource dataSource) {
            return JdbcLeases.acquire(properties.getMachineId().getJdbc(), layout, dataSource,
                    properties.getMachineId().isReclaimAnyId());
        }
    }

    /** {@code idgen.machine-id.source=zookeeper}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.idgen.lease.zookeeper.ZkMachineIdLease",
            "org.apache.curator.framework.CuratorFramework"})
    @Conditional(CheckedIds.OnZooKeeper.class)
    static class ZooKeeper {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        @ConditionalOnProperty(name = "idgen.machine-id.zookeeper.connect-string")
        org.apache.curator.framework.CuratorFramework idgenCuratorFramework(IdgenProperties properties) {
            return ZooKeeperLeases.connect(properties.getMachineId());
        }

        @Bean
        @ConditionalOnMissingBean(MachineIdLease.class)
        MachineIdLease idgenMachineIdLease(IdgenProperties properties, SnowflakeLayout layout,
                ObjectProvider<org.apache.curator.framework.CuratorFramework> client,
                org.springframework.beans.factory.BeanFactory beans) {
            // made while the lease is made, the client is destroyed after it (singletons go in reverse order)
            IdgenProperties.MachineId p = properties.getMachineId();
            org.apache.curator.framework.CuratorFramework curator = client.getIfAvailable();
            if (curator != null && !beans.containsBean("idgenCuratorFramework")) {
                ZooKeeperLeases.requireConnected(p, curator); // the starter's own client is connected already
            }
            if (p.getSource() != IdgenProperties.Source.ZOOKEEPER) {
                return CheckedIds.claimExact(p, layout, "ZooKeeper under " + p.getZookeeper().getPath(),
                        id -> ZooKeeperLeases.acquireExact(p.getZookeeper(), layout, curator, id));
            }
            return ZooKeeperLeases.acquire(p.getZookeeper(), layout, curator, p.isReclaimAnyId());
        }
    }

    /**
     * {@code idgen.machine-id.source=redis}: the application's {@code StatefulRedisConnection<String,
     * String>} bean, else a connection of its {@code RedisClient} bean, else of a client for
     * {@code idgen.machine-id.redis.url}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.idgen.lease.redis.RedisMachineIdLease", "io.lettuce.core.RedisClient"})
    @Conditional(CheckedIds.OnRedis.class)
    static class Redis {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnProperty(name = "idgen.machine-id.redis.url")
        io.lettuce.core.RedisClient idgenRedisClient(IdgenProperties properties) {
            return RedisLeases.client(properties.getMachineId().getRedis());
        }

        @Bean
        @ConditionalOnMissingBean(MachineIdLease.class)
        RedisLeases.LeaseConnection idgenRedisLeaseConnection(IdgenProperties properties,
                ObjectProvider<io.lettuce.core.api.StatefulRedisConnection<String, String>> connection,
                ObjectProvider<io.lettuce.core.RedisClient> client, org.springframework.beans.factory.BeanFactory beans) {
            return RedisLeases.connect(properties.getMachineId(), connection.getIfUnique(), client.getIfUnique(),
                    !beans.containsBean("idgenRedisClient"));
        }

        @Bean
        @ConditionalOnMissingBean(MachineIdLease.class)
        MachineIdLease idgenMachineIdLease(IdgenProperties properties, SnowflakeLayout layout,
                RedisLeases.LeaseConnection connection) {
            // the lease depends on the connection bean, so Spring closes the lease (releasing the id) first
            IdgenProperties.MachineId p = properties.getMachineId();
            if (p.getSource() != IdgenProperties.Source.REDIS) {
                return CheckedIds.claimExact(p, layout, "Redis under key prefix " + p.getRedis().getKeyPrefix(),
                        id -> RedisLeases.acquireExact(p.getRedis(), layout, connection, id));
            }
            return RedisLeases.acquire(p.getRedis(), layout, connection, p.isReclaimAnyId());
        }
    }

    /** {@code idgen.machine-id.source=etcd}: the application's jetcd {@code Client} bean, else one for the endpoints. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.idgen.lease.etcd.EtcdMachineIdLease", "io.etcd.jetcd.Client"})
    @Conditional(CheckedIds.OnEtcd.class)
    static class Etcd {

        @Bean
        @ConditionalOnMissingBean
        @Conditional(EtcdLeases.OnEndpoints.class)
        io.etcd.jetcd.Client idgenEtcdClient(IdgenProperties properties) {
            return EtcdLeases.client(properties.getMachineId().getEtcd());
        }

        @Bean
        @ConditionalOnMissingBean(MachineIdLease.class)
        MachineIdLease idgenMachineIdLease(IdgenProperties properties, SnowflakeLayout layout,
                ObjectProvider<io.etcd.jetcd.Client> client, org.springframework.beans.factory.BeanFactory beans) {
            // made while the lease is made, the client is destroyed after it (singletons go in reverse order)
            IdgenProperties.MachineId p = properties.getMachineId();
            io.etcd.jetcd.Client etcd = client.getIfUnique();
            if (etcd != null) {
                EtcdLeases.requireAnswer(p, etcd, beans.containsBean("idgenEtcdClient"));
            }
            if (p.getSource() != IdgenProperties.Source.ETCD) {
                return CheckedIds.claimExact(p, layout, "etcd under " + p.getEtcd().getNamespace(),
                        id -> EtcdLeases.acquireExact(p.getEtcd(), layout, etcd, id));
            }
            return EtcdLeases.acquire(p.getEtcd(), layout, etcd, p.isReclaimAnyId());
        }
    }
}
