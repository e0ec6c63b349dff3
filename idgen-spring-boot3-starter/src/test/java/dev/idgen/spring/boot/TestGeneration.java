package dev.idgen.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.availability.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.jdbc.JdbcRepositoriesAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernatePropertiesCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The Spring Boot classes the starter's tests use whose packages differ between Boot generations,
 * here Boot 3.5's; the tests themselves are idgen-spring-boot-starter's, copied at build time.
 */
public final class TestGeneration {

    /** Boot's DataSource auto-configuration. */
    static final Class<?> DATA_SOURCE_AUTO_CONFIGURATION = DataSourceAutoConfiguration.class;

    /** Boot's auto-configurations a Spring Data JDBC application runs on: DataSource, JdbcTemplate, transactions, repositories. */
    public static final Class<?>[] DATA_JDBC_AUTO_CONFIGURATIONS = {DataSourceAutoConfiguration.class,
        JdbcTemplateAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
        JdbcRepositoriesAutoConfiguration.class};

    /** Boot's JPA-on-Hibernate auto-configuration. */
    static final Class<?> HIBERNATE_JPA_AUTO_CONFIGURATION = HibernateJpaAutoConfiguration.class;

    /**
     * Boot 3.5 enables the liveness and readiness probes only on Kubernetes, elsewhere with
     * {@code management.endpoint.health.probes.enabled=true}.
     */
    static final boolean PROBES_ENABLED_BY_DEFAULT = false;

    /** Boot versions the starter runs on. */
    static final String[] SUPPORTED = {"3.5.0", "3.5.7", "3.5.12"};

    /** Boot versions the starter refuses to start on. */
    static final String[] UNSUPPORTED = {"3.4.11", "3.3.0", "3.6.0", "4.0.7", "4.1.2", "2.7.18"};

    /** What the refusal names: the versions supported and the artifact for the other generation. */
    static final String[] REFUSAL_NAMES = {"Spring Boot 3.5.x", "dev.idgen:idgen-spring-boot-starter"};

    private TestGeneration() {
    }

    /** Applies every Hibernate properties customizer bean of {@code context} to {@code properties}. */
    static void customizeHibernate(ApplicationContext context, Map<String, Object> properties) {
        context.getBeanProvider(HibernatePropertiesCustomizer.class).orderedStream()
                .forEach(c -> c.customize(properties));
    }

    /** {@return {@code runner} with a Hibernate properties customizer bean that sets {@code key} to {@code value}} */
    static ApplicationContextRunner withHibernateProperty(ApplicationContextRunner runner, String key, Object value) {
        return runner.withBean(key + ".customizer", HibernatePropertiesCustomizer.class,
                () -> properties -> properties.put(key, value));
    }

    /**
     * {@return {@code runner} with Boot's health endpoint, its contributors and the liveness and
     * readiness probes} Boot 3 turns the probes on by itself only on Kubernetes; elsewhere it takes
     * {@code management.endpoint.health.probes.enabled=true}, as docs/spring-boot.md says.
     */
    static ApplicationContextRunner withHealthEndpoint(ApplicationContextRunner runner) {
        return runner.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
                HealthEndpointAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
                AvailabilityProbesAutoConfiguration.class))
                .withPropertyValues("management.endpoint.health.probes.enabled=true");
    }

    /** {@return the status code the health endpoint reports for {@code path} (a group or a component)} */
    static String status(ApplicationContext context, String path) {
        return context.getBean(HealthEndpoint.class).healthForPath(path).getStatus().getCode();
    }

    /** {@return each component of the health group {@code group} with its status code; empty when none are shown} */
    static Map<String, String> componentStatuses(ApplicationContext context, String group) {
        HealthComponent health = context.getBean(HealthEndpoint.class).healthForPath(group);
        Map<String, String> statuses = new LinkedHashMap<>();
        if (health instanceof CompositeHealth composite) {
            composite.getComponents().forEach((name, c) -> statuses.put(name, c.getStatus().getCode()));
        }
        return statuses;
    }
}
