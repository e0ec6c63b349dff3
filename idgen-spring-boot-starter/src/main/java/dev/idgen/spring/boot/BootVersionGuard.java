package dev.idgen.spring.boot;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops an application on a Spring Boot this starter was not built for before any auto-configuration
 * runs, with one sentence naming the versions it supports and the artifact for the other
 * generation; otherwise its conditions would silently miss Boot's classes and the start would fail
 * later, pointing elsewhere. Registered in {@code META-INF/spring.factories}. A Boot whose version
 * cannot be read (no jar manifest) is let through.
 */
public final class BootVersionGuard implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** Made by Spring Boot. */
    public BootVersionGuard() {
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        check(SpringBootVersion.getVersion());
    }

    /**
     * @param version the running Spring Boot's version, or {@code null} when unknown
     * @throws IdgenConfigurationException if this starter does not support it
     */
    static void check(String version) {
        if (version != null && !BootGeneration.supports(version)) {
            throw new IdgenConfigurationException("dev.idgen:" + BootGeneration.ARTIFACT + " supports "
                    + BootGeneration.SUPPORTED + ", and this application runs Spring Boot " + version + ": "
                    + BootGeneration.OTHER + ".", "Use the idgen starter for the application's Spring Boot"
                    + " (the table is in docs/spring-boot.md), or move the application to "
                    + BootGeneration.SUPPORTED + ".", null);
        }
    }
}
