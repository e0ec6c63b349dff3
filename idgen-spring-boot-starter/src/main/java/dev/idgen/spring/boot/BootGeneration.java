package dev.idgen.spring.boot;

/**
 * The Spring Boot generation this starter is built for (Boot 4.0.x and 4.1.x: Hibernate 7,
 * Jackson 3): the names of Boot's classes whose packages differ between generations, for the
 * conditions and orderings of the auto-configurations, and the versions {@link BootVersionGuard}
 * lets start. idgen-spring-boot3-starter has its own, for Boot 3.5.x.
 */
final class BootGeneration {

    /** This starter's artifact id. */
    static final String ARTIFACT = "idgen-spring-boot-starter";

    /** The Boot versions this starter runs on, in words. */
    static final String SUPPORTED = "Spring Boot 4.0.x and 4.1.x";

    /** The artifact for the other generation, in words. */
    static final String OTHER = "on Spring Boot 3.5.x use dev.idgen:idgen-spring-boot3-starter";

    /** Boot's DataSource auto-configuration, which the lease and segment auto-configurations follow. */
    static final String DATA_SOURCE_AUTO_CONFIGURATION =
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

    /** Boot's hook into Hibernate's properties. */
    static final String HIBERNATE_PROPERTIES_CUSTOMIZER =
            "org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer";

    /** Boot's health indicator type. */
    static final String HEALTH_INDICATOR = "org.springframework.boot.health.contributor.HealthIndicator";

    private BootGeneration() {
    }

    /** {@return whether this starter runs on Spring Boot {@code version}} */
    static boolean supports(String version) {
        return version.startsWith("4.0.") || version.startsWith("4.1.");
    }
}
