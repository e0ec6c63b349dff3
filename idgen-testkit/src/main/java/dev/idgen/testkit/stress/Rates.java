package dev.idgen.testkit.stress;

import java.time.Duration;

/** Counts over wall time. */
final class Rates {

    private Rates() {
    }

    static double perSecond(long count, Duration elapsed) {
        long nanos = Math.max(1, elapsed.toNanos());
        return count * 1e9 / nanos;
    }
}
