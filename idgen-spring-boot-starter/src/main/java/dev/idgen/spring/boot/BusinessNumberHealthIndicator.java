package dev.idgen.spring.boot;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code idgenBusinessNumbers} health: DOWN while a generator's last call to its store failed,
 * UP otherwise. Details per name: the pattern, numbers handed out, grants, store failures, and
 * while the store fails since when and the last error.
 */
public final class BusinessNumberHealthIndicator implements HealthIndicator {

    private final BusinessNumbers numbers;

    /** @param numbers the generators */
    public BusinessNumberHealthIndicator(BusinessNumbers numbers) {
        this.numbers = numbers;
    }

    @Override
    public Health health() {
        HealthReport report = BusinessNumberHealth.report(numbers);
        return Health.status(report.state().name()).withDetails(report.details()).build();
    }
}
