package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The faults that made duplicates when the fence followed a held flag, each replayed against a real
 * database: the old holder A must make no ID at or after the time the new holder B starts, and none
 * of B's. Timings: ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms (fence = expiry - 700 ms).
 * No lease here renews on a thread of its own unless the test says so: the fence needs none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JdbcLeaseFaultTest {

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
    }

    private String table(TestDatabase db) {
        db.dataSource(); // a missing server skips (under CI: fails) here, before a cleanup is queued
        String t = "idgen_lease_f" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 8);
        cleanup.add(() -> db.drop(t));
        return t;
    }

    private JdbcMachineIdLease.Builder builder(TestDatabase.Switchable ds, String table) {
        return JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(ds)).table(table).createTable(true).maxMachineId(0)
                .background(false);
    }

    private JdbcMachineIdLease track(JdbcMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    /** B: claims the id as soon as the database lets it, then makes IDs for {@code millis}. */
    private record NewHolder(JdbcMachineIdLease lease, long startMillis, Set<Long> ids, long minMillis) {
    }

    private NewHolder takeOver(TestDatabase db, String table, SnowflakeLayout layout, long millis) {
        JdbcMachineIdLease.Builder b = builder(db.dataSource(), table).owner("B/" + System.nanoTime());
        long end = System.nanoTime() + 15_000_000_000L;
        JdbcMachineIdLease lease = null;
        while (lease == null) {
            try {
                lease = track(b.acquire());
            } catch (MachineIdLeaseException e) {
                if (System.nanoTime() - end > 0) {
                    fail("B never got the id: " + e.getMessage());
                }
                LockSupport.parkNanos(10_000_000);
            }
        }
        long start = System.currentTimeMillis();
        SnowflakeGenerator g = SnowflakeGenerator.builder().layout(layout).machineId(lease).build();
        Set<Long> ids = new HashSet<>();
        long until = System.nanoTime() + millis * 1_000_000;
        long min = Long.MAX_VALUE;
        while (System.nanoTime() - until < 0) {
            long id = g.nextLong();
            ids.add(id);
            min = Math.min(min, layout.decode(id).timestamp().toEpochMilli());
        }
        return new NewHolder(lease, start, ids, min);
    }

    /** A's application thread: IDs as fast as it can, each kept, until stopped. */
    private static final class Pump implements Runnable {
        final SnowflakeGenerator ids;
        final List<Long> made = Collections.synchronizedList(new ArrayList<>());
        volatile boolean stop;
        volatile long refusals;
        volatile long firstRefusalMillis;

        Pump(SnowflakeGenerator ids) {
            this.ids = ids;
        }

        @Override
        public void run() {
            while (!stop) {
                try {
                    made.add(ids.nextLong());
                } catch (MachineIdLostException e) {
                    if (refusals++ == 0) {
                        firstRefusalMillis = System.currentTimeMillis();
                    }
                }
                LockSupport.parkNanos(100_000);
            }
        }

        Thread start() {
            Thread t = new Thread(this, "A-app");
            t.start();
            return t;
        }
    }

    private static long maxMillis(SnowflakeLayout layout, Iterable<Long> ids) {
        long max = Long.MIN_VALUE;
        for (long id : ids) {
            max = Math.max(max, layout.decode(id).timestamp().toEpochMilli());
        }
        return max;
    }

    private static void assertDisjointAndBelow(SnowflakeLayout layout, List<Long> oldIds, NewHolder b) {
        for (long id : oldIds) {
            assertFalse(b.ids.contains(id), "both holders made " + layout.decode(id));
        }
        long oldMax = maxMillis(layout, oldIds);
        assertTrue(oldMax < b.startMillis, "A made an ID at " + oldMax + ", B started at " + b.startMillis);
        assertTrue(oldMax < b.minMillis, "A made an ID at " + oldMax + ", B's first is at " + b.minMillis);
    }

    private static long[] row(TestDatabase db, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT expires_ms, high_water_mark, token FROM " + table + " WHERE machine_id = 0");
                ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    /**
     * A thread stops inside its clock read (a GC, a descheduled thread) while A's lease runs out and
     * B takes the id. Reading the time after the stop, it would have stamped B's time with the old
     * check-then-act (the lease was held when it checked); the fence, checked after the CAS against
     * the time the ID carries, refuses it. Reading before the stop, it stamps a time B never reaches.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aCallPausedInsideItsClockReadIsRefusedOrStampsATimeTheNextHolderNeverReaches(TestDatabase db)
            throws InterruptedException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        for (boolean readBeforePause : new boolean[] {false, true}) {
            TestClock clock = new TestClock();
            JdbcMachineIdLease a = track(builder(ds, table).owner("A/" + readBeforePause).clock(clock).acquire());
            SnowflakeGenerator ga = SnowflakeGenerator.builder().machineId(a).clock(clock).build();
            List<Long> aIds = new ArrayList<>(List.of(ga.nextLong(), ga.nextLong()));
            assertTrue(a.isHeld(), "held when the paused call starts: the old check passed here");
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread paused = new Thread(() -> {
                try {
                    outcome.set(ga.nextLong());
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
            });
            clock.pauseNextReadOf(paused, readBeforePause);
            paused.start();
            clock.awaitPaused();
            NewHolder b = takeOver(db, table, SnowflakeLayout.TWITTER, 100);
            long resumedAt = System.currentTimeMillis();
            assertTrue(resumedAt >= b.startMillis, "the call resumes inside B's time");
            clock.resume();
            paused.join();
            if (readBeforePause) {
                assertTrue(outcome.get() instanceof Long, "a time read before the pause is below the fence: "
                        + outcome.get());
                aIds.add((Long) outcome.get());
            } else {
                assertTrue(outcome.get() instanceof MachineIdLostException, "refused: " + outcome.get());
            }
            assertDisjointAndBelow(SnowflakeLayout.TWITTER, aIds, b);
            b.lease.close();
            a.close();
        }
    }

    /**
     * A process stopped longer than the TTL, with no thread of the lease running at all: when its
     * application threads come back, before anything of the lease's could run, every call is refused.
     * The old lease without its watchdog stayed held and made B's IDs.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aPauseLongerThanTheTtlWithNoLeaseThreadRunningIsRefusedByTime(TestDatabase db) throws InterruptedException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").acquire());
        SnowflakeGenerator ga = SnowflakeGenerator.builder().machineId(a).build();
        List<Long> aIds = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            aIds.add(ga.nextLong());
        }
        // the "pause": A does nothing at all while B takes the id and makes IDs
        NewHolder b = takeOver(db, table, SnowflakeLayout.TWITTER, 200);
        List<Thread> app = new ArrayList<>();
        List<Long> returned = Collections.synchronizedList(new ArrayList<>());
        long[] refused = new long[4];
        for (int t = 0; t < 4; t++) {
            int me = t;
            app.add(new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    try {
                        returned.add(ga.nextLong());
                    } catch (MachineIdLostException e) {
                        refused[me]++;
                    }
                }
            }));
        }
        app.forEach(Thread::start);
        for (Thread t : app) {
            t.join();
        }
        assertEquals(List.of(), returned, "A returned IDs after the pause");
        assertEquals(80_000, refused[0] + refused[1] + refused[2] + refused[3]);
        assertDisjointAndBelow(SnowflakeLayout.TWITTER, aIds, b);
    }

    /**
     * Both clocks inside the skew bound but at its opposite ends: A 330 ms ahead of the database, B
     * 330 ms behind. With a fence on A's local deadline (ttl - margin) A's IDs reached 30 ms past
     * the expiry while B started 330 ms before it. The fence subtracts the skew bound from the
     * expiry, so A stops below anything B makes. Timings that leave no headroom are refused.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void clocksAtOppositeEndsOfTheSkewBoundNeverOverlap(TestDatabase db) throws InterruptedException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        TestClock ahead = new TestClock();
        ahead.offset.set(330);
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").clock(ahead).acquire());
        Pump pump = new Pump(SnowflakeGenerator.builder().machineId(a).clock(ahead).build());
        Thread t = pump.start();
        ds.down(); // A cannot renew
        JdbcMachineIdLease.Builder bb = builder(db.dataSource(), table).owner("B");
        TestClock behind = new TestClock();
        behind.offset.set(-330);
        JdbcMachineIdLease b = null;
        long end = System.nanoTime() + 15_000_000_000L;
        while (b == null && System.nanoTime() - end < 0) {
            try {
                b = track(bb.clock(behind).acquire());
            } catch (MachineIdLeaseException e) {
                LockSupport.parkNanos(10_000_000);
            }
        }
        assertTrue(b != null, "B got the id");
        SnowflakeGenerator gb = SnowflakeGenerator.builder().machineId(b).clock(behind)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(2))).build();
        Set<Long> bIds = new HashSet<>();
        long bMin = Long.MAX_VALUE;
        long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() - until < 0) {
            long id = gb.nextLong();
            bIds.add(id);
            bMin = Math.min(bMin, gb.decode(id).timestamp().toEpochMilli());
        }
        pump.stop = true;
        t.join();
        assertTrue(pump.refusals > 0);
        List<Long> aIds = new ArrayList<>(pump.made);
        long aMax = maxMillis(SnowflakeLayout.TWITTER, aIds);
        assertTrue(aMax < bMin, "A's last ID at " + aMax + ", B's first at " + bMin);
        for (long id : aIds) {
            assertFalse(bIds.contains(id), "both made " + gb.decode(id));
        }
        assertThrows(IllegalArgumentException.class, () -> JdbcMachineIdLease.builder(ds).ttl(Duration.ofSeconds(3))
                .maxClockSkew(Duration.ofMillis(1000)).acquire(), "3 s ttl, 1 s skew bound: no headroom");
    }

    /**
     * A's clock steps forward between renewals: a small step stays below the fence; a step past it
     * is refused by the IDs' own time, so B never meets A's future-dated IDs.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aForwardClockStepBetweenRenewalsIsRefusedByTheIdsOwnTime(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        TestClock clock = new TestClock();
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").clock(clock).acquire());
        SnowflakeGenerator ga = SnowflakeGenerator.builder().machineId(a).clock(clock).build();
        List<Long> aIds = new ArrayList<>();
        aIds.add(ga.nextLong());
        long fence = a.fence().toEpochMilli();
        clock.offset.set(fence - System.currentTimeMillis() - 200); // 200 ms before the fence
        aIds.add(ga.nextLong());
        clock.offset.set(fence - System.currentTimeMillis() + 2000); // 2 s past it
        assertThrows(MachineIdLostException.class, ga::nextLong);
        assertFalse(a.isHeld());
        NewHolder b = takeOver(db, table, SnowflakeLayout.TWITTER, 100);
        assertDisjointAndBelow(SnowflakeLayout.TWITTER, aIds, b);
        assertTrue(maxMillis(SnowflakeLayout.TWITTER, aIds) < fence);
    }

    /**
     * A saturated generator under {@code runAhead(30 s)} on a frozen clock stamps ticks ever further
     * ahead; the fence refuses the first tick that reaches it (Sonyflake's 10 ms ticks: the fence in
     * tick units), so B, starting later, never re-issues them.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void runAheadIdsAreJudgedByTheirOwnTime(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        TestClock clock = new TestClock();
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").clock(clock).acquire());
        clock.fixed.set(System.currentTimeMillis());
        SnowflakeLayout layout = SnowflakeLayout.SONYFLAKE;
        SnowflakeGenerator ga = SnowflakeGenerator.builder().layout(layout).machineId(a).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(30))).build();
        List<Long> aIds = new ArrayList<>();
        long fence = a.fence().toEpochMilli();
        while (true) {
            try {
                aIds.add(ga.nextLong());
            } catch (MachineIdLostException e) {
                break;
            }
            if (aIds.size() > 2_000_000) {
                fail("run-ahead never reached the fence at " + fence);
            }
        }
        long aMax = maxMillis(layout, aIds);
        long tickMillis = layout.tickMillis();
        long epoch = layout.epoch().toEpochMilli();
        long fenceTick = (fence - epoch) / tickMillis;
        assertEquals(fenceTick - 1, (aMax - epoch) / tickMillis, "the last tick before the fence was used");
        assertTrue(aMax > clock.millis() + 1000, "A ran ahead of its frozen clock: " + (aMax - clock.millis()) + " ms");
        NewHolder b = takeOver(db, table, layout, 100);
        assertDisjointAndBelow(layout, aIds, b);
    }

    /**
     * The database fails over to a replica without A's last renewal: the row is put back as it was
     * after the renewal before. A, cut off from the new primary, fences from the older of its last
     * two expiries, so it stops before B can claim the restored row. A fence from the last expiry
     * would have let A run past B's start (checked below).
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aFailoverThatLosesTheLastRenewalStillFencesBeforeTheNextHolder(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").acquire());
        Pump pump = new Pump(SnowflakeGenerator.builder().machineId(a).build());
        Thread t = pump.start();
        assertTrue(a.renewNow());
        long[] replica = row(db, table); // what the replica has
        Thread.sleep(1500);
        assertTrue(a.renewNow()); // acknowledged by the primary, never replicated
        long lastExpiry = row(db, table)[0];
        long offset = a.timings().fenceOffsetMillis();
        assertEquals(replica[0] - offset, a.fence().toEpochMilli(), "fence from the second-to-last expiry");
        ds.down(); // the primary is gone; A cannot reach the new one
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE " + table + " SET expires_ms = ?, high_water_mark = ? WHERE machine_id = 0")) {
            ps.setLong(1, replica[0]);
            ps.setLong(2, replica[1]);
            assertEquals(1, ps.executeUpdate());
        }
        NewHolder b = takeOver(db, table, SnowflakeLayout.TWITTER, 200);
        pump.stop = true;
        t.join();
        // B may claim as soon as the database's clock passes the replica's expiry: a fence from the
        // last expiry stands past that instant (by the 1.5 s between the renewals less the offset),
        // whenever B's claim actually ran; a bound in the coordinator's time, not in scheduling luck
        assertTrue(lastExpiry - offset > replica[0], "a fence from the last expiry (" + (lastExpiry - offset)
                + ") would have let A run past the instant B may claim (" + replica[0] + ")");
        assertTrue(b.startMillis >= replica[0] - a.timings().maxClockSkew().toMillis(),
                "B claimed only once the replica's expiry passed (its clock within the skew bound)");
        assertTrue(pump.refusals > 0);
        assertDisjointAndBelow(SnowflakeLayout.TWITTER, new ArrayList<>(pump.made), b);
        System.out.printf("%s: failover lost the renewal to %d; A refused from %d, B started %d%n", db, lastExpiry,
                pump.firstRefusalMillis, b.startMillis);
    }
}
