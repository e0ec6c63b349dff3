package dev.idgen.spring.boot;

import dev.idgen.segment.BusinessNumberGenerator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the {@code idgenBusinessNumbers} health reports (see {@code BusinessNumberHealthIndicator},
 * which hands it to Spring Boot): DOWN while a generator's last call to its store failed (business
 * numbers take the store's clock and ranges on the caller's thread, so the next number that needs
 * the store fails too), UP otherwise; the details per name.
 */
final class BusinessNumberHealth {

    private BusinessNumberHealth() {
    }

    /** {@return the status and details of {@code numbers} as of now} */
    static HealthReport report(BusinessNumbers numbers) {
        boolean down = false;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, BusinessNumberGenerator> e : numbers.all().entrySet()) {
            BusinessNumberGenerator g = e.getValue();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("pattern", g.format().pattern());
            d.put("numbers", g.issued());
            d.put("grants", g.grants());
            d.put("storeFailures", g.storeFailures());
            if (g.storeFailing()) {
                d.put("storeFailingSince", String.valueOf(g.failingSince()));
                d.put("lastError", String.valueOf(g.lastError()));
                down = true;
            }
            details.put(e.getKey(), d);
        }
        return new HealthReport(down ? HealthReport.State.DOWN : HealthReport.State.UP, details);
    }
}
