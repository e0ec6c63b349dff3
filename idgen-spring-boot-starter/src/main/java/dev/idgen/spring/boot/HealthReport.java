package dev.idgen.spring.boot;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A health status and its details, worked out without Spring Boot's health types: each Boot
 * generation's indicator ({@code IdgenHealthIndicator}, {@code SegmentHealthIndicator}) only turns
 * it into its own {@code Health}.
 *
 * @param state the status
 * @param details the details, in the order they were added
 */
record HealthReport(State state, Map<String, Object> details) {

    /** The statuses idgen reports; each name is the Spring Boot status code. */
    enum State {
        /** Every generator can make IDs. */
        UP,
        /** Alive but cannot make IDs for now: out of the readiness group, not restarted. */
        OUT_OF_SERVICE,
        /** Cannot make IDs and will not recover by itself soon. */
        DOWN
    }

    HealthReport {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
