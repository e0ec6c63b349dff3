package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** The guard with a real generator behind it: every fence is checked on IDs, not on fields. */
class LeaseGuardTest {

    /** ttl 10 s, renew 2 s, margin 1 s, skew 500 ms: fence = expiry - 1500 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2),
            Duration.ofSeconds(1), Duration.ofMillis(500));
    private static final long T0 = 1_700_000_000_000L;

    private static final class Clock implements InstantSource {
        volatile long now = T0;

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now);
        }

        @Override
        public long millis() {
            return now;
        }
    }

    /** A lease that is nothing but a guard: what a backend adds is the coordinator. */
    static final class GuardOnly extends GuardedLease {
        GuardOnly(LeaseGuard guard) {
            super(3, guard);
        }

        @Override
        public void close() {
            guard().release();
        }

        @Override
        public String toString() {
            return guard().toString();
        }
    }

    private final Clock clock = new Clock();
    private final LeaseGuard guard = new LeaseGuard("machine id 3 in test", TIMINGS, clock);
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER)
            .clock(clock).machineId(new GuardOnly(guard)).build();

    private long timeOf(long id) {
        return ids.decode(id).timestamp().toEpochMilli();
    }

    @Test
    void theFenceStaysShutUntilTheSecondAcknowledgedWriteAndThenTrailsTheOlderExpiry() {
        assertThrows(MachineIdLostException.class, ids::nextLong, "not claimed yet");
        guard.claimed(T0 + 10_000, 5_000);
        assertEquals(5_000, guard.highWaterMark());
        assertFalse(guard.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong, "one acknowledged write opens nothing");
        assertTrue(guard.state().startsWith("fenced: claimed; waiting"), guard.state());
        guard.acknowledged(T0 + 10_050, 5_000);
        assertEquals(T0 + 10_000 - 1_500, guard.fenceMillis(), "fence from the older of the two expiries");
        assertTrue(guard.isHeld());
        assertEquals(T0, timeOf(ids.nextLong()));
        // no thread runs: the clock alone reaches the fence
        clock.now = T0 + 8_499;
        assertEquals(T0 + 8_499, timeOf(ids.nextLong()));
        assertTrue(guard.isHeld());
        clock.now = T0 + 8_500;
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertFalse(guard.isHeld());
        assertEquals(1, guard.losses());
        assertTrue(guard.state().contains("no renewal acknowledged in time"), guard.state());
    }

    @Test
    void aLateRenewalStillFencesFromThePreviousExpiryAndTheNextOneReopens() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        clock.now = T0 + 9_000; // past the fence at T0 + 8500; renewals failed meanwhile
        guard.acknowledged(T0 + 19_000, MachineIdLease.NO_MARK);
        assertFalse(guard.isHeld(), "the fence is from the expiry before: T0 + 8500, passed");
        assertThrows(MachineIdLostException.class, ids::nextLong);
        clock.now = T0 + 11_000;
        guard.acknowledged(T0 + 21_000, MachineIdLease.NO_MARK);
        assertEquals(T0 + 19_000 - 1_500, guard.fenceMillis());
        assertTrue(guard.isHeld());
        assertEquals(T0 + 11_000, timeOf(ids.nextLong()));
        assertEquals(1, guard.losses(), "one lapse, counted once");
    }

    @Test
    void anExpiryThatFallsMovesTheFenceBackToIt() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 12_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 9_000, MachineIdLease.NO_MARK); // the coordinator's clock stepped back
        assertEquals(T0 + 9_000 - 1_500, guard.fenceMillis(), "the lower of the two, whichever came last");
    }

    @Test
    void aSkewBeyondTheBoundFencesAtOnceAndNeedsTwoFreshWritesToReopen() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        assertTrue(guard.acceptSkew(T0 + 400, T0 - 10, T0 + 10), "400 ms, measured within 10 ms");
        assertEquals(400, guard.skewMillis());
        assertTrue(guard.isHeld());
        assertFalse(guard.acceptSkew(T0 + 495, T0 - 10, T0 + 10), "495 ms, measured within 10 ms, may be 505");
        assertFalse(guard.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertEquals("fenced: the local clock is 495 ms from the coordinator's (measured within 10 ms), beyond the"
                + " allowed maxClockSkew of 500 ms", guard.state());
        assertEquals(1, guard.losses());
        guard.acknowledged(T0 + 10_100, MachineIdLease.NO_MARK);
        assertFalse(guard.isHeld(), "the expiries before the loss are forgotten");
        guard.acknowledged(T0 + 10_200, MachineIdLease.NO_MARK);
        assertTrue(guard.isHeld());
    }

    @Test
    void aRaisedMarkReachesTheGeneratorBeforeTheFenceOpens() {
        guard.claimed(T0 + 10_000, T0 + 2_000); // an earlier holder's clock ran ahead
        guard.acknowledged(T0 + 10_000, T0 + 2_000);
        assertEquals(T0 + 2_000, ids.highWaterMark(), "raised by the claim, before any ID");
        clock.now = T0 + 2_001;
        assertEquals(T0 + 2_001, timeOf(ids.nextLong()), "the first ID is above the mark");
    }

    @Test
    void releaseShutsTheFenceForGoodAndReturnsTheMarkToRecord() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        clock.now = T0 + 7;
        long id = ids.nextLong();
        assertEquals(T0 + 7, guard.release(), "the generator's last millisecond");
        assertTrue(id > 0);
        assertThrows(MachineIdLostException.class, ids::nextLong);
        guard.acknowledged(T0 + 20_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 30_000, MachineIdLease.NO_MARK);
        assertFalse(guard.isHeld(), "a late renewal does not reopen a released lease");
        guard.claimed(T0 + 40_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 40_000, MachineIdLease.NO_MARK);
        assertFalse(guard.isHeld(), "nor does a claim");
        assertEquals("released", guard.state());
        assertEquals(0, guard.losses(), "release is not a loss");
    }

    @Test
    void aLossWhileHeldIsCountedAndNamed() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.lost("the row was taken over");
        assertEquals("fenced: the row was taken over", guard.state());
        assertEquals(1, guard.losses());
        guard.lost("again");
        assertEquals(1, guard.losses(), "fenced already: not a second loss");
        assertThrows(MachineIdLostException.class, ids::nextLong);
    }

    @Test
    void ownersDifferBetweenGuards() {
        String a = LeaseGuard.defaultOwner();
        assertTrue(a.contains("/" + ProcessHandle.current().pid() + "/"), a);
        assertFalse(a.equals(LeaseGuard.defaultOwner()));
    }
}
