package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.SegmentUnavailableException;
import dev.idgen.testsupport.TestPostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@code idgen.segment.<name>.*} on real databases: generators by name, numbers from the store,
 * two application contexts never sharing a number, meters, health DOWN when the store is cut off
 * and every number is spent, and bad settings named at start.
 */
class SegmentAutoConfigurationTest {


    /** A real database whose connections can be cut off, as a network partition would. */
    static final class Cuttable extends DelegatingDataSource {
        final AtomicBoolean cut = new AtomicBoolean();

        Cuttable(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (cut.get()) {
                throw new SQLException("connection refused (cut off by the test)");
            }
            return super.getConnection();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Db {
        static String url;
        static String user;

        @Bean
        Cuttable dataSource() {
            return new Cuttable(new DriverManagerDataSource(url, user, ""));
        }
    }

    private static ApplicationContextRunner runner(String url, String user) {
        Db.url = url;
        Db.user = user;
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenSegmentAutoConfiguration.class))
                .withUserConfiguration(Db.class);
    }

    private static String table() {
        return "idgen_segment_boot_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
    }

    @Test
    void namedCountersCountUpFromTheStoreAndBadNamesAreNamed() {
        String url = "jdbc:h2:mem:idgen_segment_boot;DB_CLOSE_DELAY=-1";
        String table = table();
        runner(url, "sa").withPropertyValues("idgen.segment.orders.step=10", "idgen.segment.orders.table=" + table,
                "idgen.segment.invoices.step=3", "idgen.segment.invoices.table=" + table).run(c -> {
                    assertThat(c).hasNotFailed();
                    SegmentGenerators segments = c.getBean(SegmentGenerators.class);
                    assertThat(segments.all().keySet()).containsExactly("invoices", "orders");
                    SegmentGenerator orders = segments.get("orders");
                    for (long expected = 1; expected <= 25; expected++) {
                        assertThat(orders.nextLong()).isEqualTo(expected);
                    }
                    assertThat(segments.get("invoices").nextLong()).isEqualTo(1);
                    assertThat(orders.step()).isEqualTo(10);
                    assertThatThrownBy(() -> segments.get("nope")).hasMessage("no segment counter 'nope'; configured:"
                            + " invoices, orders (add it as idgen.segment.nope.step=...)");
                });
    }

    @Test
    void theDocumentedPropertiesStartAndGiveTheirCounters() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "segments.md"));
        int section = doc.indexOf("\n## Spring Boot");
        int start = doc.indexOf("```properties\n", section);
        int end = doc.indexOf("```", start + 14);
        assertThat(section).isPositive();
        assertThat(start).isPositive().isLessThan(doc.indexOf("\n## ", section + 1));
        java.util.Properties p = new java.util.Properties();
        p.load(new java.io.StringReader(doc.substring(start + 14, end)));
        String table = table();
        String[] props = p.stringPropertyNames().stream()
                .map(k -> k + "=" + (k.endsWith(".table") ? table : p.getProperty(k))).toArray(String[]::new);
        runner("jdbc:h2:mem:idgen_segment_boot_doc;DB_CLOSE_DELAY=-1", "sa").withPropertyValues(props).run(c -> {
            assertThat(c).hasNotFailed();
            SegmentGenerators segments = c.getBean(SegmentGenerators.class);
            assertThat(segments.get("orders").step()).isEqualTo(1000);
            assertThat(segments.get("invoices").prefetchTarget()).isZero();
            assertThat(segments.get("invoices").nextLong()).isEqualTo(1);
            assertThat(segments.get("invoices").nextLong()).isEqualTo(2);
        });
    }

    @Test
    void twoInstancesOnOneCounterNeverShareANumberOnPostgresql() throws Exception {
        assumePostgres();
        String table = table();
        try {
            ApplicationContextRunner r = runner(TestPostgres.server().url(), "postgres").withPropertyValues("idgen.segment.orders.step=7",
                    "idgen.segment.orders.table=" + table);
            Set<Long> seen = new HashSet<>();
            r.run(a -> r.run(b -> {
                SegmentGenerator ga = a.getBean(SegmentGenerators.class).get("orders");
                SegmentGenerator gb = b.getBean(SegmentGenerators.class).get("orders");
                for (int i = 0; i < 500; i++) {
                    assertThat(seen.add(ga.nextLong())).isTrue();
                    assertThat(seen.add(gb.nextLong())).isTrue();
                }
            }));
            assertThat(seen).hasSize(1000);
        } finally {
            drop(TestPostgres.server().url(), "postgres", table);
        }
    }

    @Test
    void metersAndHealthFollowTheStoreAndHealthIsDownOnceTheStoreIsCutOffAndEveryNumberSpent() {
        String url = "jdbc:h2:mem:idgen_segment_boot_health;DB_CLOSE_DELAY=-1";
        runner(url, "sa").withPropertyValues("idgen.segment.orders.step=5", "idgen.segment.orders.table=" + table(),
                "idgen.segment.orders.prefetch-min=0", "idgen.segment.orders.prefetch-max=0",
                "idgen.segment.orders.max-wait=150ms").run(c -> {
                    SegmentGenerator orders = c.getBean(SegmentGenerators.class).get("orders");
                    SegmentHealthIndicator health = c.getBean(SegmentHealthIndicator.class);
                    for (int i = 0; i < 3; i++) {
                        orders.nextLong();
                    }
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    c.getBean(SegmentMeterBinder.class).bindTo(registry);
                    assertThat(registry.get("idgen.segment.numbers.left").tag("name", "orders").gauge().value())
                            .isEqualTo(2.0);
                    assertThat(registry.get("idgen.segment.fetches").tag("name", "orders").functionCounter().count())
                            .isEqualTo(1.0);
                    assertThat(registry.get("idgen.segment.fetch").tag("name", "orders").functionTimer().count())
                            .isEqualTo(1.0);
                    assertThat(health.health().getStatus().getCode()).isEqualTo("UP");

                    c.getBean(Cuttable.class).cut.set(true);
                    orders.nextLong();
                    orders.nextLong(); // the last numbers held are still handed out
                    assertThatThrownBy(orders::nextLong).isInstanceOf(SegmentUnavailableException.class)
                            .hasMessageContaining("'orders'");
                    assertThat(health.health().getStatus().getCode()).isEqualTo("DOWN");
                    assertThat(health.health().getDetails().get("orders").toString())
                            .contains("numbersLeft=0", "cut off by the test");
                    assertThat(registry.get("idgen.segment.waits").tag("name", "orders").functionCounter().count())
                            .isGreaterThanOrEqualTo(1.0);

                    c.getBean(Cuttable.class).cut.set(false);
                    assertThat(orders.nextLong()).as("above every number before the cut").isGreaterThan(5);
                    assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
                });
    }

    @Test
    void badSettingsFailAtStartNamingTheProperty() {
        runner("jdbc:h2:mem:idgen_segment_boot_bad;DB_CLOSE_DELAY=-1", "sa")
                .withPropertyValues("idgen.segment.orders.step=0").run(c -> {
                    assertThat(c).hasFailed();
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("idgen.segment.orders.step=0: segment step 0 is"
                            + " out of range: 1 to 1,099,511,627,776 (2^40)");
                    assertThat(analysis.getAction()).isEqualTo("Set idgen.segment.orders.step to a value in the range"
                            + " the message above names.");
                });
        runner("jdbc:h2:mem:idgen_segment_boot_bad;DB_CLOSE_DELAY=-1", "sa")
                .withPropertyValues("idgen.segment.orders.prefetch-max=2000").run(c -> {
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("idgen.segment.orders.prefetch-min/-max=1/2000:"
                            + " prefetch bounds (1, 2000) must satisfy 0 <= min <= max <= 1024");
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenSegmentAutoConfiguration.class))
                .withPropertyValues("idgen.segment.orders.step=10").run(c -> {
                    assertThat(c).hasFailed();
                    assertThat(c.getStartupFailure()).hasStackTraceContaining("idgen.segment.orders needs a store");
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(IdgenSegmentAutoConfiguration.class))
                .run(c -> assertThat(c).doesNotHaveBean(SegmentGenerators.class));
    }

    private static void assumePostgres() {
        TestPostgres.server(); // found, or started privately; else a failure under CI and a skip elsewhere
    }

    private static void drop(String url, String user, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, ""); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        }
    }
}
