package dev.idgen.spring.boot;

/**
 * The Spring Boot generation this starter is built for (Boot 3.5.x: Hibernate 6.6, Jackson 2): the
 * names of Boot's classes whose packages differ between generations, for the conditions and
 * orderings of the auto-configurations, and the versions {@link BootVersionGuard} lets start.
 * idgen-spring-boot-starter has its own, for Boot 4.
 */
final class BootGeneration {

    /** This starter's artifact id. */
    static final String ARTIFACT = "idgen-spring-boot3-starter";

    /** The Boot versions this starter runs on, in words. */
    static final String SUPPORTED = "Spring Boot 3.5.x";

    /** The artifact for the other generation, in words. */
    static final String OTHER = "on Spring Boot 4.0.x or 4.1.x use dev.idgen:idgen-spring-boot-starter";

    /** Boot's DataSource auto-configuration, which the lease and segment auto-configurations follow. */
    static final String DATA_SOURCE_AUTO_CONFIGURATION =
            "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration";

    /** Boot's hook into Hibernate's properties. */
    static final String HIBERNATE_PROPERTIES_CUSTOMIZER =
            "org.springframework.boot.autoconfigure.orm.jpa.HibernatePropertiesCustomizer";

    /** Boot's health indicator type. */
    static final String HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";

    private BootGeneration() {
    }

    /** {@return whether this starter runs on Spring Boot {@code version}} */
    static boolean supports(String version) {
        return version.startsWith("3.5.");
    }
}
