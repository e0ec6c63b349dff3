package dev.idgen.machine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A copy of a process (restored image, new pid, clocks apart) shuts the fence until it proves its claim. */
class IncarnationWatchTest {

    private static final long T0 = 1_700_000_000_000L;
    private final AtomicLong wall = new AtomicLong(T0);
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final AtomicLong pid = new AtomicLong(4711);
    private final InstantSource clock = () -> Instant.ofEpochMilli(wall.get());

    private IncarnationWatch watch() {
        return new IncarnationWatch(pid::get, clock, nanos::get, 1_000);
    }

    @Test
    void aPauseMovesBothClocksAlikeAndIsNoSignal() {
        IncarnationWatch w = watch();
        wall.addAndGet(100_000); // stopped for 100 s: both clocks moved
        nanos.addAndGet(100_000_000_000L);
        assertNull(w.check());
    }

    @Test
    void aNewProcessIdOrAWallClockJumpAgainstTheMonotonicClockIsASignalOnce() {
        IncarnationWatch w = watch();
        pid.set(99);
        assertEquals("the process id changed from 4711 to 99", w.check());
        assertNull(w.check(), "the new readings are the baseline");
        wall.addAndGet(3_600_000); // restored an hour later: the monotonic clock resumed where it was
        nanos.addAndGet(2_000_000L);
        String why = w.check();
        assertTrue(why.contains("3599998 ms") && why.contains("more than 1000 ms"), why);
        wall.addAndGet(-1_001); // a step back beyond the bound counts too
        assertTrue(w.check().contains("-1001 ms"));
        assertThrows(IllegalArgumentException.class, () -> new IncarnationWatch(pid::get, clock, nanos::get, 0));
    }

    @Test
    void aCracCheckpointShutsTheFenceAndTheRestoreTellsTheLease() throws Exception {
        LeaseTimings timings = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofMillis(500));
        LeaseGuard guard = LeaseGuard.named("in test", timings, clock);
        int[] restores = new int[1];
        GuardedLease lease = new GuardedLease(6, guard) {
            @Override
            public void afterRestore() {
                super.afterRestore();
                restores[0]++;
            }

            @Override
            public void close() {
                guard().release();
            }
        };
        guard.claimed(6, T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        ids.nextLong();
        // the test CRaC (dev.idgen.random.cracfake, behind org.crac): before-checkpoint, then after-restore
        dev.idgen.random.cracfake.Core.checkpointRestore();
        assertEquals(1, restores[0], "the lease's own CRaC resource called afterRestore()");
        assertFalse(lease.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong, "no open fence came through the checkpoint");
        guard.acknowledged(T0 + 10_100, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_200, MachineIdLease.NO_MARK);
        wall.incrementAndGet();
        ids.nextLong();
        assertTrue(lease.isHeld(), "two writes after the restore open it");
    }

    @Test
    void aRestoredCopyShutsTheFenceUntilTwoWritesProveItsClaim() {
        LeaseTimings timings = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofMillis(500));
        LeaseGuard guard = LeaseGuard.named("in test", timings, clock);
        guard.watchIncarnation(watch());
        GuardedLease lease = new GuardedLease(5, guard) {
            @Override
            public void close() {
                guard().release();
            }
        };
        guard.claimed(5, T0 + 10_000, MachineIdLease.NO_MARK);
        guard.acknowledged(T0 + 10_000, MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        ids.nextLong();
        assertTrue(guard.checkIncarnation());
        pid.set(12);
        assertFalse(guard.checkIncarnation());
        assertThrows(MachineIdLostException.class, ids::nextLong, "shut at once");
        assertFalse(lease.isHeld());
        guard.acknowledged(T0 + 10_100, MachineIdLease.NO_MARK);
        assertThrows(MachineIdLostException.class, ids::nextLong, "one write after the signal opens nothing");
        guard.acknowledged(T0 + 10_200, MachineIdLease.NO_MARK);
        wall.incrementAndGet();
        ids.nextLong();
        assertTrue(lease.isHeld());
        lease.afterRestore();
        assertThrows(MachineIdLostException.class, ids::nextLong, "afterRestore() shuts it too");
    }
}
