package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code idgen.machine-id.source=etcd} against a private etcd member started for this class on free
 * loopback ports (the lease's own test {@link EtcdCluster}, from idgen-etcd's test jar), each test
 * under a namespace of its own set up as new ({@link NewNamespaces}).
 */
class EtcdLeaseAutoConfigurationTest {

    private static EtcdCluster etcd;
    private static Client check;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class));

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.start(1);
        check = Client.builder().endpoints(etcd.endpoints()).build();
    }

    @AfterAll
    static void stopEtcd() {
        if (check != null) {
            check.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    private static String namespace(TestInfo info) {
        return NewNamespaces.etcd(etcd.endpoints(), "/idgen-boot-test/" + info.getTestMethod().orElseThrow().getName());
    }

    /** {@return the record of machine id {@code id}: token, nonce, expires, mark, fence offset, owner} */
    private static String[] record(String ns, long id) throws Exception {
        List<KeyValue> kv = keys(String.format("%s/ids/%010d", ns, id));
        assertThat(kv).hasSize(1);
        assertThat(kv.get(0).getLease()).as("bound to no etcd lease: the expiry is a field").isZero();
        return kv.get(0).getValue().toString(StandardCharsets.UTF_8).split(" ", 6);
    }

    private static List<KeyValue> keys(String prefix) throws Exception {
        return check.getKVClient().get(ByteSequence.from(prefix, StandardCharsets.UTF_8),
                GetOption.builder().isPrefix(true).build()).get(10, TimeUnit.SECONDS).getKvs();
    }

    @Test
    void aLeaseOnTheEndpointsIsClaimedWithTheTimingsGivenReportedAndReleasedAtShutdown(TestInfo info) throws Exception {
        String ns = namespace(info);
        long[] held = new long[2]; // the id, the time of the last ID made
        ApplicationContextRunner app = runner.withPropertyValues("idgen.machine-id.source=etcd",
                "idgen.machine-id.etcd.endpoints=" + String.join(",", etcd.endpoints()),
                "idgen.machine-id.etcd.namespace=" + ns, "idgen.machine-id.etcd.ttl=10s",
                "idgen.machine-id.etcd.renew-every=2s");
        app.run(context -> {
                    assertThat(context).hasNotFailed();
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease).isInstanceOf(EtcdMachineIdLease.class);
                    EtcdMachineIdLease e = (EtcdMachineIdLease) lease;
                    assertThat(e.isHeld()).isTrue();
                    assertThat(e.timings().ttl()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(e.timings().renewEvery()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(e.timings().storeHasClock()).as("etcd shows no clock").isFalse();
                    SnowflakeGenerator ids = context.getBean(SnowflakeGenerator.class);
                    SnowflakeId made = ids.decode(ids.nextLong());
                    assertThat(made.machineId()).isEqualTo(lease.machineId());
                    held[0] = lease.machineId();
                    held[1] = made.timestamp().toEpochMilli();
                    assertThat(context).hasBean("idgenEtcdClient");
                    // the id's record, on the server, names this holder and expires in the future
                    String[] record = record(ns, lease.machineId());
                    assertThat(record[5]).isEqualTo(e.owner());
                    assertThat(Long.parseLong(record[2])).isGreaterThan(System.currentTimeMillis());
                    assertThat(keys(ns + "/namespace").get(0).getValue().toString(StandardCharsets.UTF_8))
                            .endsWith(" " + SnowflakeLayout.TWITTER.signature());
                    IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
                    assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
                    assertThat(health.health().getDetails()).containsEntry("machineId", lease.machineId());
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(IdgenMeterBinder.class).bindTo(registry);
                    assertThat(registry.get("idgen.lease.held").tag("source", "etcd").gauge().value()).isEqualTo(1.0);
                });
        // the context is closed: the record stays with the mark of the IDs made, and the id is free at
        // once, so the next instance gets it again rather than the next one
        assertThat(Long.parseLong(record(ns, held[0])[3])).as("the high-water mark of the IDs made")
                .isGreaterThanOrEqualTo(held[1]);
        app.run(context -> assertThat(context.getBean(MachineIdLease.class).machineId()).as("the id released")
                .isEqualTo(held[0]));
    }

    @Test
    void theApplicationsClientIsUsedAndNoOtherMade(TestInfo info) throws Exception {
        String ns = namespace(info);
        runner.withBean(Client.class, () -> Client.builder().endpoints(etcd.endpoints()).build())
                .withPropertyValues("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.namespace=" + ns)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Client.class).doesNotHaveBean("idgenEtcdClient");
                    EtcdMachineIdLease lease = (EtcdMachineIdLease) context.getBean(MachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(record(ns, lease.machineId())[5]).isEqualTo(lease.owner());
                });
    }

    @Test
    void endpointsGivenAsAnIndexedListAreReadToo(TestInfo info) {
        String ns = namespace(info);
        runner.withPropertyValues("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.endpoints[0]="
                + etcd.endpoints()[0], "idgen.machine-id.etcd.namespace=" + ns).run(context -> {
                    assertThat(context).hasNotFailed().hasBean("idgenEtcdClient");
                    assertThat(context.getBean(MachineIdLease.class).isHeld()).isTrue();
                });
    }

    @Test
    void withoutEndpointsOrAClientTheStartFailsNamingWhatIsMissing() {
        runner.withPropertyValues("idgen.machine-id.source=etcd").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.source=etcd needs idgen.machine-id.etcd.endpoints (http://host:2379,...)"
                                + " or a jetcd Client bean"));
    }

    @Test
    void withoutTheLeaseLibraryOrJetcdTheStartFailsNamingTheMissingClass() {
        runner.withClassLoader(new FilteredClassLoader(EtcdMachineIdLease.class))
                .withPropertyValues("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.endpoints=http://127.0.0.1:1")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessage("idgen.machine-id.source=etcd needs dev.idgen:idgen-etcd and"
                                + " io.etcd:jetcd-core on the classpath; missing: dev.idgen.lease.etcd.EtcdMachineIdLease"));
        runner.withClassLoader(new FilteredClassLoader("io.etcd"))
                .withPropertyValues("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.endpoints=http://127.0.0.1:1")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessageEndingWith("; missing: io.etcd.jetcd.Client"));
    }

    @Test
    void theSkewBoundCountsTwiceOnEtcdAndTheTimingsSayWhy(TestInfo info) {
        String ns = namespace(info);
        ApplicationContextRunner app = runner.withPropertyValues("idgen.machine-id.source=etcd",
                "idgen.machine-id.etcd.endpoints=" + String.join(",", etcd.endpoints()),
                "idgen.machine-id.etcd.namespace=" + ns, "idgen.machine-id.etcd.ttl=5s");
        // 5 s would fit a store with a clock (2 x 1 s + 2 x 1 s + 0.5 s); etcd counts the skew bound twice
        app.run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                "idgen.machine-id.etcd.ttl, renew-every, safety-margin and max-clock-skew do not fit together (unset"
                        + " ones take their defaults): Lease timings do not fit: ttl 5000 ms must exceed 2 x renewEvery"
                        + " (1000 ms) + 2 x the skew bound (2000 ms: twice maxClockSkew, for a store with no clock)"
                        + " + safetyMargin (500 ms) = 6500 ms, or a healthy holder is fenced before its next renewal;"
                        + " lengthen the ttl or shorten the others"));
        app.withPropertyValues("idgen.machine-id.etcd.max-clock-skew=500ms").run(context -> {
            assertThat(context).hasNotFailed();
            EtcdMachineIdLease lease = (EtcdMachineIdLease) context.getBean(MachineIdLease.class);
            assertThat(lease.timings().maxClockSkew()).isEqualTo(Duration.ofMillis(500));
            assertThat(lease.timings().skewMillis()).isEqualTo(1000);
            assertThat(lease.isHeld()).isTrue();
        });
    }
}
