package dev.idgen.spring.boot;

import dev.idgen.segment.SegmentGenerator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code idgen.segment.<name>.*}: a {@link SegmentGenerators} bean with one generator per name, its
 * meters and its health. Applies when at least one counter is configured. Runs after the
 * DataSource and the lease auto-configurations (whose clients a store may use) and before
 * {@link IdgenAutoConfiguration}, which hands the generators to Hibernate for {@code @SegmentId}.
 */
@AutoConfiguration(before = IdgenAutoConfiguration.class, after = IdgenLeaseAutoConfiguration.class,
        afterName = BootGeneration.DATA_SOURCE_AUTO_CONFIGURATION)
@EnableConfigurationProperties(IdgenSegmentProperties.class)
@Import(GenerationConfigurations.SegmentsHealth.class)
@Conditional(IdgenSegmentAutoConfiguration.AnyCounter.class)
public class IdgenSegmentAutoConfiguration {

    /** Made by Spring. */
    public IdgenSegmentAutoConfiguration() {
    }

    /**
     * @param properties {@code idgen.segment.*}
     * @param beans the application's beans, for the stores' clients
     * @return one generator per configured name
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public SegmentGenerators idgenSegmentGenerators(IdgenSegmentProperties properties, ListableBeanFactory beans) {
        Map<String, SegmentGenerator> byName = new LinkedHashMap<>();
        try {
            properties.getSegment().forEach((name, c) -> byName.put(name, build(name, c, beans)));
        } catch (RuntimeException e) {
            byName.values().forEach(SegmentGenerator::close);
            throw e;
        }
        return new SegmentGenerators(byName);
    }

    private static SegmentGenerator build(String name, IdgenSegmentProperties.Counter c, ListableBeanFactory beans) {
        String prefix = "idgen.segment." + name;
        SegmentGenerator.Builder b = SegmentGenerator.builder();
        Setting.apply(prefix, "", name, () -> b.name(name));
        Setting.apply(prefix, ".step", c.getStep(), () -> b.step(c.getStep()));
        Setting.apply(prefix, ".prefetch-min/-max", c.getPrefetchMin() + "/" + c.getPrefetchMax(),
                () -> b.prefetch(c.getPrefetchMin(), c.getPrefetchMax()));
        Setting.apply(prefix, ".horizon", c.getHorizon(), () -> b.horizon(c.getHorizon()));
        Setting.apply(prefix, ".max-wait", c.getMaxWait(), () -> b.maxWait(c.getMaxWait()));
        try {
            return b.source(SegmentStores.source(prefix, c, beans)).build();
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.segment." + name + ": " + e.getMessage(), e);
        }
    }

    /** The counters' meters, with Micrometer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        SegmentMeterBinder idgenSegmentMeterBinder(SegmentGenerators segments) {
            return new SegmentMeterBinder(segments);
        }
    }

    /** Matches when {@code idgen.segment} holds at least one counter. */
    static final class AnyCounter extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean any = Binder.get(context.getEnvironment())
                    .bind("idgen.segment", Bindable.mapOf(String.class, IdgenSegmentProperties.Counter.class)).map(m -> !m.isEmpty())
                    .orElse(false);
            return any ? ConditionOutcome.match("idgen.segment has counters")
                    : ConditionOutcome.noMatch("no idgen.segment.<name>.* set");
        }
    }
}
