package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
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
 * loopback ports (the lease's own test {@link EtcdCluster}, from idgen-etcd's test jar).
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
        return "/idgen-boot-test/" + info.getTestMethod().orElseThrow().getName();
    }

    private static List<KeyValue> keys(String prefix) throws Exception {
        return check.getKVClient().get(ByteSequence.from(prefix, StandardCharsets.UTF_8),
                GetOption.builder().isPrefix(true).build()).get(10, TimeUnit.SECONDS).getKvs();
    }

    @Test
    void aLeaseOnTheEndpointsIsClaimedWithTheTimingsGivenReportedAndRevokedAtShutdown(TestInfo info) throws Exception {
        String ns = namespace(info);
        runner.withPropertyValues("idgen.machine-id.source=etcd",
                "idgen.machine-id.etcd.endpoints=" + String.join(",", etcd.endpoints()),
                "idgen.machine-id.etcd.namespace=" + ns, "idgen.machine-id.etcd.ttl=10s",
                "idgen.machine-id.etcd.renew-every=2s").run(context -> {
                    assertThat(context).hasNotFailed();
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease).isInstanceOf(EtcdMachineIdLease.class);
                    EtcdMachineIdLease e = (EtcdMachineIdLease) lease;
                    assertThat(e.isHeld()).isTrue();
                    assertThat(e.timings().ttl()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(e.timings().renewEvery()).isEqualTo(Duration.ofSeconds(2));
                    SnowflakeGenerator ids = context.getBean(SnowflakeGenerator.class);
                    assertThat(ids.decode(ids.nextLong()).machineId()).isEqualTo(lease.machineId());
                    assertThat(context).hasBean("idgenEtcdClient");
                    // the id's key, on the server, names this holder and is bound to an etcd lease
                    List<KeyValue> id = keys(ns + "/id/" + lease.machineId());
                    assertThat(id).hasSize(1);
                    assertThat(id.get(0).getValue().toString(StandardCharsets.UTF_8)).contains(e.owner());
                    assertThat(id.get(0).getLease()).isNotZero();
                    IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
                    assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
                    assertThat(health.health().getDetails()).containsEntry("machineId", lease.machineId());
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(IdgenMeterBinder.class).bindTo(registry);
                    assertThat(registry.get("idgen.lease.held").tag("source", "etcd").gauge().value()).isEqualTo(1.0);
                });
        // the context is closed: the id key is gone at once (lease revoked), the mark stays
        assertThat(keys(ns + "/id/")).isEmpty();
        assertThat(keys(ns + "/mark/")).hasSize(1);
    }

    @Test
    void theApplicationsClientIsUsedAndNoOtherMade(TestInfo info) throws Exception {
        String ns = namespace(info);
        runner.withBean(Client.class, () -> Client.builder().endpoints(etcd.endpoints()).build())
                .withPropertyValues("idgen.machine-id.source=etcd", "idgen.machine-id.etcd.namespace=" + ns)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(Client.class).doesNotHaveBean("idgenEtcdClient");
                    MachineIdLease lease = context.getBean(MachineIdLease.class);
                    assertThat(lease.isHeld()).isTrue();
                    assertThat(keys(ns + "/id/" + lease.machineId())).hasSize(1);
                });
        assertThat(keys(ns + "/id/")).isEmpty();
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
    void aTtlEtcdCannotGrantFailsNamingTheValue(TestInfo info) {
        runner.withPropertyValues("idgen.machine-id.source=etcd",
                "idgen.machine-id.etcd.endpoints=" + String.join(",", etcd.endpoints()),
                "idgen.machine-id.etcd.namespace=" + namespace(info), "idgen.machine-id.etcd.ttl=2500ms")
                .run(context -> assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure())).hasMessage(
                        "idgen.machine-id.source=etcd: no machine id could be claimed under " + namespace(info)
                                + ": etcd lease ttl 2500 ms must be a whole number of seconds, at least 1 s (etcd"
                                + " grants leases in seconds)"));
    }
}
