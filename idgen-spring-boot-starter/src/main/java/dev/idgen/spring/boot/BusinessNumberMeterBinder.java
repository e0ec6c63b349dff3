package dev.idgen.spring.boot;

import dev.idgen.segment.BusinessNumberGenerator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the {@code idgen.business-number.<name>} generators, tagged {@code name}, read from
 * each generator when the registry publishes:
 * <ul>
 *   <li>{@code idgen.business-number.numbers} (counter): numbers handed out;</li>
 *   <li>{@code idgen.business-number.grants} (counter): ranges the store granted;</li>
 *   <li>{@code idgen.business-number.store.failures} (counter): calls to the store (its clock or a
 *       grant) that failed or were refused;</li>
 *   <li>{@code idgen.business-number.grant} (timer): the store's grants, count and total time.</li>
 * </ul>
 */
public final class BusinessNumberMeterBinder implements MeterBinder {

    private final BusinessNumbers numbers;

    /** @param numbers the generators */
    public BusinessNumberMeterBinder(BusinessNumbers numbers) {
        this.numbers = numbers;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        numbers.all().forEach((name, g) -> {
            Tags tags = Tags.of("name", name);
            FunctionCounter.builder("idgen.business-number.numbers", g, BusinessNumberGenerator::issued)
                    .description("business numbers handed out").tags(tags).register(registry);
            FunctionCounter.builder("idgen.business-number.grants", g, BusinessNumberGenerator::grants)
                    .description("ranges the store granted").tags(tags).register(registry);
            FunctionCounter.builder("idgen.business-number.store.failures", g, BusinessNumberGenerator::storeFailures)
                    .description("calls to the store that failed or were refused").tags(tags).register(registry);
            FunctionTimer.builder("idgen.business-number.grant", g, BusinessNumberGenerator::grants,
                    BusinessNumberGenerator::grantNanos, TimeUnit.NANOSECONDS)
                    .description("the store's grants").tags(tags).register(registry);
        });
    }
}
