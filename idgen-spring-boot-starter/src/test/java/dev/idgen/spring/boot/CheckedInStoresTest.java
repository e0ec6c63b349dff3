package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.lease.redis.RedisMachineIdLease;
import dev.idgen.lease.zookeeper.ZkMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.lease.StoreLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.testsupport.Missing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * idgen.machine-id.check-with on Redis, ZooKeeper and etcd (real servers): with {@code auto}, an
 * application whose only store is one of them has its fixed id claimed exactly there, so a second
 * instance on the same id fails at start naming the first; a different id starts; a store named by
 * check-with but missing fails with a message naming what to add.
 */
class CheckedInStoresTest {

    private static final String REDIS_URL = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    private static ApplicationContextRunner instance(long id, String... store) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=" + id)
                .withPropertyValues(store);
    }

    /** Two instances on id 7 (the second fails naming the first), a third on id 8 (starts). */
    private static void twoInstancesOnOneId(Class<? extends StoreLease> type, String storeWords, String holderWords,
            String... store) {
        instance(7, store).run(first -> {
            assertThat(first).hasNotFailed();
            MachineIdLease lease = first.getBean(MachineIdLease.class);
            assertThat(lease).isInstanceOf(type);
            assertThat(lease.machineId()).isEqualTo(7L);
            first.getBean(SnowflakeGenerator.class).nextLong();
            Map<String, Object> details = first.getBean(IdgenHealthIndicator.class).health().getDetails();
            assertThat(details).containsEntry("machineId", 7L).containsEntry("machineIdSource", "fixed")
                    .containsEntry("machineIdChecked", true);

            instance(7, store).run(second -> {
                assertThat(second).hasFailed();
                FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(second.getStartupFailure());
                assertThat(analysis).isNotNull();
                assertThat(analysis.getDescription()).contains("idgen.machine-id.source=fixed gives machine id 7,"
                        + " checked in " + storeWords, holderWords);
                assertThat(analysis.getAction()).startsWith("Give this instance a machine id of its own: change"
                        + " idgen.machine-id.value").contains("idgen.machine-id.check-with=none");
            });
            instance(8, store).run(third -> {
                assertThat(third).hasNotFailed();
                assertThat(third.getBean(MachineIdLease.class).machineId()).isEqualTo(8L);
            });
            assertThat(lease.isHeld()).as("the first instance keeps its id").isTrue();
        });
    }

    @Test
    void redis() {
        try (RedisClient client = RedisClient.create(REDIS_URL);
                StatefulRedisConnection<String, String> c = client.connect()) {
            c.sync().ping();
        } catch (RuntimeException e) {
            throw Missing.server("Redis", REDIS_URL + " does not answer: " + e.getMessage(), Missing.apt("redis-server"));
        }
        String prefix = NewNamespaces.redis(REDIS_URL, "checked");
        twoInstancesOnOneId(RedisMachineIdLease.class, "Redis under key prefix " + prefix,
                "Machine id 7 under Redis key prefix " + prefix + " is held by a live lease of owner '",
                "idgen.machine-id.redis.url=" + REDIS_URL, "idgen.machine-id.redis.key-prefix=" + prefix);
    }

    @Test
    void zookeeper() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            String path = NewNamespaces.zookeeper(zk.getConnectString(), "/idgen_checked");
            twoInstancesOnOneId(ZkMachineIdLease.class, "ZooKeeper under " + path,
                    "Machine id 7 under ZooKeeper path " + path + " is held by a live lease of owner '",
                    "idgen.machine-id.zookeeper.connect-string=" + zk.getConnectString(),
                    "idgen.machine-id.zookeeper.path=" + path);
            // timings that do not fit are the store's setting, not the id's: no other id would help
            instance(9, "idgen.machine-id.zookeeper.connect-string=" + zk.getConnectString(),
                    "idgen.machine-id.zookeeper.path=" + path, "idgen.machine-id.zookeeper.ttl=3s").run(c -> {
                        assertThat(IdgenAutoConfigurationTest.rootCause(c.getStartupFailure()).getMessage()).startsWith(
                                "idgen.machine-id.zookeeper.ttl, renew-every, safety-margin and max-clock-skew do not"
                                        + " fit together");
                        assertThat(new IdgenFailureAnalyzer().analyze(c.getStartupFailure()).getAction())
                                .doesNotContain("machine id of its own");
                    });
        }
    }

    @Test
    void etcd() {
        try (EtcdCluster etcd = EtcdCluster.start(1)) {
            String ns = NewNamespaces.etcd(etcd.endpoints(), "/idgen-checked");
            twoInstancesOnOneId(EtcdMachineIdLease.class, "etcd under " + ns,
                    "Machine id 7 under etcd namespace " + ns + " is held by a live lease of owner '",
                    "idgen.machine-id.etcd.endpoints=" + String.join(",", etcd.endpoints()),
                    "idgen.machine-id.etcd.namespace=" + ns);
        }
    }

    @Test
    void aStoreNamedByCheckWithButNotConfiguredFailsNamingWhatToSet() {
        instance(7, "idgen.machine-id.check-with=zookeeper").run(c -> {
            assertThat(c).hasFailed();
            assertThat(c.getStartupFailure()).rootCause().hasMessage("idgen.machine-id.check-with=zookeeper needs"
                    + " idgen.machine-id.zookeeper.connect-string (host:port,...) or a CuratorFramework bean");
        });
        instance(7, "idgen.machine-id.check-with=etcd").run(c -> {
            assertThat(c).hasFailed();
            assertThat(c.getStartupFailure()).rootCause().hasMessageStartingWith(
                    "idgen.machine-id.check-with=etcd needs idgen.machine-id.etcd.endpoints");
        });
        instance(7, "idgen.machine-id.check-with=redis")
                .withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("io.lettuce"))
                .run(c -> {
                    assertThat(c).hasFailed();
                    assertThat(c.getStartupFailure()).rootCause().hasMessage("idgen.machine-id.check-with=redis needs"
                            + " dev.idgen:idgen-redis and io.lettuce:lettuce-core on the classpath; or set"
                            + " idgen.machine-id.check-with=none to start with the id unchecked");
                });
    }
}
