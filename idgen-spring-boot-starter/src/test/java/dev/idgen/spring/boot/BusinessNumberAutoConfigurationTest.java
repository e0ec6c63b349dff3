package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.segment.BusinessNumber;
import dev.idgen.segment.BusinessNumberGenerator;
import dev.idgen.segment.SegmentUnavailableException;
import dev.idgen.testsupport.TestPostgres;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@code idgen.business-number.<name>.*} on real PostgreSQL: a generator bean per name, numbers two
 * application contexts never share, meters, health DOWN while the store fails, and bad settings or
 * another pattern under the same name named at start with the property to set.
 */
class BusinessNumberAutoConfigurationTest {

    private final String table = "idgen_bn_boot_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);

    @Configuration(proxyBeanMethods = false)
    static class Db {
        @Bean
        SegmentAutoConfigurationTest.Cuttable dataSource() {
            TestPostgres.Server pg = TestPostgres.server();
            return new SegmentAutoConfigurationTest.Cuttable(new DriverManagerDataSource(pg.url(), pg.user(),
                    pg.password()));
        }
    }

    /** Takes the generator of one name by its qualifier. */
    static final class Invoices {
        final BusinessNumberGenerator numbers;

        Invoices(@Qualifier("invoice") BusinessNumberGenerator numbers) {
            this.numbers = numbers;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Service {
        @Bean
        Invoices invoices(@Qualifier("invoice") BusinessNumberGenerator numbers) {
            return new Invoices(numbers);
        }
    }

    private ApplicationContextRunner runner(String... properties) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenBusinessNumberAutoConfiguration.class))
                .withUserConfiguration(Db.class).withPropertyValues("idgen.business-number.invoice.table=" + table)
                .withPropertyValues(properties);
    }

    @AfterEach
    void dropTable() throws Exception {
        TestPostgres.Server pg = TestPostgres.server();
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void aGeneratorPerNameWhoseNumbersTwoContextsNeverShare() {
        String[] settings = {"idgen.business-number.invoice.pattern=INV-yyyyMMdd-NNNNNN",
            "idgen.business-number.order.pattern=ORD/yyyyMM/NNNN", "idgen.business-number.order.step=5",
            "idgen.business-number.order.table=" + table};
        runner(settings).withUserConfiguration(Service.class).run(a -> runner(settings).run(b -> {
            assertThat(a).hasNotFailed();
            BusinessNumberGenerator invoices = a.getBean(Invoices.class).numbers;
            assertThat(invoices).isSameAs(a.getBean(BusinessNumbers.class).get("invoice"));
            assertThat(a.getBean(BusinessNumbers.class).all()).containsOnlyKeys("invoice", "order");
            BusinessNumberGenerator other = b.getBean(BusinessNumbers.class).get("invoice");
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 50; i++) {
                assertThat(seen.add(invoices.next())).isTrue();
                assertThat(seen.add(other.next())).isTrue();
            }
            BusinessNumber read = invoices.format().parse(invoices.next());
            assertThat(read.prefix()).isEqualTo("INV");
            assertThat(read.counter()).isEqualTo(101);
            assertThat(a.getBean(BusinessNumbers.class).get("order").next()).startsWith("ORD/").hasSize(15);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            a.getBean(BusinessNumberMeterBinder.class).bindTo(registry);
            assertThat(registry.get("idgen.business-number.numbers").tag("name", "invoice").functionCounter().count())
                    .isEqualTo(51.0);
            assertThat(registry.get("idgen.business-number.grants").tag("name", "invoice").functionCounter().count())
                    .isEqualTo(51.0);
            assertThat(registry.get("idgen.business-number.grant").tag("name", "order").functionTimer().count())
                    .isEqualTo(1.0);
            assertThat(registry.get("idgen.business-number.store.failures").tag("name", "invoice").functionCounter()
                    .count()).isZero();
        }));
    }

    @Test
    void healthIsDownWhileTheStoreFailsAndUpWhenItAnswers() {
        runner("idgen.business-number.invoice.pattern=INV-yyyyMMdd-NNNNNN").run(c -> {
            BusinessNumberGenerator invoices = c.getBean(BusinessNumbers.class).get("invoice");
            invoices.next();
            HealthReport up = BusinessNumberHealth.report(c.getBean(BusinessNumbers.class));
            assertThat(up.state()).isEqualTo(HealthReport.State.UP);
            c.getBean(SegmentAutoConfigurationTest.Cuttable.class).cut.set(true);
            assertThatThrownBy(invoices::next).isInstanceOf(SegmentUnavailableException.class);
            HealthReport down = BusinessNumberHealth.report(c.getBean(BusinessNumbers.class));
            assertThat(down.state()).isEqualTo(HealthReport.State.DOWN);
            assertThat(down.details().get("invoice").toString()).contains("pattern=INV-yyyyMMdd-NNNNNN",
                    "storeFailures=1", "lastError=", "connection refused (cut off by the test)");
            c.getBean(SegmentAutoConfigurationTest.Cuttable.class).cut.set(false);
            assertThat(invoices.next()).endsWith("-000002");
            assertThat(BusinessNumberHealth.report(c.getBean(BusinessNumbers.class)).state())
                    .isEqualTo(HealthReport.State.UP);
        });
    }

    @Test
    void aMissingPatternOrABadStepNamesThePropertyToSet() {
        runner("idgen.business-number.invoice.step=3").run(c -> {
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo("idgen.business-number.invoice.pattern is not set;"
                    + " business numbers need their shape");
            assertThat(analysis.getAction()).startsWith("Set idgen.business-number.invoice.pattern, e.g.");
        });
        runner("idgen.business-number.invoice.pattern=INV-yyyyMMdd-NNNNNN", "idgen.business-number.invoice.step=0")
                .run(c -> {
                    FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
                    assertThat(analysis.getDescription()).isEqualTo("idgen.business-number.invoice.step=0: segment"
                            + " step 0 is out of range: 1 to 1,099,511,627,776 (2^40)");
                    assertThat(analysis.getAction()).startsWith("Set idgen.business-number.invoice.step to");
                });
        runner("idgen.business-number.invoice.pattern=INV-NNNN").run(c -> {
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("idgen.business-number.invoice.pattern=INV-NNNN:"
                    + " business number pattern 'INV-NNNN' cannot be read");
        });
    }

    @Test
    void anotherPatternUnderTheSameNameStopsTheStart() {
        runner("idgen.business-number.invoice.pattern=INVyyyyMMddNN").run(first -> {
            first.getBean(BusinessNumbers.class).get("invoice").next();
            runner("idgen.business-number.invoice.pattern=INVyyyyMMNNNN").run(second -> {
                assertThat(second).hasFailed();
                FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(second.getStartupFailure());
                assertThat(analysis.getDescription()).contains("INVyyyyMMddNN", "INVyyyyMMNNNN");
                assertThat(analysis.getAction()).isEqualTo("Set idgen.business-number.invoice.pattern back to"
                        + " INVyyyyMMddNN, or give the new pattern a new name under idgen.business-number.");
            });
        });
    }

    @Test
    void theStarterDescribesTheProperties() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            String metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(metadata).contains("\"name\": \"idgen.business-number\"")
                    .contains("IdgenBusinessNumberProperties$Numbers");
        }
    }
}
