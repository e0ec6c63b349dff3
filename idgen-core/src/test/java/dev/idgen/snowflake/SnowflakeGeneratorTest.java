package dev.idgen.snowflake;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockBackwardsPolicy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import java.util.concurrent.atomic.AtomicReference;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeLayout.FieldOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The classic scenarios of the background document, with a clock the test moves by hand. */
class SnowflakeGeneratorTest {

    private static final long TWEPOCH = 1288834974657L;
    private static final long T = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();

    private static SnowflakeGenerator generator(StepClock clock, long machine, ClockBackwardsPolicy policy) {
        return SnowflakeGenerator.builder().clock(clock).machineId(machine).onClockBackwards(policy).build();
    }

    @Test
    void twoMachinesIdsDifferOnlyInTheMachineFieldAtTheSameMillisecond() {
        StepClock clock = new StepClock(T);
        long a = generator(clock, 1, ClockBackwardsPolicy.refuse()).nextLong();
        long b = generator(clock, 2, ClockBackwardsPolicy.refuse()).nextLong();
        long machineMask = 1023L << 12;
        assertEquals(0, (a ^ b) & ~machineMask, "only machine bits may differ");
        assertEquals((T - TWEPOCH) << 22 | 1L << 12, a);
        assertEquals((T - TWEPOCH) << 22 | 2L << 12, b);

        clock.advance(1);
        long c = generator(clock, 2, ClockBackwardsPolicy.refuse()).nextLong();
        assertEquals(1L << 22, c - b, "one millisecond later: the timestamp field went up by one");
    }

    @Test
    void the4097thRequestInOneMillisecondWaitsForTheNextWithSequenceZero() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 7, ClockBackwardsPolicy.defaultPolicy());
        long previous = -1;
        for (int i = 0; i < 4096; i++) {
            long id = ids.nextLong();
            SnowflakeId d = ids.decode(id);
            assertEquals(Instant.ofEpochMilli(T), d.timestamp());
            assertEquals(i, d.sequence());
            assertTrue(id > previous);
            previous = id;
        }
        clock.stepPerRead(1); // time moves only while the generator reads it: no sleeping
        long id = ids.nextLong();
        SnowflakeId d = ids.decode(id);
        assertEquals(Instant.ofEpochMilli(T + 1), d.timestamp());
        assertEquals(0, d.sequence());
        assertEquals(7, d.machineId());
        assertTrue(id > previous);
    }

    @Test
    void refuseThrowsWithTwittersMessageAndHowFarBehind() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 2, ClockBackwardsPolicy.refuse());
        long before = ids.nextLong();
        clock.set(T - 5);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertEquals(5, e.millisBehind());
        assertTrue(e.getMessage().startsWith("Clock moved backwards. Refusing to generate id for 5 milliseconds"),
                e.getMessage());
        clock.set(T);
        assertTrue(ids.nextLong() > before, "same millisecond again: the sequence goes on");
    }

    @Test
    void waitUpToReturnsOnlyOnceTheClockIsBackAndTheIdIsGreater() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 2, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        long before = ids.nextLong();
        clock.set(T - 5);
        clock.stepPerRead(1);
        long after = ids.nextLong();
        assertTrue(after > before);
        assertTrue(ids.decode(after).timestamp().toEpochMilli() >= T,
                "an id is issued only once the clock is back at the last tick");
    }

    @Test
    void waitUpToRefusesAStepBackLongerThanItsBound() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 2, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        ids.nextLong();
        clock.set(T - 6);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertEquals(6, e.millisBehind());
        assertTrue(e.getMessage().contains("waitUpTo(5 ms)"), e.getMessage());
    }

    @Test
    void runAheadCarriesOnFromTheLastTickWithinItsBound() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 3, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        long before = ids.nextLong();
        clock.set(T - 5);
        long after = ids.nextLong();
        assertEquals(before + 1, after, "same tick, next sequence, although the clock is 5 ms behind");
        clock.set(T - 11);
        assertEquals(11, assertThrows(ClockMovedBackwardsException.class, ids::nextLong).millisBehind());
    }

    @Test
    void runAheadTakesTheNextTickAtOnceWhenTheSequenceIsExhausted() {
        StepClock clock = new StepClock(T); // frozen: never moves
        SnowflakeGenerator ids = generator(clock, 3, ClockBackwardsPolicy.runAhead(Duration.ofMillis(2)));
        long last = -1;
        for (int i = 0; i < 3 * 4096; i++) {
            long id = ids.nextLong();
            assertTrue(id > last);
            last = id;
        }
        SnowflakeId d = ids.decode(last);
        assertEquals(Instant.ofEpochMilli(T + 2), d.timestamp(), "ran 2 ms ahead of the clock without waiting");
        assertEquals(4095, d.sequence());
    }

    @Test
    void runAheadWaitsForTheClockOnceTheBoundIsReached() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 3, ClockBackwardsPolicy.runAhead(Duration.ofMillis(1)));
        for (int i = 0; i < 2 * 4096; i++) {
            ids.nextLong(); // T and T+1 (one ms ahead of the frozen clock)
        }
        clock.stepPerRead(1);
        long id = ids.nextLong();
        assertEquals(Instant.ofEpochMilli(T + 2), ids.decode(id).timestamp());
        assertEquals(0, ids.decode(id).sequence());
    }

    @Test
    void badConfigurationFailsAtBuildTimeNamingTheValueAndTheRange() {
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().machineId(1024).build());
        assertEquals("machine id 1024 is outside layout twitter's range 0..1023", range.getMessage());

        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> IdGenerators.snowflake(-1));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());

        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().build());
        assertTrue(none.getMessage().contains("0..1023"), none.getMessage());

        StepClock early = new StepClock(Instant.parse("2009-06-01T00:00:00Z").toEpochMilli());
        IllegalArgumentException epoch = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().machineId(1).clock(early).build());
        assertTrue(epoch.getMessage().contains("2009-06-01T00:00:00Z")
                && epoch.getMessage().contains("2010-11-04T01:42:54.657Z"), epoch.getMessage());

        assertThrows(IllegalArgumentException.class, () -> ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> ClockBackwardsPolicy.waitUpTo(Duration.ofMinutes(1)));
    }

    @Test
    void aClockPastTheLayoutsLastInstantIsAClearErrorNeverAWrappedId() {
        SnowflakeLayout small = SnowflakeLayout.custom("small")
                .epoch(Instant.ofEpochMilli(T)).tick(Duration.ofMillis(1))
                .timestampBits(10).machineBits(41).sequenceBits(12)
                .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build();
        StepClock clock = new StepClock(T + 1023);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(small).machineId(0).clock(clock).build();
        assertTrue(ids.nextLong() >= 0);
        clock.advance(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, ids::nextLong);
        assertTrue(e.getMessage().contains(Instant.ofEpochMilli(T + 1024).toString())
                && e.getMessage().contains(small.lastInstant().toString()), e.getMessage());
    }

    @Test
    void anExhaustedLastTickIsAClearErrorUnderRunAhead() {
        SnowflakeLayout small = SnowflakeLayout.custom("small")
                .epoch(Instant.ofEpochMilli(T)).tick(Duration.ofMillis(1))
                .timestampBits(2).machineBits(60).sequenceBits(1)
                .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build();
        StepClock clock = new StepClock(T + 3);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(small).machineId(0).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofMillis(5))).build();
        ids.nextLong();
        ids.nextLong();
        IllegalStateException e = assertThrows(IllegalStateException.class, ids::nextLong);
        assertTrue(e.getMessage().contains("last tick 3"), e.getMessage());
    }

    /** A coordinator lease reduced to its fence, moved by the test. */
    private static final class TestLease implements FencingLease {
        final AtomicReference<MachineIdUser> user = new AtomicReference<>();

        @Override
        public long machineId() {
            return 9;
        }

        @Override
        public boolean isHeld() {
            return true;
        }

        @Override
        public void attach(MachineIdUser generator) {
            user.set(generator);
            generator.fenceFrom(Long.MAX_VALUE);
        }

        @Override
        public String toString() {
            return "test lease 9";
        }
    }

    @Test
    void aLostLeaseStopsTheGeneratorAtOnce() {
        TestLease lease = new TestLease();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(new StepClock(T)).build();
        assertEquals(9, ids.decode(ids.nextLong()).machineId());
        lease.user.get().fenceFrom(Long.MIN_VALUE);
        MachineIdLostException e = assertThrows(MachineIdLostException.class, ids::nextLong);
        assertTrue(e.getMessage().contains("Machine id 9") && e.getMessage().contains("test lease 9"), e.getMessage());
        assertEquals(lease, e.lease());
    }

    @Test
    void theFenceIsJudgedByTheTimeEachIdCarries() {
        StepClock clock = new StepClock(T);
        TestLease lease = new TestLease();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        lease.user.get().fenceFrom(T + 10); // ids may cover up to T + 9
        assertEquals(T, ids.decode(ids.nextLong()).timestamp().toEpochMilli());
        clock.set(T + 9);
        assertEquals(T + 9, ids.decode(ids.nextLong()).timestamp().toEpochMilli());
        clock.set(T + 10); // a paused thread or a forward step lands at or past the fence
        assertThrows(MachineIdLostException.class, ids::nextLong);
        clock.set(T + 5_000);
        assertThrows(MachineIdLostException.class, ids::nextLong);
        lease.user.get().fenceFrom(T + 10_000); // a renewal moves the fence on
        assertEquals(T + 5_000, ids.decode(ids.nextLong()).timestamp().toEpochMilli());
    }

    @Test
    void aGeneratorOnAFencingLeaseRefusesEverythingUntilTheLeaseOpensTheFence() {
        FencingLease silent = new FencingLease() {
            @Override
            public long machineId() {
                return 4;
            }

            @Override
            public boolean isHeld() {
                return true;
            }

            @Override
            public void attach(MachineIdUser user) {
                // never opens the fence
            }
        };
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(silent).clock(new StepClock(T)).build();
        assertThrows(MachineIdLostException.class, ids::nextLong);
    }

    @Test
    void aPlainLeaseThatIsNotHeldIsRefusedAtBuild() {
        MachineIdLease gone = new MachineIdLease() {
            @Override
            public long machineId() {
                return 3;
            }

            @Override
            public boolean isHeld() {
                return false;
            }

            @Override
            public String toString() {
                return "plain lease 3";
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().machineId(gone).clock(new StepClock(T)).build());
        assertTrue(e.getMessage().contains("plain lease 3") && e.getMessage().contains("FencingLease"), e.getMessage());
    }

    @Test
    void anInterruptedThreadWaitingForTheNextTickGetsAnExceptionNotAHang() {
        StepClock clock = new StepClock(T); // frozen: the wait would never end
        SnowflakeGenerator ids = generator(clock, 1, ClockBackwardsPolicy.defaultPolicy());
        for (int i = 0; i < 4096; i++) {
            ids.nextLong();
        }
        Thread.currentThread().interrupt();
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, ids::nextLong);
            assertTrue(e.getMessage().startsWith("Interrupted while waiting for the clock"), e.getMessage());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void randomSequenceStartSpreadsTheFirstIdOfEachTickOverTheLowerHalf() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(1).clock(clock).randomSequenceStart(true).build();
        Set<Long> starts = new HashSet<>();
        long previous = -1;
        for (int tick = 0; tick < 200; tick++) {
            long id = ids.nextLong();
            long sequence = ids.decode(id).sequence();
            assertTrue(sequence < 2048, "start " + sequence + " leaves at least half the sequence");
            assertTrue(id > previous);
            previous = id;
            starts.add(sequence);
            clock.advance(1);
        }
        assertTrue(starts.size() > 150, "200 ticks should start at many different sequences: " + starts.size());
    }

    @Test
    void sonyflakeGeneratorCountsTenMillisecondTicks() {
        long sonyEpoch = Instant.parse("2014-09-01T00:00:00Z").toEpochMilli();
        StepClock clock = new StepClock(sonyEpoch + 12_345);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(SnowflakeLayout.SONYFLAKE).machineId(0xABCD)
                .clock(clock).build();
        long first = ids.nextLong();
        long second = ids.nextLong();
        assertEquals(1234L << 24 | 0xABCD, first);
        assertEquals(1234L << 24 | 1L << 16 | 0xABCD, second);
        assertFalse(ids.toString().isEmpty());
    }

    @Test
    void aFenceAtAnyLongIsAFenceNeverAnOverflow() {
        StepClock clock = new StepClock(T);
        TestLease lease = new TestLease();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        lease.user.get().fenceFrom(Long.MAX_VALUE - 1); // past the layout: no tick fenced
        ids.nextLong();
        lease.user.get().fenceFrom(Long.MIN_VALUE + 1); // before the epoch: every tick fenced
        assertThrows(MachineIdLostException.class, ids::nextLong);
        lease.user.get().fenceFrom(TWEPOCH); // tick 0 and later
        assertThrows(MachineIdLostException.class, ids::nextLong);
    }

    @Test
    void aMarkFarAheadIsNamedInTheRefusal() {
        StepClock clock = new StepClock(T);
        long mark = T + Duration.ofDays(1).toMillis();
        TestLease lease = new TestLease();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        lease.user.get().raiseHighWaterMark(mark); // an earlier holder's clock was a day ahead
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertTrue(e.getMessage().contains("the machine id's high-water mark from an earlier holder, "
                + Instant.ofEpochMilli(mark) + ", is 86400000 ms ahead of the clock"), e.getMessage());
        assertEquals(1, ids.clockStats().refusals());
        assertEquals(T, ids.clockStats().lastRefusalMillis());
    }

    @Test
    void clockStatsCountStepsBackWaitsAndRefusals() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, 3, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        for (int i = 0; i < 4096; i++) {
            ids.nextLong(); // one tick's worth on a still clock: the fast path
        }
        assertEquals(dev.idgen.clock.ClockStats.NONE, ids.clockStats());
        clock.stepPerRead(1);
        ids.nextLong(); // the 4097th: its re-read of the clock is in the next tick, so it never pauses
        clock.stepPerRead(0);
        clock.set(T - 100);
        assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        dev.idgen.clock.ClockStats stats = ids.clockStats();
        assertEquals(0, stats.tickWaits()); // waits that pause are counted: see TickSequenceTest
        assertEquals(1, stats.stepsBack());
        assertEquals(1, stats.refusals());
        assertTrue(stats.maxStepBackMillis() >= 101, stats.toString());
        assertEquals(T - 100, stats.lastRefusalMillis());
        assertEquals(0, stats.runAheads());
    }
}
