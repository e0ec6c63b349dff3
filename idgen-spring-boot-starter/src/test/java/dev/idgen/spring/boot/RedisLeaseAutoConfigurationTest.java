package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.redis.RedisMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testsupport.Missing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code idgen.machine-id.source=redis} against the machine's Redis (127.0.0.1:6379, or the system
 * property {@code idgen.test.redis.uri}), under a key prefix of this test's own, set up as new
 * ({@link NewNamespaces}) and deleted afterwards. The tests that talk to Redis fail without it under
 * CI ({@code CI=true}) and are skipped elsewhere; the others (bad settings, missing libraries) need
 * no server and always run.
 */
class RedisLeaseAutoConfigurationTest {

    private static final String URL = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    private String prefix = "idgen:boot-test:no-server:";
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
        prefix = NewNamespaces.redis(URL, "boot-test");
    }

    @AfterEach
    void deleteTheKeys() {
        if (check != null) {
            List<String> keys = new ArrayList<>();
            ScanIterator.scan(check.sync(), ScanArgs.Builder.matches("{" + prefix + "}*").limit(500))
                    .forEachRemaining(keys::add);
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
        long[] lastIdMillis = new long[1];
        ApplicationContextRunner app = runner.withPropertyValues("idgen.machine-id.source=redis",
                "idgen.machine-id.redis.url=" + URL, "idgen.machine-id.redis.key-prefix=" + prefix,
                "idgen.machine-id.redis.ttl=20s", "idgen.machine-id.redis.renew-every=3s");
        app.run(context -> {
                    assertThat(context).hasNotFailed();
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease).isInstanceOf(RedisMachineIdLease.class);
                    RedisMachineIdLease redis = (RedisMachineIdLease) lease;
                    assertThat(redis.isHeld()).isTrue();
                    assertThat(redis.timings().ttl()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(redis.timings().renewEvery()).isEqualTo(Duration.ofSeconds(3));
                    SnowflakeGenerator ids = context.getBean(SnowflakeGenerator.class);
                    assertThat(ids.machineId()).isEqualTo(lease.machineId());
                    SnowflakeId made = ids.decode(ids.nextLong());
                    assertThat(made.machineId()).isEqualTo(lease.machineId());
                    lastIdMillis[0] = made.timestamp().toEpochMilli();
                    assertThat(context).hasBean("idgenRedisClient");
                    // the id's record, one hash under the prefix's hash tag, names this holder, carries
                    // its expiry as a field (in the future by Redis's clock) and no time to live
                    key[0] = "{" + prefix + "}" + lease.machineId();
                    assertThat(redis.key()).isEqualTo(key[0]);
                    assertThat(check.sync().hget(key[0], "owner")).isEqualTo(redis.owner());
                    assertThat(Long.parseLong(check.sync().hget(key[0], "expires"))).isGreaterThan(redisMillis());
                    assertThat(check.sync().pttl(key[0])).as("no time to live").isEqualTo(-1L);
                    assertThat(check.sync().hget("{" + prefix + "}namespace", "layout"))
                            .isEqualTo(SnowflakeLayout.TWITTER.signature());
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
        // the context is closed: the record stays, with the mark of the IDs made, and the id is free
        // at once, so the next instance gets it again rather than the next one
        assertThat(check.sync().exists(key[0])).as("nothing is deleted").isOne();
        assertThat(Long.parseLong(check.sync().hget(key[0], "mark"))).as("the high-water mark of the IDs made")
                .isGreaterThanOrEqualTo(lastIdMillis[0]);
        app.run(context -> assertThat(context.getBean(MachineIdLease.class).machineId()).as("the id released")
                .isEqualTo(Long.parseLong(key[0].substring(key[0].indexOf('}') + 1))));
    }

    /** {@return Redis's clock, Unix ms} */
    private long redisMillis() {
        List<String> t = check.sync().time();
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
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
                    RedisMachineIdLease lease = (RedisMachineIdLease) context.getBean(MachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    // written through the application's client: the url's port 1 has no server
                    assertThat(check.sync().hget(lease.key(), "owner")).isEqualTo(lease.owner());
                });
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
                    RedisMachineIdLease lease = (RedisMachineIdLease) context.getBean(MachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(check.sync().hget("{" + prefix + "}" + lease.machineId(), "owner"))
                            .isEqualTo(lease.owner());
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
    void aKeyPrefixWithABraceFailsNamingTheProperty() {
        redis();
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL,
                "idgen.machine-id.redis.key-prefix={orders}").run(context -> {
                    IdgenConfigurationException e = (IdgenConfigurationException) IdgenAutoConfigurationTest
                            .rootCause(context.getStartupFailure());
                    assertThat(e.getMessage()).startsWith("idgen.machine-id.redis.key-prefix={orders}: keyPrefix"
                            + " '{orders}' is blank or holds a brace");
                    assertThat(e.action()).isEqualTo("Set idgen.machine-id.redis.key-prefix to a value in the range"
                            + " the message above names.");
                });
    }

    @Test
    void timingsThatDoNotFitFailNamingTheNumbers() {
        redis();
        runner.withPropertyValues("idgen.machine-id.source=redis", "idgen.machine-id.redis.url=" + URL,
                "idgen.machine-id.redis.key-prefix=" + prefix, "idgen.machine-id.redis.ttl=3s").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.machine-id.redis.ttl, renew-every, safety-margin and max-clock-skew do not fit together"
                                + " (unset ones take their defaults): Lease timings do not fit: ttl 3000 ms must"
                                + " exceed 2 x renewEvery (600 ms) + 2 x the skew bound (1000 ms) + safetyMargin"
                                + " (300 ms) = 3500 ms"));
    }

    /**
     * A Redis that may evict the lease's records (maxmemory-policy allkeys-lru, on a private
     * redis-server this test starts and stops) is refused at start naming the policy and the
     * property, and accepted with idgen.machine-id.redis.accept-eviction=true. The server keeps an
     * append-only file, so the lease finds no restart that may have lost writes to wait out.
     */
    @Test
    void aRedisThatMayEvictTheRecordsIsRefusedUnlessAccepted() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("idgen-redis-evicting-");
        Process server;
        try {
            server = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--dir", dir.toString(), "--save", "", "--appendonly", "yes", "--maxmemory", "64mb",
                    "--maxmemory-policy", "allkeys-lru")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw Missing.server("Redis", "cannot start redis-server: " + e.getMessage(), Missing.apt("redis-server"));
        }
        try {
            String url = "redis://127.0.0.1:" + port;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    break;
                } catch (IOException notYet) {
                    assertThat(server.isAlive() && System.nanoTime() - deadline < 0)
                            .as("redis-server on port " + port + " started").isTrue();
                    Thread.sleep(50);
                }
            }
            String own = NewNamespaces.redis(url, "evicting");
            ApplicationContextRunner app = runner.withPropertyValues("idgen.machine-id.source=redis",
                    "idgen.machine-id.redis.url=" + url, "idgen.machine-id.redis.key-prefix=" + own);
            app.run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())
                    .getMessage()).startsWith("idgen.machine-id.source=redis: no machine id could be claimed under key"
                            + " prefix " + own + ": Redis runs maxmemory-policy allkeys-lru, which may evict the"
                            + " lease's records").endsWith("or accept it with idgen.machine-id.redis.accept-eviction=true"));
            app.withPropertyValues("idgen.machine-id.redis.accept-eviction=true").run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(MachineIdLease.class).isHeld()).isTrue();
            });
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
