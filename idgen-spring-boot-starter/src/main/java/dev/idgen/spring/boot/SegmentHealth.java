package dev.idgen.spring.boot;

import dev.idgen.segment.SegmentGenerator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the {@code idgenSegments} health reports (see {@code SegmentHealthIndicator}, which hands it
 * to Spring Boot): DOWN while a counter has no number left and its store is failing, UP otherwise;
 * the details per counter.
 */
final class SegmentHealth {

    private SegmentHealth() {
    }

    /** {@return the status and details of {@code segments} as of now} */
    static HealthReport report(SegmentGenerators segments) {
        boolean down = false;
        Map<String, Object> details = new LinkedHashMap<>();
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
            details.put(e.getKey(), d);
        }
        return new HealthReport(down ? HealthReport.State.DOWN : HealthReport.State.UP, details);
    }
}
