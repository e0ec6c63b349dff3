package dev.idgen.spring.boot;

import dev.idgen.segment.SegmentGenerator;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;

/**
 * The meters of the {@code idgen.segment.<name>} generators, tagged {@code name}, read from each
 * generator when the registry publishes (never on the number path):
 * <ul>
 *   <li>{@code idgen.segment.numbers.left} (gauge): numbers fetched and not handed out yet, what a
 *       restart now would leave as a gap;</li>
 *   <li>{@code idgen.segment.fetches} (counter): ranges the store granted;</li>
 *   <li>{@code idgen.segment.fetch.failures} (counter): grants that failed or were refused;</li>
 *   <li>{@code idgen.segment.fetch} (timer): the store's grants, count and total time;</li>
 *   <li>{@code idgen.segment.waits} (counter): calls that found every range spent and waited.</li>
 * </ul>
 */
public final class SegmentMeterBinder implements MeterBinder {

    private final SegmentGenerators segments;

    /** @param segments the generators */
    public SegmentMeterBinder(SegmentGenerators segments) {
        this.segments = segments;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        segments.all().forEach((name, g) -> {
            Tags tags = Tags.of("name", name);
            Gauge.builder("idgen.segment.numbers.left", g, SegmentGenerator::numbersLeft)
                    .description("numbers fetched and not handed out yet").tags(tags).register(registry);
            FunctionCounter.builder("idgen.segment.fetches", g, SegmentGenerator::fetches)
                    .description("ranges the store granted").tags(tags).register(registry);
            FunctionCounter.builder("idgen.segment.fetch.failures", g, SegmentGenerator::failedFetches)
                    .description("grants that failed or were refused").tags(tags).register(registry);
            FunctionTimer.builder("idgen.segment.fetch", g, x -> x.fetches() + x.failedFetches(),
                    SegmentGenerator::fetchNanos, TimeUnit.NANOSECONDS)
                    .description("the store's grants").tags(tags).register(registry);
            FunctionCounter.builder("idgen.segment.waits", g, SegmentGenerator::waits)
                    .description("calls that found every range spent and waited for the store").tags(tags)
                    .register(registry);
        });
    }
}
