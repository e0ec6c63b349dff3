package dev.idgen.spring.boot;

import dev.idgen.segment.SegmentGenerator;
import java.util.LinkedHashMap;
import java.util.Map;
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
        boolean down = false;
        Health.Builder health = Health.up();
        for (Map.Entry<String, SegmentGenerator> e : segments.all().entrySet()) {
            SegmentGenerator g = e.getValue();
            Map<String, Object> d = new LinkedHashMap<>();
            long left = g.numbersLeft();
            d.put("numbersLeft", left);
            d.put("fetches", g.fetches());
            d.put("failedFetches", g.failedFetches());
            d.put("waits", g.waits());
            if (g.storeFailing()) {
                d.put("storeFailingSince", String.valueOf(g.failingSince()));
                d.put("lastError", String.valueOf(g.lastError()));
                down |= left == 0;
            }
            health.withDetail(e.getKey(), d);
        }
        return down ? health.down().build() : health.build();
    }
}
