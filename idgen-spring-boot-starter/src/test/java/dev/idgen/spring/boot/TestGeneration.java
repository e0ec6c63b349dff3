package dev.idgen.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The Spring Boot classes the starter's tests use whose packages differ between Boot generations,
 * here Boot 4's. idgen-spring-boot3-starter runs the same tests with a class of this name of its own.
 */
public final class TestGeneration {

    /** Boot's DataSource auto-configuration. */
    static final Class<?> DATA_SOURCE_AUTO_CONFIGURATION = DataSourceAutoConfiguration.class;

    /** Boot's auto-configurations a Spring Data JDBC application runs on: DataSource, JdbcTemplate, transactions, repositories. */
    public static final Class<?>[] DATA_JDBC_AUTO_CONFIGURATIONS = {DataSourceAutoConfiguration.class,
        JdbcTemplateAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
        DataJdbcRepositoriesAutoConfiguration.class};

    /** Boot's JPA-on-Hibernate auto-configuration. */
    static final Class<?> HIBERNATE_JPA_AUTO_CONFIGURATION = HibernateJpaAutoConfiguration.class;

    /** Boot 4 enables the liveness and readiness probes without a setting. */
    static final boolean PROBES_ENABLED_BY_DEFAULT = true;

    /** Boot versions the starter runs on. */
    static final String[] SUPPORTED = {"4.0.0", "4.0.7", "4.1.2"};

    /** Boot versions the starter refuses to start on. */
    static final String[] UNSUPPORTED = {"3.5.7", "3.4.0", "4.2.0", "4.10.1", "5.0.0"};

    /** What the refusal names: the versions supported and the artifact for the other generation. */
    static final String[] REFUSAL_NAMES = {"Spring Boot 4.0.x and 4.1.x", "dev.idgen:idgen-spring-boot3-starter"};

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

    /** {@return {@code runner} with Boot's health endpoint, its contributors and the liveness and readiness probes} */
    static ApplicationContextRunner withHealthEndpoint(ApplicationContextRunner runner) {
        return runner.withConfiguration(AutoConfigurations.of(HealthContributorRegistryAutoConfiguration.class,
                HealthContributorAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
                AvailabilityHealthContributorAutoConfiguration.class, AvailabilityProbesAutoConfiguration.class));
    }

    /** {@return the status code the health endpoint reports for {@code path} (a group or a component)} */
    static String status(ApplicationContext context, String path) {
        return context.getBean(HealthEndpoint.class).healthForPath(path).getStatus().getCode();
    }

    /** {@return each component of the health group {@code group} with its status code; empty when none are shown} */
    static Map<String, String> componentStatuses(ApplicationContext context, String group) {
        HealthDescriptor health = context.getBean(HealthEndpoint.class).healthForPath(group);
        Map<String, String> statuses = new LinkedHashMap<>();
        if (health instanceof CompositeHealthDescriptor composite) {
            composite.getComponents().forEach((name, c) -> statuses.put(name, c.getStatus().getCode()));
        }
        return statuses;
    }
}
