package dev.idgen.lease.etcd;

import dev.idgen.testkit.lease.LeaseScenarios;
import io.etcd.jetcd.Client;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/** The lease conformance suite on a real etcd member (a child process on loopback). */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class EtcdConformanceTest {

    private static EtcdCluster etcd;
    private static Client admin;

    @BeforeAll
    static void start() {
        etcd = EtcdCluster.start(1);
        admin = Client.builder().endpoints(etcd.endpoint(0)).build();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioOnEtcd() {
        EtcdLeaseBackend backend = new EtcdLeaseBackend(etcd, admin);
        return LeaseScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(),
                () -> System.out.println("etcd: " + s.runOn(backend))));
    }
}
