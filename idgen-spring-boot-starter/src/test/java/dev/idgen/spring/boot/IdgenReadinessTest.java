package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The readiness group follows the generators: out while the lease is fenced (or claiming again) or
 * a clock refusal is within its window, back when IDs can be made again; liveness stays UP. The
 * check is driven directly ({@link IdgenReadiness#check()}); its period is set to 10 s so the
 * scheduled run does not take part (it would compute the same answer if it did).
 */
class IdgenReadinessTest {

    private static final long START = 1_800_000_000_000L;
    private final AtomicLong now = new AtomicLong(START);
    private final InstantSource clock = () -> Instant.ofEpochMilli(now.get());
    /** A lease the test drives by hand: lost by a restore signal, held again by a claim of another id. */
    private final StoreLease lease = StoreLease.builder(new InMemoryLeaseStore(clock, "in the test")).clock(clock)
            .background(false).ttl(Duration.ofSeconds(30)).renewEvery(Duration.ofSeconds(5))
            .safetyMargin(Duration.ofSeconds(3)).maxClockSkew(Duration.ofSeconds(1)).maxMachineId(15).acquire();
    private final SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(lease).clock(clock)
            .onClockBackwards(ClockBackwardsPolicy.refuse()).build();

    private final ApplicationContextRunner runner = TestGeneration.withHealthEndpoint(new ApplicationContextRunner())
            .withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
                    IdgenLeaseAutoConfiguration.class, IdgenAutoConfiguration.class,
                    IdgenReadinessAutoConfiguration.class))
            .withPropertyValues("idgen.readiness.check-every=10s")
            .withBean(MachineIdLease.class, () -> lease)
            .withBean(SnowflakeGenerator.class, () -> snowflake);

    /** Held again after a loss: a claim of another id, confirmed; the fence opens. */
    private void hold() {
        if (!lease.isHeld()) {
            assertThat(lease.renewNow()).isTrue();
        }
        assertThat(lease.isHeld()).isTrue();
    }

    /** The lease is lost: a restore signal shuts its fence, and it claims nothing until {@link #hold()}. */
    private void lose() {
        lease.afterRestore();
        assertThat(lease.isHeld()).isFalse();
    }

    /** What Spring Boot publishes once the application has started. */
    private static void started(AssertableApplicationContext context) {
        AvailabilityChangeEvent.publish(context, LivenessState.CORRECT);
        AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
    }

    private static String probe(AssertableApplicationContext context, String group) {
        return TestGeneration.status(context, group);
    }

    @Test
    void aFencedLeaseTakesTheApplicationOutOfReadinessWhileLivenessStaysUpAndAHeldOneBringsItBack() {
        hold();
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            started(context);
            IdgenReadiness readiness = context.getBean(IdgenReadiness.class);
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            assertThat(readiness.check()).isNull();
            assertThat(probe(context, "readiness")).isEqualTo("UP");

            lose();
            assertThatThrownBy(snowflake::nextLong).isInstanceOf(MachineIdLostException.class);
            assertThat(readiness.check()).contains("the machine-id lease is not held",
                    "restored or copied (afterRestore() was called)");
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
            assertThat(probe(context, "readiness")).isEqualTo("OUT_OF_SERVICE");
            assertThat(probe(context, "liveness")).isEqualTo("UP");
            assertThat(context.getBean(IdgenHealthIndicator.class).health().getStatus().getCode())
                    .isEqualTo("OUT_OF_SERVICE");

            hold(); // claimed again
            assertThat(readiness.check()).isNull();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
            assertThat(probe(context, "readiness")).isEqualTo("UP");
            assertThat(probe(context, "liveness")).isEqualTo("UP");
            assertThat(snowflake.nextLong()).isPositive();
        });
    }

    @Test
    void aFenceThatTimePassedWithoutRenewalCountsLikeALoss() {
        hold();
        runner.run(context -> {
            started(context);
            IdgenReadiness readiness = context.getBean(IdgenReadiness.class);
            now.addAndGet(30_000); // no renewal acknowledged: the fence (expiry - skew - margin) is behind us
            assertThat(readiness.check()).contains("the machine-id lease is not held");
            assertThat(probe(context, "readiness")).isEqualTo("OUT_OF_SERVICE");
            assertThat(probe(context, "liveness")).isEqualTo("UP");
        });
    }

    @Test
    void aClockRefusalRefusesTrafficForTheRefusalWindowOnly() {
        // no context: the window is read against the test's clock, which the auto-configured check
        // (system clock) would not see; Spring Boot's own availability bean keeps the state
        hold();
        ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
        ApplicationEventPublisher publisher = e -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) e);
        IdgenReadiness readiness = new IdgenReadiness(
                new GeneratorCheck(snowflake, lease, null, Duration.ofSeconds(5), clock), availability, publisher,
                Duration.ofMillis(250));
        AvailabilityChangeEvent.publish(publisher, this, LivenessState.CORRECT);
        AvailabilityChangeEvent.publish(publisher, this, ReadinessState.ACCEPTING_TRAFFIC);
        snowflake.nextLong();
        now.addAndGet(-200); // the clock steps back 200 ms: refused
        assertThatThrownBy(snowflake::nextLong).isInstanceOf(ClockMovedBackwardsException.class);
        assertThat(readiness.check()).contains("Snowflake generator's clock was refused");
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);

        now.addAndGet(5_000); // 5 s after the refusal: still within the window (its end included)
        assertThat(readiness.check()).isNotNull();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        now.addAndGet(1);
        assertThat(readiness.check()).isNull();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
    }

    @Test
    void itNeitherAcceptsTrafficBeforeTheApplicationIsReadyNorUndoesARefusalOfAnotherParty() {
        hold();
        runner.run(context -> {
            IdgenReadiness readiness = context.getBean(IdgenReadiness.class);
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            List<ReadinessState> published = new ArrayList<>();
            context.addApplicationListener(e -> {
                if (e instanceof AvailabilityChangeEvent<?> a && a.getState() instanceof ReadinessState r) {
                    published.add(r);
                }
            });
            // not started yet: readiness is REFUSING_TRAFFIC (no event), and a check that can make ids leaves it
            assertThat(readiness.check()).isNull();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(published).isEmpty();

            started(context);
            AvailabilityChangeEvent.publish(context, this, ReadinessState.REFUSING_TRAFFIC); // the application's own
            readiness.check();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);

            // its own refusal, then the application's: the later one stands when ids can be made again
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
            lose();
            readiness.check();
            hold();
            AvailabilityChangeEvent.publish(context, this, ReadinessState.REFUSING_TRAFFIC); // then the application refuses
            readiness.check();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(published).containsExactly(ReadinessState.ACCEPTING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC,
                    ReadinessState.ACCEPTING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC,
                    ReadinessState.REFUSING_TRAFFIC);
        });
    }

    @Test
    void theScheduledCheckNoticesALossOnItsOwn() {
        hold();
        runner.withPropertyValues("idgen.readiness.check-every=10ms").run(context -> {
            started(context);
            assertThat(context.getBean(IdgenReadiness.class).isRunning()).isTrue();
            CountDownLatch refused = new CountDownLatch(1);
            context.addApplicationListener(e -> {
                if (e instanceof AvailabilityChangeEvent<?> a && a.getState() == ReadinessState.REFUSING_TRAFFIC) {
                    refused.countDown();
                }
            });
            lose();
            // real time, bounded: the daemon thread runs every 10 ms
            assertThat(refused.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(probe(context, "readiness")).isEqualTo("OUT_OF_SERVICE");
        });
    }

    @Test
    void theReadinessCheckCanBeTurnedOffAndItsSettingsAreChecked() {
        runner.withPropertyValues("idgen.readiness.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(IdgenReadiness.class);
            started(context);
            lose();
            assertThat(probe(context, "readiness")).isEqualTo("UP");
        });
        runner.withPropertyValues("idgen.readiness.check-every=5ms").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessage("idgen.readiness.check-every=PT0.005S is outside 10ms..10s"));
        runner.withPropertyValues("idgen.health.refusal-window=-1s").run(context ->
                assertThat(IdgenAutoConfigurationTest.rootCause(context.getStartupFailure()))
                        .hasMessage("idgen.health.refusal-window=PT-1S must be 0 or more (for example 30s)"));
    }

    @Test
    void theDocumentedPropertiesPutTheIdgenComponentIntoTheReadinessGroupForAll() throws IOException {
        Properties documented = readinessSnippet();
        assertThat(documented).containsKeys("management.endpoint.health.group.readiness.include",
                "management.endpoint.health.group.readiness.show-components");
        List<String> pairs = new ArrayList<>();
        documented.forEach((k, v) -> pairs.add(k + "=" + v));
        hold();
        runner.withPropertyValues(pairs.toArray(String[]::new)).run(context -> {
            assertThat(context).hasNotFailed();
            started(context);
            lose();
            context.getBean(IdgenReadiness.class).check();
            assertThat(probe(context, "readiness")).isEqualTo("OUT_OF_SERVICE");
            // shown with show-details unset (never): the components, each with its status
            var components = TestGeneration.componentStatuses(context, "readiness");
            assertThat(components).containsOnlyKeys("readinessState", "idgen");
            assertThat(components.get("idgen")).isEqualTo("OUT_OF_SERVICE");
            assertThat(probe(context, "liveness")).isEqualTo("UP");
        });
    }

    @Test
    void theFrontPageLinesWorkWhereBootLeavesTheProbesOff() throws IOException {
        // README.md's application.properties, its management.* lines, on a Boot whose probes are off
        // unless set (Boot 3.5 outside Kubernetes): the lines alone must turn them on and show idgen
        List<String> pairs = new ArrayList<>();
        frontPageProperties().forEach((k, v) -> {
            if (k.toString().startsWith("management.")) {
                pairs.add(k + "=" + v);
            }
        });
        assertThat(pairs).contains("management.endpoint.health.group.readiness.include=readinessState,idgen");
        hold();
        runner.withPropertyValues("management.endpoint.health.probes.enabled=false")
                .withPropertyValues(pairs.toArray(String[]::new)).run(context -> {
                    assertThat(context).hasNotFailed();
                    started(context);
                    lose();
                    context.getBean(IdgenReadiness.class).check();
                    assertThat(probe(context, "readiness")).isEqualTo("OUT_OF_SERVICE");
                    assertThat(TestGeneration.componentStatuses(context, "readiness"))
                            .containsEntry("idgen", "OUT_OF_SERVICE").containsKey("readinessState");
                    assertThat(probe(context, "liveness")).isEqualTo("UP");
                });
    }

    /** The properties block of README.md that sets up the readiness group. */
    static Properties frontPageProperties() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int at = readme.indexOf("management.endpoint.health.group.readiness.include");
        assertThat(at).as("README.md sets the readiness group").isPositive();
        int start = readme.lastIndexOf("```properties\n", at);
        int end = readme.indexOf("```", at);
        assertThat(start).isPositive();
        Properties p = new Properties();
        p.load(new StringReader(readme.substring(start + 14, end)));
        return p;
    }

    /** The properties block of the readiness section in docs/spring-boot.md. */
    static Properties readinessSnippet() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "spring-boot.md"));
        int section = doc.indexOf("\n## Readiness");
        assertThat(section).as("docs/spring-boot.md has a Readiness section").isPositive();
        int start = doc.indexOf("```properties\n", section);
        int end = doc.indexOf("```", start + 14);
        assertThat(start).isPositive();
        Properties p = new Properties();
        p.load(new StringReader(doc.substring(start + 14, end)));
        return p;
    }
}
