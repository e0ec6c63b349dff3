package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idgen.testkit.lease.LeaseScenarios;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's lease conformance suite on a real, in-process ZooKeeper server ({@link ZkLeaseBackend}):
 * every scenario, none skipped. Each must make no ID twice, except the two that measure the
 * documented bound of a copy of a process image that sees no restore signal. About a minute of real
 * ttls (3 s each), so tagged {@code slow}: {@code .ci/run} runs it.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ZkLeaseConformanceTest {

    private static ZkTestServer zk;

    @BeforeAll
    static void start() throws Exception {
        zk = new ZkTestServer();
    }

    @AfterAll
    static void stop() throws Exception {
        zk.close();
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioOfTheSuite() {
        ZkLeaseBackend backend = new ZkLeaseBackend(zk);
        return LeaseScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            long start = System.nanoTime();
            LeaseScenarios.Result r = s.runOn(backend);
            System.out.println("ZooKeeper: " + r + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
            if (!s.name().equals("copy without signal") && !s.name().equals("copy whose renewals fail")) {
                assertEquals(0, r.identical(), r.toString());
            }
        }));
    }
}
