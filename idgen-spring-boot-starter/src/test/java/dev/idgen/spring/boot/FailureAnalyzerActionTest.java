package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.testsupport.Missing;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The failure report's Action names the setting that is actually wrong. Each row is a real start-up
 * failure: a real JDBC URL on a port nothing listens on, a database the real server does not have,
 * a login it refuses; and, for contrast, a lease table that is missing on a database that answers
 * and an idgen setting that is missing, where the Action stays with {@code idgen.*}.
 */
class FailureAnalyzerActionTest {

    private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test";

    static Stream<Arguments> failures() {
        return Stream.of(
                row("PostgreSQL: nothing listens on the URL's port", PG, "jdbc:postgresql://127.0.0.1:1/test",
                        "postgres", "", List.of("idgen.machine-id.source=jdbc"),
                        "Check spring.datasource.url: no connection could be made"),
                row("PostgreSQL: the URL names a database the server does not have", PG,
                        "jdbc:postgresql://127.0.0.1:5432/idgen_no_such_database", "postgres", "",
                        List.of("idgen.machine-id.source=jdbc"), "Check the database name in spring.datasource.url"),
                row("PostgreSQL: the server refuses the user", PG, PG, "idgen_no_such_role", "",
                        List.of("idgen.machine-id.source=jdbc"),
                        "Check spring.datasource.username and spring.datasource.password"),
                row("PostgreSQL: refused while a fixed id is checked in the lease table", PG,
                        "jdbc:postgresql://127.0.0.1:1/test", "postgres", "",
                        List.of("idgen.machine-id.source=fixed", "idgen.machine-id.value=3",
                                "idgen.machine-id.check-with=jdbc"),
                        "Check spring.datasource.url: no connection could be made"),
                row("MariaDB: nothing listens on the URL's port", MARIADB, "jdbc:mariadb://127.0.0.1:1/test", "root",
                        "", List.of("idgen.machine-id.source=jdbc"),
                        "Check spring.datasource.url: no connection could be made"),
                row("MariaDB: the URL names a database the server does not have", MARIADB,
                        "jdbc:mariadb://127.0.0.1:3306/idgen_no_such_database", "root", "",
                        List.of("idgen.machine-id.source=jdbc"), "Check the database name in spring.datasource.url"),
                row("MariaDB: the server refuses the password", MARIADB, MARIADB, "root", "idgen-wrong-password",
                        List.of("idgen.machine-id.source=jdbc"),
                        "Check spring.datasource.username and spring.datasource.password"),
                row("PostgreSQL answers, but the lease table is missing: an idgen setting", PG, PG, "postgres", "",
                        List.of("idgen.machine-id.source=jdbc", "idgen.machine-id.jdbc.create-table=false",
                                "idgen.machine-id.jdbc.table=idgen_no_such_lease_table"),
                        "Set the idgen.* properties named above"),
                row("no machine-id source: the idgen settings are what is wrong", null,
                        "jdbc:h2:mem:idgen_action_test;DB_CLOSE_DELAY=-1", "sa", "",
                        List.of("idgen.machine-id.check-with=none"), "Set the idgen.* properties named above"));
    }

    private static Arguments row(String what, String server, String url, String user, String password,
            List<String> idgen, String action) {
        return Arguments.of(what, server, url, user, password, idgen, action);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void theActionNamesTheWrongSetting(String what, String server, String url, String user, String password,
            List<String> idgen, String action) {
        if (server != null) {
            requireServer(server, server.startsWith("jdbc:mariadb") ? "root" : "postgres");
        }
        List<String> props = new ArrayList<>(idgen);
        props.add("spring.datasource.url=" + url);
        props.add("spring.datasource.username=" + user);
        props.add("spring.datasource.password=" + password);
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues(props.toArray(String[]::new))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).as(what).isNotNull();
                    assertThat(analysis.getAction()).as(what).startsWith(action);
                    if (action.contains("spring.datasource")) {
                        assertThat(analysis.getAction()).as(what).doesNotContain("idgen.");
                    }
                });
    }

    /** The server the row's failure comes from answers, so the failure is the row's and not a missing server. */
    private static void requireServer(String url, String user) {
        try (Connection c = DriverManager.getConnection(url, user, "")) {
            c.isValid(2);
        } catch (SQLException e) {
            // these rows need the server at its usual address (they name its port and databases)
            boolean maria = url.startsWith("jdbc:mariadb");
            throw Missing.server(maria ? "MariaDB" : "PostgreSQL", url + " does not answer: " + e.getMessage(),
                    Missing.apt(maria ? "mariadb-server" : "postgresql"));
        }
    }
}
