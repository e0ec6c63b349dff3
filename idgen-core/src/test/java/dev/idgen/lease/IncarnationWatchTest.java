package dev.idgen.lease;

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

    private StoreLease lease(InMemoryLeaseStore store, String owner) {
        return StoreLease.builder(store).clock(clock).owner(owner).background(false).ttl(Duration.ofSeconds(10))
                .renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .maxClockSkew(Duration.ofMillis(500)).maxMachineId(7).acquire();
    }

    @Test
    void aCracCheckpointGivesTheIdBackAndTheRestoredProcessClaimsAsANewHolder() throws Exception {
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        StoreLease lease = lease(store, "A");
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        long before = ids.nextLong();
        // the test CRaC (dev.idgen.random.cracfake, behind org.crac): before-checkpoint, then after-restore
        dev.idgen.random.cracfake.Core.checkpointRestore();
        assertFalse(lease.isHeld(), "no open fence came through the checkpoint");
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertTrue(store.records().get(0L).expiresMillis() < wall.get(), "the id was given back before the checkpoint");
        wall.addAndGet(5);
        assertTrue(lease.renewNow(), lease.state());
        assertTrue(ids.nextLong() > before);
    }

    @Test
    void aCopyThatNoticesANewProcessIdNeverWritesTheOldClaimAgainAndClaimsAnother() {
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        StoreLease original = lease(store, "A");
        StoreLease copy = original.copyOfImage(store);
        copy.watchIncarnation(watch());
        SnowflakeGenerator copyIds = SnowflakeGenerator.builder().machineId(copy).clock(clock).build();
        pid.set(12);
        wall.addAndGet(2_000);
        nanos.addAndGet(2_000_000_000L);
        assertTrue(copy.renewNow(), copy.state());
        assertEquals(1, copy.machineId(), "the copy claimed another id");
        assertEquals(1, copyIds.decode(copyIds.nextLong()).machineId());
        assertTrue(original.renewNow(), original.state());
        assertEquals(0, original.machineId(), "the original kept its own");
    }

    @Test
    void aDriftOfExactlyTheBoundIsNoSignalAndABoundOfOneMillisecondIsAllowed() {
        IncarnationWatch w = new IncarnationWatch(pid::get, clock, nanos::get, 1);
        wall.addAndGet(1);
        assertNull(w.check(), "1 ms of drift is within a bound of 1 ms");
        wall.addAndGet(2);
        assertTrue(w.check().contains("more than 1 ms"));
        IncarnationWatch bounded = watch();
        wall.addAndGet(1_000);
        assertNull(bounded.check());
    }

    @Test
    void onlyTheSystemClockInAnyZoneIsWatchedAgainstTheMonotonicClock() {
        assertTrue(IncarnationWatch.isSystemClock(InstantSource.system()));
        assertTrue(IncarnationWatch.isSystemClock(java.time.Clock.systemUTC()));
        assertTrue(IncarnationWatch.isSystemClock(java.time.Clock.system(java.time.ZoneId.of("Asia/Tokyo"))));
        assertFalse(IncarnationWatch.isSystemClock(clock), "a clock a test or a user drives need not move in real time");
        assertFalse(IncarnationWatch.isSystemClock(java.time.Clock.fixed(Instant.ofEpochMilli(T0), java.time.ZoneOffset.UTC)));
    }
}
