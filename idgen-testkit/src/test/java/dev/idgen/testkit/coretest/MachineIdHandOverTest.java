package dev.idgen.testkit.coretest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.testkit.check.IdChecks;
import dev.idgen.testkit.clock.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * One machine id handed from holder to holder through a lease that keeps the high-water mark, as a
 * coordinator would: whatever the holders' clocks say, the IDs of the id never repeat or go back.
 */
class MachineIdHandOverTest {

    private static final Instant T = Instant.parse("2026-12-02T12:00:00Z");

    /** The coordinator's row for machine id 3: who holds it and the mark left by earlier holders. */
    private static final class Coordinator {
        long mark = MachineIdLease.NO_MARK;

        Lease grant() {
            return new Lease(this, mark);
        }
    }

    private static final class Lease implements FencingLease {
        final Coordinator coordinator;
        final long markAtGrant;
        volatile boolean held = true;
        MachineIdUser user;

        Lease(Coordinator coordinator, long mark) {
            this.coordinator = coordinator;
            this.markAtGrant = mark;
        }

        @Override
        public long machineId() {
            return 3;
        }

        @Override
        public boolean isHeld() {
            return held;
        }

        @Override
        public long highWaterMark() {
            return markAtGrant;
        }

        @Override
        public void attach(MachineIdUser generator) {
            user = generator;
            generator.raiseHighWaterMark(markAtGrant);
            generator.fenceFrom(Long.MAX_VALUE);
        }

        void release() {
            held = false;
            user.fenceFrom(Long.MIN_VALUE);
            coordinator.mark = Math.max(coordinator.mark, user.highWaterMark());
        }
    }

    private static long[] take(SnowflakeGenerator ids, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = ids.nextLong();
        }
        return out;
    }

    @Test
    void holdersWithClocksAheadAndBehindNeverRepeatAnIdOfTheSameMachineId() {
        Coordinator zk = new Coordinator();

        // holder 1: clock 2 s ahead, 10,000 IDs over 3 ms
        ManualClock ahead = ManualClock.at(T.plusSeconds(2)).autoAdvanceEvery(4000, Duration.ofMillis(1));
        Lease first = zk.grant();
        SnowflakeGenerator one = SnowflakeGenerator.builder().machineId(first).clock(ahead).build();
        long[] fromOne = take(one, 10_000);
        first.release();
        assertThrows(MachineIdLostException.class, one::nextLong);

        // holder 2 (a restart): clock right, so 2 s behind the mark; the default policy refuses
        ManualClock right = ManualClock.at(T);
        Lease second = zk.grant();
        SnowflakeGenerator two = SnowflakeGenerator.builder().machineId(second).clock(right).build();
        ClockMovedBackwardsException behind = assertThrows(ClockMovedBackwardsException.class, two::nextLong);
        long mark = zk.mark;
        assertEquals(one.highWaterMark(), mark);
        assertEquals(mark - T.toEpochMilli(), behind.millisBehind(), behind.getMessage());

        // its clock reaches the mark minus 3 ms: the default 5 ms wait covers it, reading the clock on
        right.setMillis(mark - 3).autoAdvance(Duration.ofMillis(1));
        long[] fromTwo = take(two, 5_000);
        second.release();

        // holder 3: runAhead(30 s) starts right after the mark although its clock is still at T
        ManualClock slow = ManualClock.at(T);
        Lease third = zk.grant();
        SnowflakeGenerator three = SnowflakeGenerator.builder().machineId(third).clock(slow)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(30))).build();
        long[] fromThree = take(three, 5_000);

        long[] all = new long[fromOne.length + fromTwo.length + fromThree.length];
        System.arraycopy(fromOne, 0, all, 0, fromOne.length);
        System.arraycopy(fromTwo, 0, all, fromOne.length, fromTwo.length);
        System.arraycopy(fromThree, 0, all, fromOne.length + fromTwo.length, fromThree.length);
        IdChecks.assertStrictlyIncreasing(all);
        IdChecks.assertAllUnique(all);
        SnowflakeId lastOfTwo = two.decode(fromTwo[fromTwo.length - 1]);
        SnowflakeId firstOfThree = three.decode(fromThree[0]);
        assertEquals(lastOfTwo.timestamp().plusMillis(1), firstOfThree.timestamp(),
                "holder 3 starts in the millisecond after holder 2's last ID");
        assertEquals(0, firstOfThree.sequence());
    }
}
