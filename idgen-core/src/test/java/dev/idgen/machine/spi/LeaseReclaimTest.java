package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A lease that claims again after a fence, of the same id or another, carries its generator on:
 * the machine id and the fence move as one value, no ID is stamped with the new claim on a pair
 * taken before it, and a refused call leaves nothing behind that a renewal would record.
 */
class LeaseReclaimTest {

    /** ttl 10 s, renew 2 s, margin 1 s, skew 500 ms: fence = expiry - 1500 ms. */
    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2),
            Duration.ofSeconds(1), Duration.ofMillis(500));
    private static final long T0 = 1_700_000_000_000L;

    private final AtomicLong now = new AtomicLong(T0);
    /** Read instead of {@code now} when set. */
    private volatile java.util.function.LongSupplier ticking;
    private final InstantSource clock = () -> Instant.ofEpochMilli(ticking != null ? ticking.getAsLong() : now.get());
    private final LeaseGuard guard = LeaseGuard.named("in test", TIMINGS, clock);
    private final GuardedLease lease = new GuardedLease(7, guard) {
        @Override
        public void close() {
            guard().release();
        }
    };

    private SnowflakeGenerator heldGenerator(ClockBackwardsPolicy policy) {
        guard.claimed(7, T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        return SnowflakeGenerator.builder().machineId(lease).clock(clock).onClockBackwards(policy).build();
    }

    @Test
    void aClaimOfAnotherIdCarriesTheGeneratorOnUnderItAboveEveryIdItMadeBefore() {
        SnowflakeGenerator ids = heldGenerator(ClockBackwardsPolicy.defaultPolicy());
        long last = 0;
        for (int i = 0; i < 5; i++) {
            last = ids.nextLong();
        }
        assertEquals(7, SnowflakeLayout.TWITTER.decode(last).machineId());

        guard.lost("taken over by another holder");
        assertThrows(MachineIdLostException.class, ids::nextLong, "fenced while it claims again");
        // id 3's last holder covered up to T0 + 40; this process's clock still reads T0
        guard.claimed(3, T0 + 10_050, T0 + 40);
        assertEquals(3, lease.machineId());
        assertEquals(3, ids.machineId());
        assertEquals("machine id 3 in test", guard.leaseName());
        assertThrows(MachineIdLostException.class, ids::nextLong, "a claim's own write opens nothing");
        now.set(T0 + 41);
        guard.acknowledged(T0 + 10_100, T0 + 40);
        long next = ids.nextLong();
        SnowflakeId decoded = SnowflakeLayout.TWITTER.decode(next);
        assertEquals(3, decoded.machineId());
        assertTrue(decoded.timestamp().toEpochMilli() > T0 + 40, "above id 3's mark: " + decoded);
        assertTrue(next > last, "still increasing across the switch");
        assertEquals(1, lease.reclaims());
        assertTrue(lease.isHeld());
    }

    @Test
    void aPairOfTheTickInUseWhenTheClaimChangedIsNeverStampedWithTheNewId() {
        SnowflakeGenerator ids = heldGenerator(ClockBackwardsPolicy.defaultPolicy());
        long old = ids.nextLong(); // tick T0, sequence 0, machine 7
        guard.lost("taken over");
        guard.claimed(2, T0 + 10_050, MachineIdLease.NO_MARK); // id 2 has no mark: nothing raises the sequence
        guard.acknowledged(T0 + 10_100, MachineIdLease.NO_MARK);
        // The clock reads T0 once more, then T0 + 1. Sequence 1 of tick T0 is free, but stamped with
        // machine 2 it would sort below the machine-7 ID already returned: it must not be used.
        AtomicLong reads = new AtomicLong();
        ticking = () -> reads.getAndIncrement() == 0 ? T0 : T0 + 1;
        long next = ids.nextLong();
        SnowflakeId decoded = SnowflakeLayout.TWITTER.decode(next);
        assertTrue(next > old, "increasing: " + decoded + " after " + SnowflakeLayout.TWITTER.decode(old));
        assertEquals(T0 + 1, decoded.timestamp().toEpochMilli());
        assertEquals(2, decoded.machineId());
        assertEquals(2, reads.get(), "the pair of tick T0 was dropped and one of T0 + 1 taken");
    }

    @Test
    void anIdTheGeneratorHasNoRoomForIsRefusedAndTheLeaseStillNamesItsOldIdFenced() {
        SnowflakeLayout small = SnowflakeLayout.custom("small").epoch(Instant.EPOCH).tick(Duration.ofMillis(1))
                .timestampBits(49).machineBits(3).sequenceBits(11)
                .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();
        guard.claimed(7, T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(small).machineId(lease).clock(clock).build();
        ids.nextLong();
        guard.lost("taken over");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> guard.claimed(9, T0 + 10_050, MachineIdLease.NO_MARK));
        assertTrue(e.getMessage().contains("machine id 9") && e.getMessage().contains("0..7"), e.getMessage());
        assertEquals(7, lease.machineId(), "the lease still names the id it held");
        assertEquals(0, lease.reclaims());
        assertThrows(MachineIdLostException.class, ids::nextLong, "and stays fenced");
    }

    @Test
    void aCallPastTheFenceIsRefusedAndRecordsNothingSoTheClockCanComeBack() {
        SnowflakeGenerator ids = heldGenerator(ClockBackwardsPolicy.refuse());
        ids.nextLong();
        assertEquals(T0, ids.highWaterMark());
        now.set(T0 + 86_400_000L); // a clock a day ahead
        for (int i = 0; i < 1_000; i++) {
            assertThrows(MachineIdLostException.class, ids::nextLong);
        }
        assertEquals(T0, ids.highWaterMark(), "a refused call took no pair");
        assertEquals(T0, guard.markToRecord(), "so a renewal records nothing of that day");
        now.set(T0 + 1);
        long id = ids.nextLong(); // no clock-backwards refusal: the sequence never went to the day ahead
        assertEquals(T0 + 1, SnowflakeLayout.TWITTER.decode(id).timestamp().toEpochMilli());
    }

    @Test
    void runningAheadStopsAtTheFenceWithoutRaisingTheMarkPastIt() {
        // 2 IDs per ms, run-ahead allowed 200 s: a retry loop would run the sequence far ahead
        SnowflakeLayout tiny = SnowflakeLayout.custom("tiny").epoch(Instant.EPOCH).tick(Duration.ofMillis(1))
                .timestampBits(52).machineBits(10).sequenceBits(1)
                .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();
        guard.claimed(7, T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(tiny).machineId(lease).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(200))).build();
        long fence = T0 + 10_000 - 1_500;
        int made = 0;
        int refused = 0;
        for (int i = 0; i < 40_000; i++) {
            try {
                ids.nextLong();
                made++;
            } catch (MachineIdLostException e) {
                refused++;
            }
        }
        assertEquals(2 * 8_500, made, "two per tick from T0 up to the fence");
        assertEquals(40_000 - made, refused);
        assertEquals(fence - 1, ids.highWaterMark(), "the mark stops at the last millisecond before the fence");
        assertEquals(fence - 1, guard.markToRecord());
        assertFalse(guard.markToRecord() >= fence);
    }
}
