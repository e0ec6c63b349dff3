package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.redis.RedisMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.testsupport.Missing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code idgen.machine-id.source=redis} against the machine's Redis (127.0.0.1:6379, or the system
 * property {@code idgen.test.redis.uri}), under a key prefix of this test's own, deleted afterwards.
 * The tests that talk to Redis fail without it under CI ({@code CI=true}) and are skipped elsewhere; the
 * others (bad settings, missing libraries) need no server and always run.
 */
class RedisLeaseAutoConfigurationTest {

    private static final String URL = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    private final String prefix = "idgen:boot-test:" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8)
            + ":";
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class));
    private RedisClient client;
    private StatefulRedisConnection<String, String> check;

    /** Connects to Redis, or fails (CI) or skips (elsewhere): only the tests that talk to a server call it. */
    private void redis() {
        client = RedisClient.create(URL);
        try {
            check = client.connect();
            check.sync().ping();
        } catch (RuntimeException e) {
            client.shutdown();
            client = null;
            throw Missing.server("Redis", URL + " does not answer: " + e.getMessage(), Missing.apt("redis-server"));
        }
    }

    @AfterEach
    void deleteTheKeys() {
        if (check != null) {
            List<String> keys = new ArrayList<>();
            ScanIterator.scan(check.sync(), ScanArgs.Builder.matches(prefix + "*").limit(500)).forEachRemaining(keys::add);
            if (!keys.isEmpty()) {
                check.sync().del(keys.toArray(String[]::new));
            }
            check.close();
        }
        if (client != null) {
            client.shutdown();
        }
    }

    @Test
    void aLeaseFromTheUrlIsClaimedWithTheTimingsGivenReportedAndReleasedAtShutdown() {
        redis();
        String[] key = new String[1];
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL,
                "idgen.machine-id.redis.key-prefix=" + prefix, "idgen.machine-id.redis.ttl=20s",
                "idgen.machine-id.redis.renew-every=3s").run(context -> {
                    assertThat(context).hasNotFailed();
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease).isInstanceOf(RedisMachineIdLease.class);
                    RedisMachineIdLease redis = (RedisMachineIdLease) lease;
                    assertThat(redis.isHeld()).isTrue();
                    assertThat(redis.timings().ttl()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(redis.timings().renewEvery()).isEqualTo(Duration.ofSeconds(3));
                    SnowflakeGenerator ids = context.getBean(SnowflakeGenerator.class);
                    assertThat(ids.machineId()).isEqualTo(lease.machineId());
                    assertThat(ids.decode(ids.nextLong()).machineId()).isEqualTo(lease.machineId());
                    assertThat(context).hasBean("idgenRedisClient");
                    // the lease's key, on the server, names this holder
                    key[0] = prefix + "{" + lease.machineId() + "}";
                    assertThat(redis.key()).isEqualTo(key[0]);
                    assertThat(check.sync().get(key[0])).endsWith("/" + redis.owner());
                    assertThat(check.sync().pttl(key[0])).isBetween(1L, 20_000L);
                    // the health and meters every lease source gets
                    IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
                    assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
                    assertThat(health.health().getDetails()).containsEntry("machineId", lease.machineId());
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(IdgenMeterBinder.class).bindTo(registry);
                    assertThat(registry.get("idgen.lease.held").tag("source", "redis").gauge().value()).isEqualTo(1.0);
                    assertThat(registry.get("idgen.lease.losses").tag("source", "redis").functionCounter().count())
                            .isEqualTo(0.0);
                });
        // the context is closed: the key was deleted, not left to expire
        assertThat(check.sync().exists(key[0])).isZero();
        assertThat(check.sync().hget(key[0] + ":mark", "m")).as("the high-water mark of the id made is kept")
                .isNotNull();
    }

    @Test
    void theApplicationsRedisClientIsUsedAndNoOtherMade() {
        redis();
        RedisClient own = RedisClient.create(URL);
        runner.withBean(RedisClient.class, () -> own)
                .withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=redis://127.0.0.1:1",
                        "idgen.machine-id.redis.key-prefix=" + prefix).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(RedisClient.class).doesNotHaveBean("idgenRedisClient");
                    assertThat(context.getBean(MachineIdLease.class).isHeld()).isTrue();
                });
        assertThat(check.sync().exists(prefix + "{0}")).isZero();
    }

    @Test
    void theApplicationsConnectionIsUsedWhenItHasOne() {
        redis();
        OwnConnection.connection = client.connect();
        runner.withUserConfiguration(OwnConnection.class)
                .withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.key-prefix=" + prefix)
                .run(context -> {
                    // no URL and no client: only the application's connection can have claimed it
                    assertThat(context).hasNotFailed().doesNotHaveBean(RedisClient.class);
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(check.sync().exists(prefix + "{" + lease.machineId() + "}")).isOne();
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnConnection {
        static StatefulRedisConnection<String, String> connection;

        @Bean
        StatefulRedisConnection<String, String> ownRedisConnection() {
            return connection;
        }
    }

    @Test
    void withoutAUrlOrAClientTheStartFailsNamingWhatIsMissing() {
        runner.withPropertyValues("idgen.machine-id.source=redis").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.source=redis needs idgen.machine-id.redis.url (redis://host:port/database)"
                                + " or a RedisClient or StatefulRedisConnection<String, String> bean"));
    }

    @Test
    void withoutTheLeaseLibraryOrLettuceTheStartFailsNamingTheMissingClass() {
        runner.withClassLoader(new FilteredClassLoader(RedisMachineIdLease.class))
                .withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL)
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessage("idgen.machine-id.source=redis needs dev.idgen:idgen-redis and"
                                + " io.lettuce:lettuce-core on the classpath; missing:"
                                + " dev.idgen.lease.redis.RedisMachineIdLease"));
        runner.withClassLoader(new FilteredClassLoader("io.lettuce"))
                .withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL)
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessageEndingWith("; missing: io.lettuce.core.RedisClient"));
    }

    @Test
    void theStarterWorksWithoutTheRedisAndEtcdLibraries() {
        runner.withClassLoader(new FilteredClassLoader("io.lettuce", "dev.idgen.lease.redis", "io.etcd",
                "dev.idgen.lease.etcd")).withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SnowflakeGenerator.class).machineId()).isEqualTo(3);
                });
    }

    @Test
    void aBadUrlFailsNamingThePropertyAndAPasswordIsNeverShown() {
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=http://127.0.0.1:6379")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())
                        .getMessage()).startsWith("idgen.machine-id.redis.url=http://127.0.0.1:6379 is not a Redis URI;"
                                + " allowed: redis://[user:password@]host[:port][/database], or rediss:// for TLS"));
        // nothing listens on port 1: the connection is refused
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=redis://:s3cret@127.0.0.1:1")
                .run(context -> {
                    String message = IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()).getMessage();
                    assertThat(message).startsWith("idgen.machine-id.source=redis: Redis at"
                            + " idgen.machine-id.redis.url=redis://***@127.0.0.1:1 could not be connected to: ");
                    assertThat(message).doesNotContain("s3cret");
                    assertThat(new IdgenFailureAnalyzer().analyze(context.getStartupFailure()).getAction())
                            .contains("idgen.machine-id.redis.url=redis://***@127.0.0.1:1").doesNotContain("s3cret");
                });
    }

    @Test
    void timingsThatDoNotFitFailNamingTheNumbers() {
        redis();
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL,
                "idgen.machine-id.redis.key-prefix=" + prefix, "idgen.machine-id.redis.ttl=3s").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.machine-id.source=redis: no machine id could be claimed under key prefix " + prefix
                                + ": Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery (600 ms)"));
    }
}
