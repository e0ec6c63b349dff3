package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * An application on a Spring Boot the starter was not built for stops at once with one sentence
 * naming the versions supported; the versions differ per starter ({@link TestGeneration}).
 */
class BootVersionGuardTest {

    @Test
    void theBootTheTestsRunOnIsSupportedAndTheGuardLetsItsApplicationsStart() {
        String running = SpringBootVersion.getVersion();
        assertThat(running).as("Boot's version from its jar").isNotNull();
        assertThat(BootGeneration.supports(running)).as(running).isTrue();
        // what SpringApplication.run calls before the context refreshes (not run here: a real run
        // sets up Boot's logging for the whole test JVM)
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            assertThatCode(() -> new BootVersionGuard().initialize(context)).doesNotThrowAnyException();
        }
    }

    @Test
    void eachSupportedVersionPasses() {
        for (String version : TestGeneration.SUPPORTED) {
            assertThatCode(() -> BootVersionGuard.check(version)).as(version).doesNotThrowAnyException();
        }
    }

    @Test
    void anUnsupportedVersionFailsWithOneSentenceNamingItAndTheVersionsSupported() {
        for (String version : TestGeneration.UNSUPPORTED) {
            IdgenConfigurationException e = catchThrowableOfType(IdgenConfigurationException.class,
                    () -> BootVersionGuard.check(version));
            assertThat(e).as(version).isNotNull();
            assertThat(e.getMessage()).contains("Spring Boot " + version).contains(TestGeneration.REFUSAL_NAMES)
                    .endsWith(".").doesNotContain(". ").doesNotContain("\n");
            FailureAnalysis analysis = new IdgenFailureAnalyzer().analyze(e);
            assertThat(analysis.getDescription()).isEqualTo(e.getMessage());
            assertThat(analysis.getAction()).contains("docs/spring-boot.md");
        }
    }

    @Test
    void anUnknownVersionIsLetThrough() {
        assertThatCode(() -> BootVersionGuard.check(null)).doesNotThrowAnyException();
    }

    @Test
    void theGuardIsRegisteredAsAnInitializerThatSpringApplicationRuns() {
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(ApplicationContextInitializer.class))
                .anyMatch(BootVersionGuard.class::isInstance);
        assertThat(new SpringApplication(Empty.class).getInitializers()).anyMatch(BootVersionGuard.class::isInstance);
    }

    /** An application with nothing in it. */
    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }
}
