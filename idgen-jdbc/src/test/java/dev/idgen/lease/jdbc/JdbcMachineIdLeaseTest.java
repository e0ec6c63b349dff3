package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.testkit.lease.LeaseScenarios;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Leases on H2, PostgreSQL and MariaDB: claims, races, fencing, takeover, the mark and the skew. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JdbcMachineIdLeaseTest {

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
    }

    private String table(TestDatabase db) {
        db.dataSource(); // a missing server skips (under CI: fails) here, before a cleanup is queued
        String t = TestDatabase.freshTable();
        cleanup.add(() -> db.drop(t));
        return t;
    }

    private JdbcMachineIdLease track(JdbcMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private static long dbRemainingMillis(TestDatabase db, String table, long machineId) throws SQLException {
        SqlDialect dialect;
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password)) {
            dialect = SqlDialect.of(c.getMetaData().getDatabaseProductName());
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT expires_ms - " + dialect.nowMillis() + " FROM " + table + " WHERE machine_id = ?")) {
                ps.setLong(1, machineId);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next(), "row of machine id " + machineId);
                    return rs.getLong(1);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void claimsTheLowestFreeIdsReusesFreedOnesAndSaysWhenAllAreTaken(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table).createTable(true)
                .maxMachineId(2).background(false);
        JdbcMachineIdLease a = track(b.acquire());
        JdbcMachineIdLease c = track(b.acquire());
        JdbcMachineIdLease d = track(b.acquire());
        assertEquals(List.of(0L, 1L, 2L), List.of(a.machineId(), c.machineId(), d.machineId()));
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertEquals("Every machine id 0..2 in table " + table + " is held by a live lease; free one, or widen the"
                + " space: raise maxMachineId (up to the layout's maxMachineId()) or use a layout with more machine-id"
                + " bits (e.g. SnowflakeLayout.SONYFLAKE, 0..65535)", full.getMessage());
        c.close();
        assertFalse(c.isHeld());
        JdbcMachineIdLease again = track(b.acquire());
        assertEquals(1, again.machineId());
        assertEquals(c.token() + 1, again.token(), "a new claim of a row takes the next fencing token");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMissingTableOrBadNameIsAClearError(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> JdbcMachineIdLease.builder(ds).table(table).background(false).acquire());
        assertTrue(e.getMessage().startsWith("Could not claim a machine id in table " + table
                + " (create it with createTable(true) or the shipped DDL)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JdbcMachineIdLease.builder(ds).table("x; drop table y"));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void concurrentClaimersOnManyConnectionsNeverShareAnId(TestDatabase db) throws InterruptedException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.builder(ds).table(table).createTableNow();
        int threads = 12;
        int rounds = 12;
        ConcurrentMap<Long, String> holders = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger claims = new AtomicInteger();
        AtomicInteger full = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "claimer-" + t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        JdbcMachineIdLease lease;
                        try {
                            lease = JdbcMachineIdLease.builder(ds).table(table).maxMachineId(3).owner(name)
                                    .background(false).acquire();
                        } catch (MachineIdLeaseException e) {
                            full.incrementAndGet();
                            continue;
                        }
                        claims.incrementAndGet();
                        String other = holders.putIfAbsent(lease.machineId(), name);
                        if (other != null) {
                            failures.add(name + " and " + other + " both hold machine id " + lease.machineId());
                        }
                        if (!lease.renewNow()) {
                            failures.add(name + " could not renew its fresh lease on " + lease.machineId());
                        }
                        holders.remove(lease.machineId(), name); // before the release frees it
                        lease.close();
                    }
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(name + ": " + e);
                }
            }, name);
            workers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(threads * rounds, claims.get() + full.get());
        assertTrue(claims.get() >= 4, "at least the four ids were claimed: " + claims.get());
        System.out.printf("%s: %d claims, %d refusals (all four ids held) from %d threads%n", db, claims.get(),
                full.get(), threads);
    }

    /**
     * A data source whose connections run {@code beforeScan} as the claim prepares its scan for free
     * ids, and {@code beforeClaim} as it prepares its conditional claim of one: the rival's moves
     * land exactly between the claimer's statements.
     */
    private static DataSource racedBy(DataSource ds, String table, Runnable beforeScan, Runnable beforeClaim) {
        String scan = "SELECT machine_id, expires_ms";
        String claim = "UPDATE " + table + " SET high_water_mark = GREATEST(LEAST(high_water_mark";
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(ds, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    Connection c = (Connection) result;
                    return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                            (p, m, a) -> {
                                if (m.getName().equals("prepareStatement")) {
                                    String sql = (String) a[0];
                                    if (sql.startsWith(scan)) {
                                        beforeScan.run();
                                    } else if (sql.startsWith(claim)) {
                                        beforeClaim.run();
                                    }
                                }
                                return invoke(c, m, a);
                            });
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aClaimerThatLosesEveryRaceForTenRoundsStillGetsTheEleventhFreedId(TestDatabase db) {
        // ids 0..11 all held; before each of the claimer's scans one holder leaves, and before its
        // claim a rival takes that id, ten times; the eleventh freed id is the claimer's. A claim that
        // gave up after eight lost rounds (the first version) fails here.
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table).createTable(true)
                .maxMachineId(11).background(false);
        List<JdbcMachineIdLease> holders = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            holders.add(track(b.acquire()));
        }
        List<Long> rivals = new ArrayList<>();
        int[] scans = new int[1];
        Runnable oneLeaves = () -> holders.get(scans[0]++).close();
        Runnable rivalFirst = () -> {
            if (rivals.size() < 10) {
                rivals.add(track(b.acquire()).machineId());
            }
        };
        JdbcMachineIdLease claimer = track(JdbcMachineIdLease.builder(racedBy(ds, table, oneLeaves, rivalFirst))
                .table(table).maxMachineId(11).background(false).acquire());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), rivals, "each rival took the id just freed");
        assertEquals(11, scans[0], "the claimer scanned eleven times: ten lost rounds, one won");
        assertEquals(10, claimer.machineId());
        assertTrue(claimer.isHeld());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aClaimerStillLosingWhenEveryIdCouldHaveChangedHandsGivesUpNamingTheRace(TestDatabase db) {
        // ids 0..1: the bound is three rounds (the space plus one). Before each scan the holder of one
        // id leaves and a rival takes that id before the claim: the race, not the space, is lost.
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table).createTable(true)
                .maxMachineId(1).background(false);
        List<JdbcMachineIdLease> held = new ArrayList<>(List.of(track(b.acquire()), track(b.acquire())));
        int[] scans = new int[1];
        Runnable oneLeaves = () -> held.get(scans[0]++ % 2).close();
        Runnable rivalFirst = () -> held.set((scans[0] - 1) % 2, track(b.acquire()));
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> JdbcMachineIdLease.builder(racedBy(ds, table, oneLeaves, rivalFirst)).table(table)
                        .maxMachineId(1).background(false).acquire());
        assertEquals(3, scans[0]);
        assertEquals("Lost the race for the free machine ids 0..1 in table " + table + " 3 times over, each to another"
                + " claimer; ids are freed as fast as others take them, try again", e.getMessage());
        assertTrue(held.get(0).isHeld() && held.get(1).isHeld(), "the rivals hold both ids");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theSharedLeaseScenariosPass(TestDatabase db) {
        LeaseScenarios.Report r = LeaseScenarios.check(new JdbcLeaseBackend(db, table(db)), Duration.ofSeconds(20));
        assertEquals(0, r.handOver().secondFirstId() >>> 63, "a positive ID");
        assertTrue(r.loss().oldRefusals() > 0);
        System.out.printf("%s: %s%n", db, r);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void anExpiredLeaseIsTakenOverAboveTheMarkOfAHolderWhoseClockRanAhead(TestDatabase db) throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        TestClock aheadClock = new TestClock();
        aheadClock.offset.set(300); // A's clock runs 300 ms ahead, within its skew bound of 400 ms
        JdbcMachineIdLease a = track(JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(ds)).table(table)
                .createTable(true).maxMachineId(0).clock(aheadClock).background(false).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).clock(aheadClock).build();
        long aLast = 0;
        for (int i = 0; i < 1000; i++) {
            aLast = aIds.nextLong();
        }
        assertTrue(a.renewNow());
        long aMark = aIds.highWaterMark();

        TestClock bClock = new TestClock();
        JdbcMachineIdLease.Builder bBuilder = JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(ds)).table(table)
                .maxMachineId(0).clock(bClock).background(false);
        assertThrows(MachineIdLeaseException.class, bBuilder::acquire, "A's lease is live");
        long asked = System.nanoTime();
        JdbcMachineIdLease[] b = new JdbcMachineIdLease[1];
        await("B takes over the expired id", Duration.ofSeconds(10), () -> {
            try {
                b[0] = bBuilder.acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                return false;
            }
        });
        track(b[0]);
        System.out.printf("%s: takeover %d ms after A's last renewal (ttl 3000 ms)%n", db,
                (System.nanoTime() - asked) / 1_000_000);
        assertEquals(0, b[0].machineId());
        assertTrue(b[0].highWaterMark() >= aMark, "B reads the mark A recorded: " + b[0].highWaterMark());
        long aFence = a.fence().toEpochMilli();
        assertTrue(b[0].highWaterMark() >= aFence - 1,
                "the claim raised the mark to A's fence or above: " + b[0].highWaterMark() + " vs " + aFence);
        assertEquals(a.token() + 1, b[0].token());

        long bMark = b[0].highWaterMark();
        bClock.fixed.set(bMark - 200); // B's clock is behind the mark
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b[0]).clock(bClock)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5))).build();
        ClockMovedBackwardsException behind = assertThrows(ClockMovedBackwardsException.class, bIds::nextLong);
        assertEquals(200, behind.millisBehind());
        bClock.fixed.set(bMark + 1);
        long bFirst = bIds.nextLong();
        assertTrue(bFirst > aLast, "B's first ID " + bFirst + " is above A's last " + aLast);

        assertFalse(a.renewNow(), "A finds its row taken");
        assertThrows(MachineIdLostException.class, aIds::nextLong);
        assertTrue(a.toString().contains("taken over by another holder"), a.toString());
        assertTrue(dbRemainingMillis(db, table, 0) > 0, "B's claim is live in the database");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aClockTooFarFromTheDatabaseIsRefusedOnClaimAndFencedOnRenewal(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        TestClock clock = new TestClock();
        clock.offset.set(-5000);
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(0)
                .maxClockSkew(Duration.ofSeconds(1)).clock(clock).background(false);
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertTrue(e.getMessage().startsWith("Could not hold machine id 0 in table " + table + ": fenced: the local clock"
                + " is "), e.getMessage());
        assertTrue(e.getMessage().contains("ms from the coordinator's (measured within "), e.getMessage());
        assertTrue(e.getMessage().contains("beyond the allowed maxClockSkew of 1000 ms"), e.getMessage());

        clock.offset.set(0);
        JdbcMachineIdLease lease = track(b.acquire());
        assertEquals(0, lease.machineId(), "the refused claim left the id free");
        assertTrue(Math.abs(lease.clockSkew().toMillis()) < 1000, lease.clockSkew().toString());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        ids.nextLong();
        clock.offset.set(3000); // ahead, yet still below the fence (ttl 30 s): only the skew check refuses
        assertFalse(lease.renewNow());
        assertFalse(lease.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong, "fenced at once, not at the fence's time");
        assertTrue(lease.clockSkew().toMillis() <= -2000, lease.clockSkew().toString());
        assertEquals(1, lease.losses());
        clock.offset.set(0);
        assertFalse(lease.renewNow(), "the first write after a loss opens nothing");
        assertTrue(lease.renewNow(), "held again after two acknowledged writes with the clocks agreeing");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void oneGeneratorPerLease(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        JdbcMachineIdLease lease = track(JdbcMachineIdLease.builder(ds).table(table(db)).createTable(true)
                .background(false).acquire());
        SnowflakeGenerator.builder().machineId(lease).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SnowflakeGenerator.builder().machineId(lease).build());
        assertTrue(e.getMessage().contains("already serves another generator"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void databaseUnreachableFencesBeforeTheRowExpiresAndRecoveryResumesAboveTheLastId(TestDatabase db)
            throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        Duration ttl = Duration.ofMillis(3000);
        JdbcMachineIdLease lease = track(JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(ds)).table(table)
                .createTable(true).acquire());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long last = ids.nextLong();

        ds.down();
        long down = System.nanoTime();
        await("fenced while the database is unreachable", ttl.multipliedBy(2), () -> !lease.isHeld());
        long fencedAfter = (System.nanoTime() - down) / 1_000_000;
        long remaining = dbRemainingMillis(db, table, lease.machineId());
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertTrue(remaining > 0, "fenced " + remaining + " ms after the database could hand the id on");

        ds.up();
        long up = System.nanoTime();
        await("held again once the database answers", Duration.ofSeconds(10), lease::isHeld);
        long next = ids.nextLong();
        long recoveredAfter = (System.nanoTime() - up) / 1_000_000;
        assertTrue(next > last);
        System.out.printf("%s: database unreachable -> refusing after %d ms (ttl %d ms, row still had %d ms);"
                + " reachable -> first new ID after %d ms%n", db, fencedAfter, ttl.toMillis(), remaining, recoveredAfter);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aPartitionedHolderIsFencedBeforeAnotherClaimerCanTakeItsId(TestDatabase db) {
        TestDatabase.Switchable aSide = db.dataSource();
        TestDatabase.Switchable bSide = db.dataSource();
        String table = table(db);
        Duration ttl = Duration.ofMillis(3000);
        JdbcMachineIdLease a = track(JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(aSide)).table(table)
                .createTable(true).maxMachineId(0).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
        aIds.nextLong();

        aSide.down(); // A is cut off; B still reaches the database
        long cut = System.nanoTime();
        long[] fencedAfter = {-1};
        JdbcMachineIdLease[] b = new JdbcMachineIdLease[1];
        JdbcMachineIdLease.Builder bBuilder = JdbcLeaseBackend.timings(JdbcMachineIdLease.builder(bSide)).table(table)
                .maxMachineId(0).background(false);
        await("B claims the id once A's row has expired", Duration.ofSeconds(20), () -> {
            if (fencedAfter[0] < 0 && !a.isHeld()) {
                fencedAfter[0] = (System.nanoTime() - cut) / 1_000_000;
            }
            try {
                b[0] = bBuilder.acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                return false;
            }
        });
        long takenAfter = (System.nanoTime() - cut) / 1_000_000;
        track(b[0]);
        assertFalse(a.isHeld(), "A still held its id when B was given it");
        assertTrue(fencedAfter[0] >= 0 && fencedAfter[0] < takenAfter,
                "A fenced at " + fencedAfter[0] + " ms, B claimed at " + takenAfter + " ms");
        assertThrows(MachineIdLostException.class, aIds::nextLong);

        aSide.up();
        assertFalse(a.renewNow(), "back on the network, A finds its row taken and stays fenced");
        System.out.printf("%s: holder cut off -> refusing after %d ms; another claimer given the id after %d ms"
                + " (ttl %d ms)%n", db, fencedAfter[0], takenAfter, ttl.toMillis());
    }

    @Test
    void theShippedDdlNamesTheTableForEveryDialect() {
        for (SqlDialect d : SqlDialect.values()) {
            String ddl = d.createTable("app.leases");
            assertTrue(ddl.startsWith("CREATE TABLE IF NOT EXISTS app.leases ("), d + ": " + ddl);
            assertTrue(ddl.contains("high_water_mark"), d + ": " + ddl);
            assertFalse(ddl.contains("${table}"), d + ": " + ddl);
        }
        assertEquals(SqlDialect.POSTGRESQL, SqlDialect.of("PostgreSQL"));
        assertEquals(SqlDialect.MYSQL, SqlDialect.of("MariaDB"));
        assertEquals(SqlDialect.MYSQL, SqlDialect.of("MySQL"));
        assertEquals(SqlDialect.H2, SqlDialect.of("H2"));
        assertThrows(IllegalArgumentException.class, () -> SqlDialect.of("Oracle"));
    }

    @Test
    void timingsThatDoNotFitAreRejectedNamingTheNumbers() {
        TestDatabase.Switchable ds = new TestDatabase.Switchable(TestDatabase.H2);
        // accepted before: renewEvery < ttl - margin; but a fence one renewal behind the last expiry,
        // minus skew and margin, leaves the holder no time to renew
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).ttl(Duration.ofSeconds(10)).safetyMargin(Duration.ofSeconds(2))
                        .renewEvery(Duration.ofSeconds(3)).acquire());
        assertEquals("Lease timings do not fit: ttl 10000 ms must exceed 2 x renewEvery (3000 ms) + 2 x maxClockSkew"
                + " (1000 ms) + safetyMargin (2000 ms) = 10000 ms, or a healthy holder is fenced before its next"
                + " renewal (its fence is the older of its last two acknowledged expiries minus maxClockSkew and"
                + " safetyMargin); lengthen the ttl or shorten the others", e.getMessage());
        // a 3 s ttl with the default 1 s skew bound: the old default margin ignored the skew
        IllegalArgumentException shortTtl = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).ttl(Duration.ofSeconds(3)).acquire());
        assertTrue(shortTtl.getMessage().contains("2 x maxClockSkew (1000 ms)"), shortTtl.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).ttl(Duration.ofSeconds(30)).maxClockSkew(Duration.ofMillis(-1))
                        .acquire());
    }
}
