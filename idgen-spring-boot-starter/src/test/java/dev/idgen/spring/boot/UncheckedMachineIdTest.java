package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.snowflake.SnowflakeGenerator;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A machine id from configuration or the environment, with nothing that checks it: the start logs
 * one warning naming the id and what to set instead, and the health details say so. A lease is
 * checked, and says nothing.
 */
@ExtendWith(OutputCaptureExtension.class)
class UncheckedMachineIdTest {

    private static final String WARNING = "and nothing checks that no other process uses it";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class));

    @Test
    void aFixedIdIsWarnedOnceAtStartAndHealthShowsItUnchecked(CapturedOutput output) throws Exception {
        runner.withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=41").run(context -> {
            assertThat(context).hasNotFailed();
            SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
            snowflake.nextLong();
            IdgenHealthIndicator health = context.getBean(IdgenHealthIndicator.class);
            health.health();
            Map<String, Object> details = health.health().getDetails();
            assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
            assertThat(details).containsEntry("machineId", 41L).containsEntry("machineIdSource", "fixed")
                    .containsEntry("machineIdChecked", false);
        });
        String out = output.getAll();
        assertThat(occurrences(out, WARNING)).as(out).isEqualTo(1);
        assertThat(line(out, WARNING)).contains("WARN", "Machine id 41 comes from idgen.machine-id.source=fixed"
                + " (idgen.machine-id.value)", "set idgen.machine-id.source to jdbc, zookeeper, redis or etcd");
        assertThat(line(out, WARNING)).endsWith(documentedWarning());
    }

    /** The warning as docs/spring-boot.md shows it, its lines joined, from the level on. */
    private static String documentedWarning() throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "spring-boot.md"));
        int section = doc.indexOf("\n## Ids from configuration");
        int start = doc.indexOf("```\nWARN", section) + 4; // the log block, not the properties one
        String block = doc.substring(start, doc.indexOf("```", start)).strip().replace("\n", " ");
        assertThat(block).startsWith("WARN dev.idgen.spring.boot.IdgenAutoConfiguration -- Machine id 41");
        return block;
    }

    @Test
    void environmentAndPodOrdinalIdsAreWarnedNamingTheVariable(CapturedOutput output) {
        // surefire sets IDGEN_TEST_MACHINE_ID=12 and IDGEN_TEST_POD=orders-7
        runner.withPropertyValues("idgen.machine-id.source=env", "idgen.machine-id.variable=IDGEN_TEST_MACHINE_ID")
                .run(context -> assertThat(context.getBean(IdgenHealthIndicator.class).health().getDetails())
                        .containsEntry("machineIdSource", "env").containsEntry("machineIdChecked", false));
        runner.withPropertyValues("idgen.machine-id.source=pod-ordinal", "idgen.machine-id.variable=IDGEN_TEST_POD")
                .run(context -> assertThat(context.getBean(IdgenHealthIndicator.class).health().getDetails())
                        .containsEntry("machineIdSource", "pod-ordinal").containsEntry("machineIdChecked", false));
        String out = output.getAll();
        assertThat(occurrences(out, WARNING)).isEqualTo(2);
        assertThat(out).contains("Machine id 12 comes from idgen.machine-id.source=env (the environment variable"
                + " IDGEN_TEST_MACHINE_ID)", "Machine id 7 comes from idgen.machine-id.source=pod-ordinal (the"
                + " environment variable IDGEN_TEST_POD)");
    }

    @Test
    void aLeaseIsCheckedAndNotWarned(CapturedOutput output) throws Exception {
        String table = "idgen_unchecked_test_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        String url = "jdbc:h2:mem:idgen_unchecked_test;DB_CLOSE_DELAY=-1";
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + url, "idgen.machine-id.source=jdbc",
                        "idgen.machine-id.jdbc.table=" + table)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(IdgenHealthIndicator.class).health().getDetails())
                            .containsEntry("machineIdSource", "jdbc").containsEntry("machineIdChecked", true);
                });
        assertThat(output.getAll()).doesNotContain(WARNING);
        try (Connection c = java.sql.DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("DROP TABLE " + table);
        }
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static String line(String text, String part) {
        return text.lines().filter(l -> l.contains(part)).findFirst().orElseThrow();
    }
}
