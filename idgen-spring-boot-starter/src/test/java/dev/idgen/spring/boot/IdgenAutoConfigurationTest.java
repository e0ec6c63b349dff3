package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.hibernate.EntityIds;
import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.lease.zookeeper.ZkMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class IdgenAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class));

    @Test
    void withoutAMachineIdSourceTheStartFailsListingTheChoices() {
        runner.run(context -> {
            assertThat(context).hasFailed();
            Throwable root = rootCause(context.getStartupFailure());
            assertThat(root).isInstanceOf(IdgenConfigurationException.class);
            assertThat(root.getMessage()).contains("idgen.machine-id.source", "fixed", "env", "pod-ordinal", "jdbc",
                    "zookeeper", "idgen.snowflake.enabled=false");
            assertThat(root.getMessage()).contains("\n  redis        a lease on Redis at idgen.machine-id.redis.url",
                    "(needs dev.idgen:idgen-redis)", "\n  etcd         a lease on etcd at idgen.machine-id.etcd.endpoints",
                    "(needs dev.idgen:idgen-etcd)");
        });
    }

    @Test
    void theFailureAnalyzerReportsTheMessageAndIsRegistered() throws Exception {
        runner.run(context -> {
            var analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith("The Snowflake generator needs a machine id");
            assertThat(analysis.getAction()).contains("idgen.*");
        });
        try (var in = getClass().getResourceAsStream("/META-INF/spring.factories")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .contains("dev.idgen.spring.boot.IdgenFailureAnalyzer");
        }
    }

    @Test
    void aFixedIdGivesAllThreeGeneratorsWithTheConfiguredLayoutAndPolicies() {
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=77",
                "idgen.snowflake.layout=custom", "idgen.snowflake.timestamp-bits=40", "idgen.snowflake.machine-bits=8",
                "idgen.snowflake.sequence-bits=15", "idgen.snowflake.epoch=2024-01-01T00:00:00Z",
                "idgen.snowflake.tick=2ms", "idgen.snowflake.clock-backwards=run-ahead",
                "idgen.snowflake.clock-backwards-max=1s", "idgen.uuid-v7.clock-backwards=refuse").run(context -> {
                    assertThat(context).hasNotFailed();
                    SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
                    assertThat(snowflake.layout()).isEqualTo(SnowflakeLayout.custom("custom").timestampBits(40)
                            .machineBits(8).sequenceBits(15).epoch(Instant.parse("2024-01-01T00:00:00Z"))
                            .tick(Duration.ofMillis(2)).build());
                    assertThat(snowflake.machineId()).isEqualTo(77);
                    assertThat(snowflake.decode(snowflake.nextLong()).machineId()).isEqualTo(77);
                    assertThat(snowflake.policy()).isEqualTo(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(1)));
                    assertThat(context.getBean(UuidV7Generator.class).policy()).isEqualTo(ClockBackwardsPolicy.refuse());
                    assertThat(context.getBean(UuidV7Generator.class).next().version()).isEqualTo(7);
                    assertThat(context.getBean(UuidV4Generator.class).next().version()).isEqualTo(4);
                });
    }

    @Test
    void theFieldOrderPropertyPutsTheMachineIdOnTop() {
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=613",
                "idgen.snowflake.field-order=machine-time-sequence").run(context -> {
                    assertThat(context).hasNotFailed();
                    SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
                    assertThat(snowflake.layout()).isEqualTo(
                            SnowflakeLayout.TWITTER.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE));
                    assertThat(snowflake.nextLong() >>> 53).isEqualTo(613L);
                });
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1",
                "idgen.snowflake.layout=discord", "idgen.snowflake.field-order=machine-time-sequence").run(context ->
                assertThat(rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.snowflake.field-order=machine-time-sequence does not fit idgen.snowflake.layout=discord:"
                        + " layout discord: field order MACHINE_TIME_SEQUENCE"));
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1",
                "idgen.snowflake.field-order=sideways").run(context ->
                assertThat(rootCause(context.getStartupFailure()).getMessage()).isEqualTo(
                        "idgen.snowflake.field-order=sideways is not a field order; allowed: time-machine-sequence,"
                        + " time-sequence-machine, machine-time-sequence, or unset for the layout's own"));
    }

    @Test
    void badValuesFailNamingThePropertyAndWhatIsAllowed() {
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1024").run(context ->
                assertThat(rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.value=1024 is outside 0..1023 allowed by layout twitter"));
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1",
                "idgen.snowflake.layout=tweeter").run(context ->
                assertThat(rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.snowflake.layout=tweeter is not a layout; allowed: twitter, discord, instagram, sonyflake, custom"));
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1",
                "idgen.snowflake.clock-backwards-max=11s").run(context ->
                assertThat(rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.snowflake.clock-backwards-max=PT11S does not fit idgen.snowflake.clock-backwards=wait"));
        runner.withPropertyValues("idgen.machine-id.source=jdbc").run(context ->
                assertThat(rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.source=jdbc needs a DataSource bean (spring.datasource.url)"));
        runner.withPropertyValues("idgen.machine-id.source=zookeeper").run(context ->
                assertThat(rootCause(context.getStartupFailure()).getMessage()).startsWith(
                        "idgen.machine-id.source=zookeeper needs idgen.machine-id.zookeeper.connect-string"));
    }

    @Test
    void environmentVariablesAndPodOrdinals() {
        // surefire sets IDGEN_TEST_MACHINE_ID=12 and IDGEN_TEST_POD=orders-7
        runner.withPropertyValues("idgen.machine-id.source=env", "idgen.machine-id.variable=IDGEN_TEST_MACHINE_ID")
                .run(context -> assertThat(context.getBean(SnowflakeGenerator.class).machineId()).isEqualTo(12));
        runner.withPropertyValues("idgen.machine-id.source=pod-ordinal", "idgen.machine-id.variable=IDGEN_TEST_POD")
                .run(context -> assertThat(context.getBean(SnowflakeGenerator.class).machineId()).isEqualTo(7));
        runner.withPropertyValues("idgen.machine-id.source=env", "idgen.machine-id.variable=IDGEN_TEST_UNSET")
                .run(context -> assertThat(rootCause(context.getStartupFailure()).getMessage()).contains(
                        "IDGEN_TEST_UNSET is not set"));
    }

    @Test
    void snowflakeCanBeSwitchedOffForUuidOnlyApplications() {
        runner.withPropertyValues("idgen.snowflake.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(SnowflakeGenerator.class);
            assertThat(context).hasSingleBean(UuidV7Generator.class);
        });
    }

    @Test
    void theApplicationsOwnBeansWin() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SnowflakeGenerator.class)).isSameAs(OwnBeans.SNOWFLAKE);
            assertThat(context.getBean(UuidV7Generator.class)).isSameAs(OwnBeans.UUID_V7);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        // held for the whole JVM by this static field: outside the registry, or it would refuse every
        // later generator of this test JVM whose ID space overlaps id 5's (any machine-first one)
        static final SnowflakeGenerator SNOWFLAKE = SnowflakeGenerator.builder().machineId(5).skipMachineIdRegistry()
                .build();
        static final UuidV7Generator UUID_V7 = UuidV7Generator.builder().build();

        @Bean
        SnowflakeGenerator snowflake() {
            return SNOWFLAKE;
        }

        @Bean
        UuidV7Generator uuidV7() {
            return UUID_V7;
        }
    }

    @Test
    void aJdbcLeaseIsClaimedAtStartAndReleasedAtShutdown() throws Exception {
        String table = "idgen_hib_boot_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        String url = "jdbc:h2:mem:idgen_hib_boot;DB_CLOSE_DELAY=-1";
        DataSource[] ds = new DataSource[1];
        long[] id = new long[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION, IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + url, "idgen.machine-id.source=jdbc",
                        "idgen.machine-id.jdbc.table=" + table)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease).isInstanceOf(JdbcMachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(context.getBean(SnowflakeGenerator.class).machineId()).isEqualTo(lease.machineId());
                    ds[0] = context.getBean(DataSource.class);
                    id[0] = lease.machineId();
                    assertThat(remainingMillis(ds[0], table, id[0])).isPositive();
                });
        // the context is closed: the row was released, not left to expire
        try (Connection c = java.sql.DriverManager.getConnection(url, "sa", "")) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT expires_ms - " + nowMillisH2() + " FROM " + table
                        + " WHERE machine_id = " + id[0])) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isNegative();
            }
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE " + table);
            }
        }
    }

    @Test
    void aLeaseClaimsAnyFreeIdAfterATakeoverUnlessTheApplicationKeepsItsOwn() {
        String table = "idgen_boot_reclaim_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:idgen_boot_reclaim;DB_CLOSE_DELAY=-1",
                        "idgen.machine-id.source=jdbc", "idgen.machine-id.jdbc.table=" + table);
        runner.run(context -> assertThat(((JdbcMachineIdLease) context.getBean(MachineIdLease.class)).reclaimsAnyId())
                .as("the default").isTrue());
        runner.withPropertyValues("idgen.machine-id.reclaim-any-id=false").run(context ->
                assertThat(((JdbcMachineIdLease) context.getBean(MachineIdLease.class)).reclaimsAnyId()).isFalse());
    }

    private static long remainingMillis(DataSource ds, String table, long id) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT expires_ms - " + nowMillisH2() + " FROM " + table
                        + " WHERE machine_id = " + id)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static String nowMillisH2() {
        return "DATEDIFF('MILLISECOND', TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00', CURRENT_TIMESTAMP(3))";
    }

    @Test
    void aZooKeeperLeaseIsClaimedAtStartAndReleasedAtShutdown() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            String path = NewNamespaces.zookeeper(zk.getConnectString(), "/idgen_hib_boot");
            runner.withPropertyValues("idgen.machine-id.source=zookeeper",
                    "idgen.machine-id.zookeeper.connect-string=" + zk.getConnectString(),
                    "idgen.machine-id.zookeeper.path=" + path, "idgen.machine-id.zookeeper.ttl=5s").run(context -> {
                        assertThat(context).hasNotFailed();
                        MachineIdLease lease = context.getBean(MachineIdLease.class);
                        assertThat(lease).isInstanceOf(ZkMachineIdLease.class);
                        assertThat(lease.isHeld()).isTrue();
                        assertThat(((ZkMachineIdLease) lease).timings().ttl()).isEqualTo(Duration.ofSeconds(5));
                    });
            try (CuratorFramework check = org.apache.curator.framework.CuratorFrameworkFactory.newClient(
                    zk.getConnectString(), new org.apache.curator.retry.RetryOneTime(100))) {
                check.start();
                check.blockUntilConnected();
                // the record stays (persistent), released: it expired when the context closed
                String record = new String(check.getData().forPath(path + "/ids/0"), StandardCharsets.UTF_8);
                java.util.regex.Matcher expires = java.util.regex.Pattern.compile("(?m)^expires=(-?\\d+)$").matcher(record);
                assertThat(expires.find()).as(record).isTrue();
                assertThat(Long.parseLong(expires.group(1))).isLessThanOrEqualTo(System.currentTimeMillis());
            }
        }
    }

    @Test
    void healthIsOutOfServiceWhileTheLeaseIsNotHeld() {
        AtomicBoolean held = new AtomicBoolean(true);
        MachineIdLease lease = new MachineIdLease() {
            @Override
            public long machineId() {
                return 9;
            }

            @Override
            public boolean isHeld() {
                return held.get();
            }
        };
        runner.withBean(MachineIdLease.class, () -> lease).run(context -> {
            IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
            assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
            assertThat(health.health().getDetails()).containsEntry("machineId", 9L).containsEntry("layout", "twitter")
                    .containsEntry("fieldOrder", "time-machine-sequence");
            held.set(false);
            // out of service, not down: the process is alive and the lease recovers by itself
            assertThat(health.health().getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
            assertThat(health.health().getDetails()).containsKey("cannotMakeIds");
        });
    }

    @Test
    void metersNameTheLeaseState() {
        AtomicBoolean held = new AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong losses = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong reclaims = new java.util.concurrent.atomic.AtomicLong();
        MachineIdLease lease = new MachineIdLease() {
            @Override
            public long machineId() {
                return 3;
            }

            @Override
            public boolean isHeld() {
                return held.get();
            }

            @Override
            public long losses() {
                return losses.get();
            }

            @Override
            public long reclaims() {
                return reclaims.get();
            }
        };
        runner.withBean(MachineIdLease.class, () -> lease).run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(IdgenMeterBinder.class).bindTo(registry);
            assertThat(registry.get("idgen.lease.held").tag("generator", "snowflake").tag("source", "custom")
                    .gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("idgen.lease.losses").tag("source", "custom").functionCounter().count())
                    .isEqualTo(0.0);
            assertThat(registry.get("idgen.lease.reclaims").tag("generator", "snowflake").tag("source", "custom")
                    .functionCounter().count()).isEqualTo(0.0);
            held.set(false);
            losses.incrementAndGet();
            assertThat(registry.get("idgen.lease.held").gauge().value()).isEqualTo(0.0);
            assertThat(registry.get("idgen.lease.losses").functionCounter().count()).isEqualTo(1.0);
            held.set(true);
            reclaims.addAndGet(2);
            assertThat(registry.get("idgen.lease.reclaims").functionCounter().count()).isEqualTo(2.0);
            assertThat(registry.get("idgen.lease.held").gauge().value()).isEqualTo(1.0);
            for (String generator : new String[] {"snowflake", "uuid-v7"}) {
                for (String counter : new String[] {"idgen.clock.steps.back", "idgen.clock.tick.waits",
                        "idgen.clock.refusals", "idgen.clock.run.aheads"}) {
                    assertThat(registry.get(counter).tag("generator", generator).functionCounter().count())
                            .as(counter + " " + generator).isEqualTo(0.0);
                }
                assertThat(registry.get("idgen.clock.step.back.max").tag("generator", generator).gauge().value())
                        .isEqualTo(0.0);
            }
        });
    }

    @Test
    void aRefusedClockTurnsHealthOutOfServiceForTheWindowAndCountsAsAMeter() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_800_000_000_000L);
        java.time.InstantSource clock = () -> Instant.ofEpochMilli(now.get());
        SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(1).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.refuse()).build();
        IdgenHealthIndicator health = new IdgenHealthIndicator(snowflake, MachineIdLease.fixed(1), null,
                Duration.ofSeconds(30), clock);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new IdgenMeterBinder(null, "fixed", snowflake, null).bindTo(registry);
        snowflake.nextLong();
        assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
        now.addAndGet(-100); // the clock steps back 100 ms: refused
        org.assertj.core.api.Assertions.assertThatThrownBy(snowflake::nextLong)
                .isInstanceOf(dev.idgen.clock.ClockMovedBackwardsException.class);
        assertThat(health.health().getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
        assertThat(registry.get("idgen.clock.refusals").tag("generator", "snowflake").functionCounter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("idgen.clock.steps.back").functionCounter().count()).isEqualTo(1.0);
        assertThat(registry.get("idgen.clock.step.back.max").gauge().value()).isEqualTo(100.0);
        now.addAndGet(30_101); // past the window, and past the last tick
        snowflake.nextLong();
        assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
    }

    @Test
    void hibernateGetsTheGeneratorBeans() {
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=4").run(context -> {
            Map<String, Object> properties = new HashMap<>();
            TestGeneration.customizeHibernate(context, properties);
            EntityIds ids = (EntityIds) properties.get(EntityIds.SETTING);
            assertThat(ids.snowflake()).isSameAs(context.getBean(SnowflakeGenerator.class));
            assertThat(ids.uuidV7()).isSameAs(context.getBean(UuidV7Generator.class));
        });
    }

    @Test
    void theConfigurationMetadataIsGenerated() throws Exception {
        try (var in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json).contains("\"idgen.machine-id.source\"", "\"idgen.snowflake.layout\"",
                    "\"idgen.snowflake.field-order\"", "\"machine-time-sequence\"",
                    "\"idgen.machine-id.jdbc.ttl\"", "\"idgen.uuid-v7.monotonic\"", "\"idgen.machine-id.redis.url\"",
                    "\"idgen.machine-id.redis.key-prefix\"", "\"idgen.machine-id.redis.ttl\"",
                    "\"idgen.machine-id.redis.renew-every\"", "\"idgen.machine-id.etcd.endpoints\"",
                    "\"idgen.machine-id.etcd.namespace\"", "\"idgen.machine-id.etcd.ttl\"",
                    "\"idgen.machine-id.jdbc.renew-every\"", "\"idgen.machine-id.jdbc.safety-margin\"",
                    "\"idgen.machine-id.redis.max-clock-skew\"", "\"idgen.machine-id.zookeeper.min-machine-id\"",
                    "\"idgen.machine-id.etcd.max-machine-id\"", "\"idgen.machine-id.redis.accept-eviction\"",
                    "\"idgen.readiness.enabled\"", "\"idgen.readiness.check-every\"");
        }
    }

    static Throwable rootCause(Throwable t) {
        Throwable c = t;
        while (c != null && !(c instanceof IdgenConfigurationException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c;
    }
}
