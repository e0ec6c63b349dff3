package dev.idgen.cli.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RelativeTimeTest {

    private static final Instant NOW = Instant.parse("2026-12-03T06:00:00Z");

    private static String ago(Duration d) {
        return RelativeTime.describe(NOW.minus(d), NOW);
    }

    @Test
    void largestWholeUnitBothWays() {
        assertEquals("now", ago(Duration.ofMillis(999)));
        assertEquals("1 second ago", ago(Duration.ofSeconds(1)));
        assertEquals("59 seconds ago", ago(Duration.ofSeconds(59)));
        assertEquals("1 minute ago", ago(Duration.ofSeconds(60)));
        assertEquals("23 hours ago", ago(Duration.ofHours(23).plusMinutes(59)));
        assertEquals("3 days ago", ago(Duration.ofDays(3).plusHours(5)));
        assertEquals("2 months ago", ago(Duration.ofDays(61)));
        assertEquals("1 year ago", ago(Duration.ofDays(366)));
        assertEquals("in 5 minutes", RelativeTime.describe(NOW.plusSeconds(5 * 60 + 30), NOW));
        assertEquals("in 16 years", RelativeTime.describe(Instant.parse("2043-10-15T12:01:53.620Z"), NOW));
        assertEquals("in 1 second", RelativeTime.describe(NOW.plusMillis(1500), NOW));
    }
}
