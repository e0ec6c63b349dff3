package dev.idgen.spring.boot;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * idgen's beans from the {@code idgen.*} properties ({@link IdgenProperties}): a
 * {@link SnowflakeGenerator} on a {@link MachineIdLease} claimed at start-up and released at
 * shutdown, a {@link UuidV7Generator} and a {@link UuidV4Generator}. Each yields to a bean of the
 * same type that the application defines.
 *
 * <p>With idgen-hibernate and Spring Boot's Hibernate support present, {@code @Snowflake} and
 * {@code @UuidV7} entity attributes use these beans; with Micrometer, their counters are meters;
 * with Spring Boot's health support, an {@code idgen} health indicator reports the lease and the clock.
 * {@link IdgenReadinessAutoConfiguration} takes the application out of the readiness group while a
 * generator cannot make IDs.
 */
@AutoConfiguration
@EnableConfigurationProperties(IdgenProperties.class)
@Import({GenerationConfigurations.Hibernate.class, GenerationConfigurations.Health.class})
public class IdgenAutoConfiguration {

    /** Made by Spring. */
    public IdgenAutoConfiguration() {
    }

    /**
     * The UUIDv7 generator.
     *
     * @param properties {@code idgen.uuid-v7.*}
     * @return the generator
     */
    @Bean
    @ConditionalOnMissingBean
    public UuidV7Generator idgenUuidV7Generator(IdgenProperties properties) {
        IdgenProperties.UuidV7 p = properties.getUuidV7();
        return UuidV7Generator.builder().monotonic(p.isMonotonic())
                .onClockBackwards(Configure.policy("idgen.uuid-v7", p.getClockBackwards(), p.getClockBackwardsMax()))
                .build();
    }

    /**
     * The UUIDv4 generator.
     *
     * @return the generator
     */
    @Bean
    @ConditionalOnMissingBean
    public UuidV4Generator idgenUuidV4Generator() {
        return UuidV4Generator.builder().build();
    }

    /** The Snowflake generator and its machine id; off with {@code idgen.snowflake.enabled=false}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "idgen.snowflake.enabled", matchIfMissing = true)
    static class SnowflakeConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SnowflakeLayout idgenSnowflakeLayout(IdgenProperties properties) {
            return Configure.layout(properties.getSnowflake());
        }

        /**
         * fixed, env and pod-ordinal (claimed exactly in a lease table when idgen.machine-id.check-with
         * finds one: {@link CheckedIds}); and the message when the source is missing or cannot be used.
         * The jdbc and zookeeper leases come from the lease auto-configurations, which run first.
         */
        @Bean
        @ConditionalOnMissingBean({MachineIdLease.class, SnowflakeGenerator.class})
        MachineIdLease idgenMachineIdLease(IdgenProperties properties, SnowflakeLayout layout,
                ObjectProvider<DataSource> dataSource, org.springframework.core.env.Environment environment) {
            MachineIdLease lease = Configure.lease(properties.getMachineId(), layout, dataSource.getIfAvailable() != null);
            MachineIdLease checked = CheckedIds.claim(properties.getMachineId(), layout, lease,
                    dataSource.getIfAvailable(), org.springframework.boot.context.properties.bind.Binder.get(environment));
            if (checked != null) {
                return checked; // released (close()) by Spring at shutdown
            }
            Configure.warnIfUnchecked(properties.getMachineId(), lease);
            return lease;
        }

        @Bean
        @ConditionalOnMissingBean
        SnowflakeGenerator idgenSnowflakeGenerator(IdgenProperties properties, SnowflakeLayout layout,
                MachineIdLease lease) {
            IdgenProperties.Snowflake p = properties.getSnowflake();
            return SnowflakeGenerator.builder().layout(layout).machineId(lease)
                    .onClockBackwards(Configure.policy("idgen.snowflake", p.getClockBackwards(), p.getClockBackwardsMax()))
                    .build();
        }
    }

    /** idgen's meters, with Micrometer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        IdgenMeterBinder idgenMeterBinder(IdgenProperties properties, ObjectProvider<MachineIdLease> lease,
                ObjectProvider<SnowflakeGenerator> snowflake, ObjectProvider<UuidV7Generator> uuidV7) {
            return new IdgenMeterBinder(lease.getIfAvailable(), Configure.sourceName(properties.getMachineId()),
                    snowflake.getIfAvailable(), uuidV7.getIfAvailable());
        }
    }
}
