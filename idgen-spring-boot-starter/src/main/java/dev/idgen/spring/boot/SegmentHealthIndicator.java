package dev.idgen.spring.boot;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code idgenSegments} health: DOWN while a counter has no number left and its store is
 * failing (its next call can only wait, then fail); UP otherwise, a store failing while numbers
 * remain included (callers do not notice until the numbers are spent). Details per counter: numbers
 * left, fetches, failed fetches, waits, and while the store fails since when and the last error.
 */
public final class SegmentHealthIndicator implements HealthIndicator {

    private final SegmentGenerators segments;

    /** @param segments the generators */
    public SegmentHealthIndicator(SegmentGenerators segments) {
        this.segments = segments;
    }

    @Override
    public Health health() {
        HealthReport report = SegmentHealth.report(segments);
        return Health.status(report.state().name()).withDetails(report.details()).build();
    }
}
