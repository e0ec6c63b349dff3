package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.InstantSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * {@link IdgenReadiness}: the application refuses traffic while a generator cannot make IDs. On by
 * default; off with {@code idgen.readiness.enabled=false}. Needs Spring Boot's
 * {@link ApplicationAvailability} (always there with spring-boot-autoconfigure), not Actuator: the
 * readiness state is what {@code /actuator/health/readiness} reports when Actuator is present.
 */
@AutoConfiguration(after = {IdgenAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class})
@EnableConfigurationProperties(IdgenProperties.class)
@ConditionalOnBooleanProperty(name = "idgen.readiness.enabled", matchIfMissing = true)
@ConditionalOnBean(ApplicationAvailability.class)
public class IdgenReadinessAutoConfiguration {

    /** Made by Spring. */
    public IdgenReadinessAutoConfiguration() {
    }

    /**
     * The readiness check, started and stopped with the context.
     *
     * @param properties {@code idgen.readiness.*} and {@code idgen.health.refusal-window}
     * @param snowflake the Snowflake generator, if any
     * @param lease its lease, if any
     * @param uuidV7 the UUIDv7 generator, if any
     * @param availability Spring Boot's availability state
     * @param publisher where the readiness events go
     * @return the check
     */
    @Bean
    @ConditionalOnMissingBean
    public IdgenReadiness idgenReadiness(IdgenProperties properties, ObjectProvider<SnowflakeGenerator> snowflake,
            ObjectProvider<MachineIdLease> lease, ObjectProvider<UuidV7Generator> uuidV7,
            ApplicationAvailability availability, ApplicationEventPublisher publisher) {
        GeneratorCheck check = new GeneratorCheck(snowflake.getIfAvailable(), lease.getIfAvailable(),
                uuidV7.getIfAvailable(), properties.getHealth().getRefusalWindow(), InstantSource.system());
        return new IdgenReadiness(check, availability, publisher, properties.getReadiness().getCheckEvery());
    }
}
