package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaseGuard} one millisecond either side of its bounds, and what its state, losses and
 * mark say when a lapse is first noticed by each of the calls that may notice it.
 */
class LeaseGuardEdgeTest {

    /** ttl 10 s, renew 2 s, margin 1 s, skew 500 ms: fence = expiry - 1500 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2),
            Duration.ofSeconds(1), Duration.ofMillis(500));
    private static final long T0 = 1_700_000_000_000L;
    private static final long FENCE = T0 + 10_000 - 1_500;

    private final AtomicLong now = new AtomicLong(T0);
    private final InstantSource clock = () -> Instant.ofEpochMilli(now.get());
    private final LeaseGuard guard = new LeaseGuard("machine id 3 in test", TIMINGS, clock);

    private void hold() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
    }

    @Test
    void describesItself() {
        assertSame(TIMINGS, guard.timings());
        hold();
        assertEquals("machine id 3 in test, held (fence at " + Instant.ofEpochMilli(FENCE) + ")", guard.toString());
        assertFalse(guard.isReleased());
        guard.release();
        assertTrue(guard.isReleased());
        assertEquals("machine id 3 in test, released", guard.toString());
    }

    @Test
    void aSkewExactlyAtTheBoundIsAccepted() {
        hold();
        // 490 ms measured within 10 ms: at most 500, the bound itself
        assertTrue(guard.acceptSkew(T0 + 490, T0 - 10, T0 + 10));
        assertTrue(guard.isHeld());
        assertFalse(guard.acceptSkew(T0 + 491, T0 - 10, T0 + 10));
        assertFalse(guard.isHeld());
    }

    @Test
    void aRenewalAcknowledgedExactlyAtItsFenceOpensNothing() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        now.set(FENCE);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        assertFalse(guard.isHeld());
        assertEquals("fenced: no renewal acknowledged in time: fence at " + Instant.ofEpochMilli(FENCE)
                + " already passed", guard.state());
        now.set(FENCE - 1); // one millisecond earlier it would have opened
        LeaseGuard other = new LeaseGuard("other", TIMINGS, clock);
        other.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        other.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        assertTrue(other.isHeld());
    }

    @Test
    void aRenewalRaisesTheMark() {
        guard.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, T0 + 3_000); // another holder's mark, recorded meanwhile
        assertEquals(T0 + 3_000, guard.highWaterMark());
        assertEquals(T0 + 3_000, guard.markToRecord());
    }

    @Test
    void aLapseFirstNoticedByStateIsNamed() {
        hold();
        now.set(FENCE);
        assertEquals("fenced: no renewal acknowledged in time: fence at " + Instant.ofEpochMilli(FENCE) + " passed",
                guard.state());
        assertEquals(1, guard.losses());
    }

    @Test
    void aLapseFirstNoticedByIsHeldOrLossesIsCounted() {
        hold();
        now.set(FENCE);
        assertFalse(guard.isHeld());
        assertEquals(1, guard.losses());

        LeaseGuard other = new LeaseGuard("other", TIMINGS, clock);
        now.set(T0);
        other.claimed(T0 + 10_000, MachineIdLease.NO_MARK);
        other.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        now.set(FENCE);
        assertEquals(1, other.losses());
        assertFalse(other.isHeld());
    }

    @Test
    void aLapseFirstNoticedByANewClaimLeavesItWaitingForASecondWrite() {
        hold();
        now.set(FENCE + 5);
        guard.claimed(T0 + 20_000, MachineIdLease.NO_MARK);
        assertEquals("fenced: claimed; waiting for a second acknowledged write", guard.state());
        assertEquals(1, guard.losses());
    }

    @Test
    void anOwnerSuffixIsFortyEightRandomBits() {
        for (int i = 0; i < 20; i++) {
            String owner = LeaseGuard.defaultOwner();
            String suffix = owner.substring(owner.lastIndexOf('/') + 1);
            assertTrue(suffix.length() <= 12, owner);
            assertTrue(suffix.matches("[0-9a-f]+"), owner);
        }
    }
}
