package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idgen.spring.boot.segmentjpa.Coupon;
import dev.idgen.testsupport.TestPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * An entity with {@code @SegmentId("tickets")} on real PostgreSQL and no {@code idgen.segment.tickets}
 * counter: start-up stops through the starter's failure analyzer with the property to set, whether
 * no counter at all or only others are configured.
 */
class MissingSegmentCounterTest {

    /** The entity numbered by the counter {@code tickets}. */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = Coupon.class)
    static class Entities {
    }

    private static ApplicationContextRunner runner() {
        TestPostgres.Server pg = TestPostgres.server();
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_SOURCE_AUTO_CONFIGURATION,
                        TestGeneration.HIBERNATE_JPA_AUTO_CONFIGURATION, IdgenSegmentAutoConfiguration.class,
                        IdgenAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withPropertyValues("spring.datasource.url=" + pg.url(), "spring.datasource.username=" + pg.user(),
                        "spring.jpa.hibernate.ddl-auto=none", "idgen.snowflake.enabled=false");
    }

    @Test
    void noCounterAtAllNamesThePropertyToSet() {
        runner().run(c -> {
            assertThat(c).hasFailed();
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).isEqualTo("@SegmentId(\"tickets\") takes its numbers from the"
                    + " segment counter idgen.segment.tickets, which is not configured (counters configured: none)");
            assertThat(analysis.getAction()).startsWith("Set idgen.segment.tickets.step=1000 (any"
                    + " idgen.segment.tickets.* property makes the counter;");
            // no plain-Hibernate wiring advice, no object's hash
            assertThat(analysis.getDescription() + analysis.getAction()).doesNotContain("EntityIds", "withSegments")
                    .doesNotContainPattern("@[0-9a-f]{4,}");
        });
    }

    @Test
    void otherCountersAreListed() {
        runner().withPropertyValues("idgen.segment.orders.step=10").run(c -> {
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(c.getStartupFailure());
            assertThat(analysis.getDescription()).endsWith("which is not configured (counters configured: orders)");
            assertThat(analysis.getAction()).startsWith("Set idgen.segment.tickets.step=1000");
        });
    }
}
