package dev.idgen.spring.boot;

import dev.idgen.segment.BusinessNumberFormat;
import dev.idgen.segment.BusinessNumberGenerator;
import dev.idgen.segment.PatternConflictException;
import dev.idgen.segment.SegmentUnavailableException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * {@code idgen.business-number.<name>.*}: a {@link BusinessNumbers} bean, one
 * {@link BusinessNumberGenerator} bean per name (qualified by the name), their meters and their
 * health. Applies when at least one name is configured. Runs after the DataSource and the lease
 * auto-configurations, whose clients a store may use.
 */
@AutoConfiguration(after = IdgenLeaseAutoConfiguration.class, afterName = BootGeneration.DATA_SOURCE_AUTO_CONFIGURATION)
@EnableConfigurationProperties(IdgenBusinessNumberProperties.class)
@Import({BusinessNumberBeans.class, GenerationConfigurations.BusinessNumbersHealth.class})
@Conditional(IdgenBusinessNumberAutoConfiguration.AnyBusinessNumber.class)
public class IdgenBusinessNumberAutoConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(IdgenBusinessNumberAutoConfiguration.class);

    /** Made by Spring. */
    public IdgenBusinessNumberAutoConfiguration() {
    }

    /**
     * @param properties {@code idgen.business-number.*}
     * @param beans the application's beans, for the stores' clients
     * @return one generator per configured name
     */
    @Bean
    @ConditionalOnMissingBean
    public BusinessNumbers idgenBusinessNumbers(IdgenBusinessNumberProperties properties, ListableBeanFactory beans) {
        Map<String, BusinessNumberGenerator> byName = new LinkedHashMap<>();
        properties.getBusinessNumber().forEach((name, n) -> byName.put(name, build(name, n, beans)));
        return new BusinessNumbers(byName);
    }

    private static BusinessNumberGenerator build(String name, IdgenBusinessNumberProperties.Numbers n,
            ListableBeanFactory beans) {
        String prefix = "idgen.business-number." + name;
        if (n.getPattern() == null || n.getPattern().isBlank()) {
            throw new IdgenConfigurationException(prefix + ".pattern is not set; business numbers need their shape",
                    "Set " + prefix + ".pattern, e.g. " + prefix + ".pattern=INV-yyyyMMdd-NNNNNN (the grammar is"
                    + " [PREFIX SEP] yyyyMMdd|yyyyMM|yyyy SEP N...).", null);
        }
        BusinessNumberFormat.Builder format = BusinessNumberFormat.builder();
        Setting.apply(prefix, ".zone", n.getZone(), () -> format.zone(n.getZone()));
        Setting.apply(prefix, ".pattern", n.getPattern(), () -> format.pattern(n.getPattern()));
        BusinessNumberGenerator.Builder b = BusinessNumberGenerator.builder().format(format.build());
        Setting.apply(prefix, "", name, () -> b.name(name));
        Setting.apply(prefix, ".step", n.getStep(), () -> b.step(n.getStep()));
        BusinessNumberGenerator g = b.source(SegmentStores.source(prefix, n, beans)).build();
        try {
            g.checkPattern(); // another pattern on record under this name stops the start
        } catch (PatternConflictException e) {
            throw new IdgenConfigurationException(e.getMessage(), "Set " + prefix + ".pattern back to " + e.recorded()
                    + ", or give the new pattern a new name under idgen.business-number.", e);
        } catch (SegmentUnavailableException e) {
            // the store is down now: the first number checks the pattern again before it takes a range
            LOG.warn("{}: could not check the pattern with the store at start; the first number will: {}", prefix,
                    e.getMessage());
        }
        return g;
    }

    /** The generators' meters, with Micrometer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        BusinessNumberMeterBinder idgenBusinessNumberMeterBinder(BusinessNumbers numbers) {
            return new BusinessNumberMeterBinder(numbers);
        }
    }

    /** Matches when {@code idgen.business-number} names at least one generator. */
    static final class AnyBusinessNumber extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean any = !BusinessNumberBeans.names(Binder.get(context.getEnvironment())).isEmpty();
            return any ? ConditionOutcome.match("idgen.business-number has names")
                    : ConditionOutcome.noMatch("no idgen.business-number.<name>.* set");
        }
    }
}
