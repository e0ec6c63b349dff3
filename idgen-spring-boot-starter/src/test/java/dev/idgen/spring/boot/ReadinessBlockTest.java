package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.spring.boot.app.EmptyApplication;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The readiness block of docs/spring-boot.md, as pasted, starts a whole application on this Boot
 * generation: every auto-configuration on the class path (Actuator's health and its group
 * validation among them) and no setting but the block's and a machine id. Boot 4 enables the
 * probes by default; Boot 3.5 only on Kubernetes, and without the block's
 * {@code management.endpoint.health.probes.enabled=true} its group check stops the start. Both
 * starters run this test.
 */
class ReadinessBlockTest {

    private static final String PROBES = "management.endpoint.health.probes.enabled";

    /** What the application itself must say for idgen to start: a machine id. */
    private static final String[] MACHINE_ID = {"idgen.machine-id.source=fixed", "idgen.machine-id.value=7",
        "idgen.machine-id.check-with=none"};

    @Test
    void theBlockAsPastedStartsAnApplicationWithIdgenInTheReadinessGroup() throws IOException {
        Properties block = IdgenReadinessTest.readinessSnippet();
        assertThat(block).containsKey(PROBES);
        try (ConfigurableApplicationContext context = start(block)) {
            assertThat(TestGeneration.status(context, "readiness")).isEqualTo("UP");
            assertThat(TestGeneration.componentStatuses(context, "readiness")).containsOnlyKeys("readinessState", "idgen");
            assertThat(TestGeneration.status(context, "liveness")).isEqualTo("UP");
        }
    }

    @Test
    void withoutTheProbesLineBoot3StopsAtTheGroupCheckAndBoot4Starts() throws IOException {
        Properties block = IdgenReadinessTest.readinessSnippet();
        block.remove(PROBES);
        if (TestGeneration.PROBES_ENABLED_BY_DEFAULT) {
            try (ConfigurableApplicationContext context = start(block)) {
                assertThat(TestGeneration.componentStatuses(context, "readiness")).containsOnlyKeys("readinessState",
                        "idgen");
            }
        } else {
            assertThatThrownBy(() -> start(block).close()).hasStackTraceContaining(
                    "Included health contributor 'readinessState' in group 'readiness' does not exist");
        }
    }

    private static ConfigurableApplicationContext start(Properties block) {
        List<String> properties = new ArrayList<>(List.of(MACHINE_ID));
        block.forEach((k, v) -> properties.add(k + "=" + v));
        SpringApplication application = new SpringApplicationBuilder(EmptyApplication.class)
                .web(WebApplicationType.NONE).properties(properties.toArray(String[]::new)).build();
        // logging stays as this test JVM has it: Boot's logging set-up would change it for the tests after this one
        application.setListeners(application.getListeners().stream()
                .filter(l -> !(l instanceof LoggingApplicationListener)).toList());
        return application.run();
    }
}
