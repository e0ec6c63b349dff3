package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.idgen.testkit.lease.LeaseScenarios;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/** The shared lease suite, every scenario on one private {@code redis-server}, ttl 3 s. */
@Tag("slow")
class RedisLeaseScenariosTest {

    /** A scenario waits a few ttls; more than this is a hang. */
    private static final Duration LIMIT = Duration.ofSeconds(90);

    private static TestRedis.Server server;

    @BeforeAll
    static void start() throws Exception {
        server = new TestRedis.Server();
        server.awaitUptimeAbove(Duration.ofSeconds(3)); // the fresh start is no restart for the first scenario
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @TestFactory
    Stream<DynamicTest> everyScenario() {
        return LeaseScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            LeaseScenarios.Result r = assertTimeoutPreemptively(LIMIT, () -> s.runOn(new RedisLeaseBackend(server)));
            System.out.printf("Redis: %s%n", r);
        }));
    }
}
