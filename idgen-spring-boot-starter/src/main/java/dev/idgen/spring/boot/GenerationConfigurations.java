package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.uuid.UuidV7Generator;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans whose types belong to one Spring Boot generation (here Boot 4): the Hibernate
 * properties customizer and the health indicators. Imported by {@link IdgenAutoConfiguration} and
 * {@link IdgenSegmentAutoConfiguration}; what they hand to Boot is worked out in shared classes
 * ({@link HibernateIds}, {@link IdgenHealth}, {@link SegmentHealth}).
 */
final class GenerationConfigurations {

    private GenerationConfigurations() {
    }

    /** {@code @Snowflake} / {@code @UuidV7} entity attributes use the generator beans. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"dev.idgen.hibernate.EntityIds", BootGeneration.HIBERNATE_PROPERTIES_CUSTOMIZER})
    static class Hibernate {

        @Bean
        org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer idgenHibernatePropertiesCustomizer(
                Optional<SnowflakeGenerator> snowflake, Optional<UuidV7Generator> uuidV7,
                Optional<SegmentGenerators> segments) {
            // Optional, not ObjectProvider: the entity manager factory then depends on the
            // generators (and so on the lease), and is closed before the lease is released
            dev.idgen.hibernate.EntityIds ids = HibernateIds.entityIds(snowflake.orElse(null), uuidV7.orElse(null), segments.orElse(null));
            return properties -> properties.put(dev.idgen.hibernate.EntityIds.SETTING, ids);
        }
    }

    /** The {@code idgen} health indicator, with Spring Boot's health support. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = BootGeneration.HEALTH_INDICATOR)
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("idgen")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "idgenHealthIndicator")
        IdgenHealthIndicator idgenHealthIndicator(IdgenProperties properties,
                ObjectProvider<SnowflakeGenerator> snowflake, ObjectProvider<MachineIdLease> lease,
                ObjectProvider<UuidV7Generator> uuidV7) {
            return new IdgenHealthIndicator(snowflake.getIfAvailable(), lease.getIfAvailable(),
                    Configure.sourceName(properties.getMachineId()), uuidV7.getIfAvailable(),
                    properties.getHealth().getRefusalWindow());
        }
    }

    /** The {@code idgenSegments} health indicator, with Spring Boot's health support. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = BootGeneration.HEALTH_INDICATOR)
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("idgen")
    static class SegmentsHealth {

        @Bean
        @ConditionalOnMissingBean(name = "idgenSegmentsHealthIndicator")
        SegmentHealthIndicator idgenSegmentsHealthIndicator(SegmentGenerators segments) {
            return new SegmentHealthIndicator(segments);
        }
    }

    /** The {@code idgenBusinessNumbers} health indicator, with Spring Boot's health support. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = BootGeneration.HEALTH_INDICATOR)
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("idgen")
    static class BusinessNumbersHealth {

        @Bean
        @ConditionalOnMissingBean(name = "idgenBusinessNumbersHealthIndicator")
        BusinessNumberHealthIndicator idgenBusinessNumbersHealthIndicator(BusinessNumbers numbers) {
            return new BusinessNumberHealthIndicator(numbers);
        }
    }
}
