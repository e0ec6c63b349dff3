package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** What every backend's lease answers from its guard, through the base class they share. */
class GuardedLeaseTest {

    /** ttl 10 s, renew 2 s, margin 1 s, skew 500 ms: fence = expiry - 1500 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2),
            Duration.ofSeconds(1), Duration.ofMillis(500));
    private static final long T0 = 1_700_000_000_000L;

    private final InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(T0));
    private final LeaseGuard guard = new LeaseGuard("machine id 7 in test", TIMINGS, clock);
    private final GuardedLease lease = new GuardedLease(7, guard) {
        @Override
        public void close() {
            guard().release();
        }
    };

    @Test
    void theFenceIsClosedUntilTwoWritesAreAcknowledgedThenStandsAtTheOlderExpiryLessSkewAndMargin() {
        assertEquals(7, lease.machineId());
        assertSame(TIMINGS, lease.timings());
        assertEquals(Instant.MIN, lease.fence(), "nothing acknowledged yet");
        assertFalse(lease.isHeld());
        guard.claimed(T0 + 10_000, T0 - 5);
        assertEquals(Instant.MIN, lease.fence(), "a claim's own write opens nothing");
        assertEquals(T0 - 5, lease.highWaterMark(), "the coordinator's mark is the lease's at once");
        guard.acknowledged(T0 + 10_400, T0 - 5);
        assertEquals(Instant.ofEpochMilli(T0 + 10_000 - 1_500), lease.fence());
        assertTrue(lease.isHeld());
        assertEquals(0, lease.losses());
    }

    @Test
    void aLossShutsTheFenceAndIsCountedAndAttachingRaisesTheGeneratorToTheMark() {
        guard.claimed(T0 + 10_000, T0 + 20);
        guard.acknowledged(T0 + 10_000, T0 + 20);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        assertEquals(T0 + 20, ids.highWaterMark(), "attach raised the generator to the lease's mark");
        assertThrows(IllegalStateException.class,
                () -> SnowflakeGenerator.builder().machineId(lease).clock(clock).build(), "one generator per lease");
        guard.lost("taken over by another holder");
        assertEquals(Instant.MIN, lease.fence());
        assertFalse(lease.isHeld());
        assertEquals(1, lease.losses());
        lease.close();
        assertEquals(1, lease.losses(), "a release is not a loss");
        assertEquals(T0 + 20, lease.highWaterMark(), "the mark survives the release");
    }
}
