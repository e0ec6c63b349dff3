package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.testsupport.ClosedPort;
import io.etcd.jetcd.Client;
import io.lettuce.core.RedisClient;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A Redis, ZooKeeper or etcd that is down when the application starts: each client is pointed at a
 * real loopback port where nothing listens ({@link ClosedPort}), and the failure report must name
 * the store, the setting its address came from (the starter's {@code idgen.machine-id.<store>.*}
 * property, or the application's client bean) and ask whether the server is running, not send the
 * user to the idgen settings in general. For each store: the lease as the source, a fixed id
 * checked in the store, and the application's own client. Slow tier: each client waits out its
 * connect or call timeout against the closed port (about 14 s in all).
 */
@Tag("slow")
class StoreDownActionTest {

    /** What the row sets up on a closed port, and what the Action must say. */
    private record Row(String what, Function<ClosedPort, List<String>> properties,
            Function<ClosedPort, Supplier<?>> bean, Class<?> beanType, String store, Function<ClosedPort, String> setting) {
        @Override
        public String toString() {
            return what;
        }
    }

    static Stream<Arguments> stores() {
        return Stream.of(
                row("Redis: source=redis at idgen.machine-id.redis.url",
                        port -> List.of("idgen.machine-id.source=redis",
                                "idgen.machine-id.redis.url=redis://" + port.hostAndPort()),
                        null, null, "Redis", port -> "idgen.machine-id.redis.url=redis://" + port.hostAndPort()),
                row("Redis: a fixed id checked in Redis",
                        port -> List.of("idgen.machine-id.source=fixed", "idgen.machine-id.value=3",
                                "idgen.machine-id.check-with=redis", "idgen.machine-id.redis.url=redis://" + port.hostAndPort()),
                        null, null, "Redis", port -> "idgen.machine-id.redis.url=redis://" + port.hostAndPort()),
                row("Redis: the application's RedisClient",
                        port -> List.of("idgen.machine-id.source=redis"),
                        port -> () -> RedisClient.create("redis://" + port.hostAndPort()), RedisClient.class,
                        "Redis", port -> "the application's RedisClient bean"),
                row("ZooKeeper: source=zookeeper at idgen.machine-id.zookeeper.connect-string",
                        port -> List.of("idgen.machine-id.source=zookeeper",
                                "idgen.machine-id.zookeeper.connect-string=" + port.hostAndPort(),
                                "idgen.machine-id.zookeeper.session-timeout=2s"),
                        null, null, "ZooKeeper", port -> "idgen.machine-id.zookeeper.connect-string=" + port.hostAndPort()),
                row("ZooKeeper: a fixed id checked in ZooKeeper",
                        port -> List.of("idgen.machine-id.source=fixed", "idgen.machine-id.value=3",
                                "idgen.machine-id.check-with=zookeeper",
                                "idgen.machine-id.zookeeper.connect-string=" + port.hostAndPort(),
                                "idgen.machine-id.zookeeper.session-timeout=2s"),
                        null, null, "ZooKeeper", port -> "idgen.machine-id.zookeeper.connect-string=" + port.hostAndPort()),
                row("ZooKeeper: the application's CuratorFramework",
                        port -> List.of("idgen.machine-id.source=zookeeper"),
                        port -> () -> {
                            CuratorFramework c = CuratorFrameworkFactory.builder().connectString(port.hostAndPort())
                                    .connectionTimeoutMs(2_000).sessionTimeoutMs(2_000).retryPolicy(new RetryOneTime(100))
                                    .build();
                            c.start();
                            return c;
                        }, CuratorFramework.class, "ZooKeeper", port -> "the application's CuratorFramework bean"),
                row("etcd: source=etcd at idgen.machine-id.etcd.endpoints",
                        port -> List.of("idgen.machine-id.source=etcd",
                                "idgen.machine-id.etcd.endpoints=http://" + port.hostAndPort(), "idgen.machine-id.etcd.ttl=2s"),
                        null, null, "etcd", port -> "idgen.machine-id.etcd.endpoints=http://" + port.hostAndPort()),
                row("etcd: a fixed id checked in etcd",
                        port -> List.of("idgen.machine-id.source=fixed", "idgen.machine-id.value=3",
                                "idgen.machine-id.check-with=etcd",
                                "idgen.machine-id.etcd.endpoints=http://" + port.hostAndPort(), "idgen.machine-id.etcd.ttl=2s"),
                        null, null, "etcd", port -> "idgen.machine-id.etcd.endpoints=http://" + port.hostAndPort()),
                row("etcd: the application's jetcd Client",
                        port -> List.of("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.ttl=2s"),
                        port -> () -> Client.builder().endpoints("http://" + port.hostAndPort()).build(), Client.class,
                        "etcd", port -> "the application's jetcd Client bean"));
    }

    private static Arguments row(String what, Function<ClosedPort, List<String>> properties,
            Function<ClosedPort, Supplier<?>> bean, Class<?> beanType, String store,
            Function<ClosedPort, String> setting) {
        return Arguments.of(new Row(what, properties, bean, beanType, store, setting));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void theActionNamesTheStoreItsSettingAndAsksWhetherTheServerRuns(Row row) throws Exception {
        try (ClosedPort port = ClosedPort.open()) {
            List<String> props = new ArrayList<>(row.properties().apply(port));
            ApplicationContextRunner runner = new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class,
                            IdgenAutoConfiguration.class))
                    .withPropertyValues(props.toArray(String[]::new));
            if (row.bean() != null) {
                runner = runner.withBean((Class) row.beanType(), (Supplier) row.bean().apply(port));
            }
            String setting = row.setting().apply(port);
            runner.run(context -> {
                assertThat(context).hasFailed();
                FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
                assertThat(analysis).as(row.what()).isNotNull();
                assertThat(analysis.getDescription()).as(row.what()).contains(row.store() + " at " + setting);
                assertThat(analysis.getAction()).as(row.what())
                        .contains(setting)
                        .contains(row.store() + " server")
                        .contains("running")
                        .doesNotContain("Set the idgen.* properties");
            });
        }
    }
}
