package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.testsupport.TestPostgres;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * idgen.machine-id.check-with: a fixed id claimed exactly in the lease table, so a second
 * instance on the same id fails at start naming the first; with no store, the warning stays.
 */
@ExtendWith(OutputCaptureExtension.class)
class CheckedMachineIdTest {

    private static final String WARNING = "and nothing checks that no other process uses it";

    private static ApplicationContextRunner instance(String url, String user, String table) throws IOException {
        List<String> props = new ArrayList<>();
        documentedSnippet().forEach((k, v) -> props.add(k + "=" + v));
        props.add("idgen.machine-id.jdbc.table=" + table); // the doc's table, made unique to this test
        props.add("spring.datasource.url=" + url);
        props.add("spring.datasource.username=" + user);
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues(props.toArray(String[]::new));
    }

    @Test
    void aSecondInstanceOnTheSameFixedIdFailsNamingTheFirstOnH2(CapturedOutput output) throws Exception {
        String url = "jdbc:h2:mem:idgen_checked_test;DB_CLOSE_DELAY=-1";
        twoInstancesOnOneId(url, "sa", output);
    }

    @Test
    void aSecondInstanceOnTheSameFixedIdFailsNamingTheFirstOnPostgresql(CapturedOutput output) throws Exception {
        twoInstancesOnOneId(TestPostgres.server().url(), "postgres", output);
    }

    private void twoInstancesOnOneId(String url, String user, CapturedOutput output) throws Exception {
        String table = "idgen_checked_test_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        try {
            instance(url, user, table).run(first -> {
                assertThat(first).hasNotFailed();
                MachineIdLease lease = first.getBean(MachineIdLease.class);
                assertThat(lease).isInstanceOf(JdbcMachineIdLease.class);
                assertThat(lease.machineId()).isEqualTo(7L);
                String owner = ((JdbcMachineIdLease) lease).owner();
                first.getBean(SnowflakeGenerator.class).nextLong();
                Map<String, Object> details = first.getBean(IdgenHealthIndicator.class).health().getDetails();
                assertThat(details).containsEntry("machineId", 7L).containsEntry("machineIdSource", "fixed")
                        .containsEntry("machineIdChecked", true);

                instance(url, user, table).run(second -> {
                    assertThat(second).hasFailed();
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(second.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("idgen.machine-id.source=fixed gives machine id 7,"
                            + " checked in table " + table, "Machine id 7 in table " + table
                            + " is held by a live lease of owner '" + owner + "'", "by the store's clock");
                    assertThat(analysis.getAction()).startsWith("Give this instance a machine id of its own: change"
                            + " idgen.machine-id.value").contains("idgen.machine-id.check-with=none");
                });
                assertThat(lease.isHeld()).as("the first instance keeps its id").isTrue();
            });
            assertThat(output.getAll()).doesNotContain(WARNING);
        } finally {
            try (Connection c = DriverManager.getConnection(url, user, ""); Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    @Test
    void checkWithNoneKeepsTheWarningEvenWithADataSource(CapturedOutput output) throws Exception {
        String url = "jdbc:h2:mem:idgen_checked_none_test;DB_CLOSE_DELAY=-1";
        instance(url, "sa", "idgen_checked_none_t").withPropertyValues("idgen.machine-id.check-with=none").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c.getBean(IdgenHealthIndicator.class).health().getDetails())
                    .containsEntry("machineIdChecked", false);
        });
        assertThat(output.getAll()).contains(WARNING, "idgen.machine-id.check-with=jdbc, redis, zookeeper or etcd");
    }

    @Test
    void autoWithNoDataSourceWarnsAndJdbcWithNoDataSourceFails(CapturedOutput output) {
        ApplicationContextRunner noStore = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=7");
        noStore.run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c.getBean(IdgenHealthIndicator.class).health().getDetails())
                    .containsEntry("machineIdChecked", false);
        });
        assertThat(output.getAll()).contains(WARNING);
        noStore.withPropertyValues("idgen.machine-id.check-with=jdbc").run(c -> {
            assertThat(c).hasFailed();
            assertThat(c.getStartupFailure()).rootCause().hasMessage("idgen.machine-id.check-with=jdbc needs a"
                    + " DataSource bean (spring.datasource.url); or set idgen.machine-id.check-with=none to start with"
                    + " the id unchecked");
        });
    }

    @Test
    void autoWithADataSourceButNoJdbcLeaseLibraryWarns(CapturedOutput output) throws Exception {
        String url = "jdbc:h2:mem:idgen_checked_nolib_test;DB_CLOSE_DELAY=-1";
        instance(url, "sa", "idgen_checked_nolib_t").withPropertyValues("idgen.machine-id.check-with=auto")
                .withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("dev.idgen.lease.jdbc"))
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(MachineIdLease.class).machineId()).isEqualTo(7L);
                    assertThat(c.getBean(IdgenHealthIndicator.class).health().getDetails())
                            .containsEntry("machineIdChecked", false);
                });
        assertThat(output.getAll()).contains(WARNING);
    }

    /** The properties block of the "Ids from configuration" section in docs/spring-boot.md. */
    static Properties documentedSnippet() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "spring-boot.md"));
        int section = doc.indexOf("\n## Ids from configuration");
        assertThat(section).as("docs/spring-boot.md has the section").isPositive();
        int start = doc.indexOf("```properties\n", section);
        int end = doc.indexOf("```", start + 14);
        assertThat(start).isPositive().isLessThan(doc.indexOf("\n## ", section + 1));
        Properties p = new Properties();
        p.load(new StringReader(doc.substring(start + 14, end)));
        assertThat(p).containsEntry("idgen.machine-id.check-with", "jdbc").containsEntry("idgen.machine-id.value", "7");
        return p;
    }
}
