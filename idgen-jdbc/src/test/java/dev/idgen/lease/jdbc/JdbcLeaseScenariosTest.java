package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.idgen.testkit.lease.LeaseScenarios;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared lease suite, every scenario on PostgreSQL and on MariaDB (about a minute a server:
 * tag {@code slow}). Not on H2: its client ignores the network timeout (a no-op in H2 2.x), so a
 * connection behind a silenced proxy would hang; H2 runs the store's own tests, embedded.
 */
@Tag("slow")
class JdbcLeaseScenariosTest {

    /** A scenario waits a few ttls (3 s here); more than this is a hang. */
    private static final Duration LIMIT = Duration.ofSeconds(90);

    @TestFactory
    Stream<DynamicContainer> everyScenarioOnEveryServer() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB).map(db -> DynamicContainer.dynamicContainer(
                db.toString(), LeaseScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
                    LeaseScenarios.Result r = assertTimeoutPreemptively(LIMIT,
                            () -> s.runOn(new JdbcLeaseBackend(db)));
                    System.out.printf("%s: %s%n", db, r);
                }))));
    }
}
