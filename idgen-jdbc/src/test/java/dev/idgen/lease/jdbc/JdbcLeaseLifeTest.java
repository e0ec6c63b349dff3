package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A machine id's whole life on the JDBC lease (issue 22), on H2, PostgreSQL and MariaDB: a lease
 * whose id was taken claims again and carries its generator on; two copies of one process image
 * (a restored snapshot) never both keep the id; holders with different fence offsets on one table
 * never repeat; a poisoned mark heals. Renewals are driven by the test ({@code background(false)}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JdbcLeaseLifeTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    /**
     * fence = expiry - 700 ms; headroom 4000 - 1000 - 800 - 300 = 1900 ms. A ttl of 4 s rather than
     * 3 s: on a 2-core machine at a load of 30 a test thread can stall for seconds between steps.
     */
    private static final Duration TTL = Duration.ofSeconds(4);
    private static final Duration RENEW = Duration.ofMillis(500);
    private static final Duration MARGIN = Duration.ofMillis(300);
    private static final Duration SKEW = Duration.ofMillis(400);

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
    }

    private String table(TestDatabase db) {
        db.dataSource(); // a missing server skips (under CI: fails) here, before a cleanup is queued
        String t = "idgen_lease_life_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8);
        cleanup.add(() -> db.drop(t));
        return t;
    }

    private JdbcMachineIdLease track(JdbcMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    private static JdbcMachineIdLease.Builder builder(TestDatabase.Switchable ds, String table, String owner) {
        return JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(7).owner(owner)
                .ttl(TTL).renewEvery(RENEW).safetyMargin(MARGIN).maxClockSkew(SKEW).background(false);
    }

    private static SnowflakeGenerator generator(JdbcMachineIdLease lease, InstantSource clock) {
        return SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).clock(clock).build();
    }

    private static List<Long> mint(SnowflakeGenerator g, int n) {
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(g.nextLong());
        }
        return ids;
    }

    /** IDs from a generator whose mark may stand ahead of its clock: waits (bounded) until it is past. */
    private static List<Long> mintWaiting(SnowflakeGenerator g, int n, Duration limit) {
        return mintWaiting(g, n, limit, ClockMovedBackwardsException.class);
    }

    /** IDs from a generator that refuses for a while with {@code refusal}: waits (bounded) until it does not. */
    private static List<Long> mintWaiting(SnowflakeGenerator g, int n, Duration limit,
            Class<? extends RuntimeException> refusal) {
        long end = System.nanoTime() + limit.toNanos();
        List<Long> ids = new ArrayList<>(n);
        while (ids.size() < n) {
            try {
                ids.add(g.nextLong());
            } catch (ClockMovedBackwardsException | MachineIdLostException e) {
                if (!refusal.isInstance(e) && !(e instanceof ClockMovedBackwardsException)) {
                    throw e;
                }
                if (System.nanoTime() - end > 0) {
                    fail("no ID within " + limit.toMillis() + " ms: " + e.getMessage());
                }
                LockSupport.parkNanos(1_000_000);
            }
        }
        return ids;
    }

    private static long millis(long id) {
        return LAYOUT.decode(id).timestamp().toEpochMilli();
    }

    private static Set<Long> common(Collection<Long> a, Collection<Long> b) {
        Set<Long> both = new HashSet<>(a);
        both.retainAll(new HashSet<>(b));
        return both;
    }

    private static void assertStrictlyIncreasing(List<Long> ids) {
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i) <= ids.get(i - 1)) {
                fail("ID " + i + " " + LAYOUT.decode(ids.get(i)) + " is not above " + LAYOUT.decode(ids.get(i - 1)));
            }
        }
    }

    /** Renews until held: after a stall, one renewal moves the fence only to an expiry already near. */
    private static void hold(JdbcMachineIdLease lease) {
        for (int i = 0; i < 3 && !lease.renewNow(); i++) {
            LockSupport.parkNanos(1_000_000);
        }
        assertTrue(lease.isHeld(), lease.toString());
    }

    private static SqlDialect dialect(TestDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password)) {
            return SqlDialect.of(c.getMetaData().getDatabaseProductName());
        }
    }

    /** {@code SELECT <expression> FROM table WHERE machine_id = id}, as one long. */
    private static long rowValue(TestDatabase db, String table, long id, String expression) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT " + expression + " FROM " + table + " WHERE machine_id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "row of machine id " + id);
                return rs.getLong(1);
            }
        }
    }

    private static void awaitExpired(TestDatabase db, String table, long id) throws SQLException {
        String remaining = "expires_ms - " + dialect(db).nowMillis();
        long end = System.nanoTime() + 10_000_000_000L;
        while (rowValue(db, table, id, remaining) >= 0) {
            if (System.nanoTime() - end > 0) {
                fail("the row of machine id " + id + " never expired");
            }
            LockSupport.parkNanos(5_000_000);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aLeaseWhoseIdWasTakenClaimsAnotherAndItsGeneratorCarriesOn(TestDatabase db) throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").acquire());
        assertEquals(0, a.machineId());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        List<Long> idsA = mint(genA, 500);

        awaitExpired(db, table, 0); // A stopped renewing past the ttl
        assertThrows(MachineIdLostException.class, genA::nextLong, "fenced by time");
        JdbcMachineIdLease b = track(builder(ds, table, "B").acquire());
        assertEquals(0, b.machineId(), "B takes A's expired id, the lowest free one");
        SnowflakeGenerator genB = generator(b, InstantSource.system());
        List<Long> idsB = mint(genB, 500);

        assertTrue(a.renewNow(), "A claims the lowest free id and confirms it: " + a);
        assertEquals(1, a.machineId());
        assertEquals(1, genA.machineId(), "the same generator, no rebuild");
        assertEquals(1, a.reclaims());
        assertEquals(1, a.losses());
        List<Long> after = mint(genA, 500);
        for (long id : after) {
            assertEquals(1, LAYOUT.decode(id).machineId());
        }
        idsA.addAll(after);
        hold(b);
        idsB.addAll(mint(genB, 500));
        assertStrictlyIncreasing(idsA);
        assertEquals(Set.of(), common(idsA, idsB));
        assertEquals(1000, new HashSet<>(idsA).size());
        hold(b); // both keep their ids
        hold(a);
        assertEquals(List.of(0L, 1L), List.of(b.machineId(), a.machineId()));
        assertEquals(0, b.reclaims());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void withoutReclaimAnyIdALeaseWaitsForItsOwnIdAndStartsAboveTheOtherHoldersMark(TestDatabase db)
            throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").reclaimAnyId(false).acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        List<Long> idsA = mint(genA, 200);
        awaitExpired(db, table, 0);
        JdbcMachineIdLease b = track(builder(ds, table, "B").acquire());
        assertEquals(0, b.machineId());
        List<Long> idsB = mint(generator(b, InstantSource.system()), 200);

        assertFalse(a.renewNow(), "id 1 is free, but A waits for its own");
        assertFalse(a.renewNow());
        assertEquals(0, a.machineId());
        assertThrows(MachineIdLostException.class, genA::nextLong);
        assertEquals(0, a.reclaims());

        b.close();
        assertTrue(a.renewNow(), "B gave id 0 back: " + a);
        assertEquals(0, a.machineId());
        assertEquals(1, a.reclaims());
        List<Long> after = mint(genA, 200);
        assertTrue(after.get(0) > Collections.max(idsB), "A starts above every ID B made with id 0");
        idsA.addAll(after);
        assertStrictlyIncreasing(idsA);
        assertEquals(Set.of(), common(idsA, idsB));
    }

    /** A fake process id for {@link IncarnationWatch}: set it to another value to play a restore. */
    private static AtomicLong watchPid(JdbcMachineIdLease lease) {
        AtomicLong pid = new AtomicLong(1);
        lease.watchIncarnation(new IncarnationWatch(pid::get, InstantSource.system(), System::nanoTime, 60_000));
        return pid;
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void twoCopiesOfOneImageWithARestoreSignalOnBothShareNoIdAndOneKeepsTheId(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        List<Long> before = mint(genA, 300);
        JdbcMachineIdLease c = track(a.copyOfImage());
        SnowflakeGenerator genC = generator(c, InstantSource.system());
        assertEquals(a.token(), c.token());
        assertTrue(c.isHeld(), "a copy holds what the image held");

        long imageFence = c.fence().toEpochMilli();
        AtomicLong pidC = watchPid(c);
        pidC.set(2); // the copy runs under a new process id; it notices on its next renewal
        a.afterRestore(); // the other copy is told by a restore hook
        assertThrows(MachineIdLostException.class, genA::nextLong, "fenced at once by afterRestore()");

        assertFalse(c.renewNow(), "the new pid shuts the fence; the first proving renewal opens nothing");
        assertTrue(c.renewNow(), "two renewals since the signal: " + c);
        assertFalse(a.renewNow() && a.machineId() == 0, "the copy renewed first");
        assertTrue(a.isHeld(), "A claimed another id as a new holder: " + a);
        assertEquals(1, a.machineId());
        assertEquals(0, c.machineId());

        List<Long> idsA = new ArrayList<>(before);
        idsA.addAll(mint(genA, 200));
        // the copy that kept the id starts at the image's fence: no other copy got that far on it
        List<Long> idsC = mintWaiting(genC, 200, Duration.ofSeconds(5));
        assertTrue(millis(idsC.get(0)) >= imageFence, LAYOUT.decode(idsC.get(0)) + " below " + imageFence);
        hold(a); // the wait took most of the ttl
        hold(c);
        for (int round = 0; round < 3; round++) {
            hold(a);
            idsA.addAll(mint(genA, 200));
            hold(c);
            idsC.addAll(mint(genC, 200));
        }
        assertEquals(Set.of(), common(idsA, idsC));
        assertStrictlyIncreasing(idsA);
        assertEquals(List.of(0L, 1L), List.of(c.machineId(), a.machineId()), "exactly one copy keeps id 0");
        assertEquals(1, a.reclaims());
        assertEquals(0, c.reclaims());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aCopyThatNoticesARestoreWhileTheOtherKeepsMakingIdsStartsAboveTheImagesFence(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        List<Long> idsA = mint(genA, 300);
        JdbcMachineIdLease c = track(a.copyOfImage());
        SnowflakeGenerator genC = generator(c, InstantSource.system());
        long imageFence = c.fence().toEpochMilli();

        watchPid(c).set(2); // only the copy sees a signal; A goes on under the image's fence
        idsA.addAll(mint(genA, 300));
        assertFalse(c.renewNow());
        assertTrue(c.renewNow(), "the copy proved it holds the row: " + c);
        idsA.addAll(mint(genA, 300)); // A has not renewed since the image: still open
        List<Long> idsC = mintWaiting(genC, 300, Duration.ofSeconds(5));
        for (long id : idsC) {
            assertTrue(millis(id) >= imageFence, "the copy made " + LAYOUT.decode(id) + " below the image's fence "
                    + imageFence);
        }
        hold(c); // the wait took most of the ttl
        assertTrue(a.renewNow(), "A finds the nonce rotated and claims another id: " + a);
        assertEquals(1, a.machineId());
        idsA.addAll(mint(genA, 300));
        hold(c);
        idsC.addAll(mint(genC, 300));
        assertEquals(Set.of(), common(idsA, idsC));
        assertStrictlyIncreasing(idsA);
        assertEquals(0, c.machineId());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void twoCopiesWithNoSignalShareIdsOnlyUntilTheLosersFirstRenewal(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        List<Long> idsA = mint(genA, 200);
        JdbcMachineIdLease c = track(a.copyOfImage());
        SnowflakeGenerator genC = generator(c, InstantSource.system());

        // both copies serve requests, in turns, as two processes would side by side
        List<Long> windowA = new ArrayList<>();
        List<Long> windowC = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            windowA.addAll(mint(genA, 50));
            windowC.addAll(mintWaiting(genC, 50, Duration.ofSeconds(1)));
        }
        hold(a); // the first copy to renew keeps the id
        for (int i = 0; i < 20; i++) {
            windowA.addAll(mint(genA, 50));
            windowC.addAll(mintWaiting(genC, 50, Duration.ofSeconds(1))); // C has not renewed yet: still open
        }
        assertTrue(c.renewNow(), "the loser's first renewal finds the nonce rotated and claims another id");
        assertEquals(1, c.machineId());
        assertEquals(0, a.machineId());
        List<Long> afterA = mint(genA, 1000);
        List<Long> afterC = mint(genC, 1000);
        idsA.addAll(windowA);
        idsA.addAll(afterA);
        List<Long> idsC = new ArrayList<>(windowC);
        idsC.addAll(afterC);

        int shared = common(windowA, windowC).size();
        System.out.printf("[%s] no-signal copies: %d of %d window IDs per copy shared before the loser's first"
                + " renewal%n", db, shared, windowC.size());
        assertTrue(shared <= windowC.size());
        assertEquals(Set.of(), common(afterC, idsA), "the loser after its first renewal");
        assertEquals(Set.of(), common(afterA, idsC), "the winner after the loser's first renewal");
        assertStrictlyIncreasing(idsA);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aClaimerWithALargerFenceOffsetStartsAboveTheOldHoldersFence(TestDatabase db) throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        // A: offset 200 + 50 = 250 ms; B: offset 800 + 300 = 1100 ms and a clock 600 ms behind, within its bound
        JdbcMachineIdLease a = track(JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(0)
                .owner("A").ttl(TTL).renewEvery(RENEW).safetyMargin(Duration.ofMillis(50))
                .maxClockSkew(Duration.ofMillis(200)).background(false).acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        long fenceA = a.fence().toEpochMilli();
        while (System.currentTimeMillis() < fenceA - 600) {
            LockSupport.parkNanos(2_000_000);
        }
        List<Long> idsA = new ArrayList<>();
        try {
            while (true) { // five IDs a millisecond, until A's own fence refuses
                idsA.addAll(mint(genA, 5));
                long ms = System.currentTimeMillis();
                while (System.currentTimeMillis() == ms) {
                    Thread.onSpinWait();
                }
            }
        } catch (MachineIdLostException expected) {
            // A reached its fence
        }
        assertTrue(idsA.size() > 100, "A made " + idsA.size() + " IDs before its fence");
        assertTrue(millis(Collections.max(idsA)) < fenceA);

        TestClock clockB = new TestClock();
        clockB.offset.set(-600);
        JdbcMachineIdLease.Builder bb = JdbcMachineIdLease.builder(ds).table(table).maxMachineId(0).owner("B")
                .ttl(Duration.ofSeconds(4)).renewEvery(RENEW).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(800)).clock(clockB).background(false);
        JdbcMachineIdLease b = null;
        long end = System.nanoTime() + 10_000_000_000L;
        while (b == null) {
            try {
                b = track(bb.acquire());
            } catch (MachineIdLeaseException e) {
                if (System.nanoTime() - end > 0) {
                    fail("B never got the id: " + e.getMessage());
                }
                LockSupport.parkNanos(2_000_000);
            }
        }
        SnowflakeGenerator genB = generator(b, clockB);
        List<Long> idsB = new ArrayList<>();
        while (clockB.millis() < fenceA + 50) {
            idsB.addAll(mintWaiting(genB, 5, Duration.ofSeconds(3)));
        }
        for (long id : idsB) {
            assertTrue(millis(id) >= fenceA, "B made " + LAYOUT.decode(id) + " below A's fence " + fenceA);
        }
        assertEquals(Set.of(), common(idsA, idsB));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMarkADayAheadHealsOnTheNextClaimAndNoRenewalRecordsOneBeyondNowPlusTheSkew(TestDatabase db)
            throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        builder(ds, table, "P").maxMachineId(0).acquire().close(); // a released row, for the poisoned mark
        String now = dialect(db).nowMillis();
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("UPDATE " + table + " SET high_water_mark = " + now + " + 86400000"));
        }

        JdbcMachineIdLease q = track(builder(ds, table, "Q").maxMachineId(0).acquire());
        long claimed = System.nanoTime();
        SnowflakeGenerator genQ = generator(q, InstantSource.system());
        long first = mintWaiting(genQ, 1, Duration.ofSeconds(5)).get(0);
        long waitedMillis = (System.nanoTime() - claimed) / 1_000_000;
        assertTrue(waitedMillis <= SKEW.toMillis() + 3000, "Q waited " + waitedMillis + " ms for its first ID");
        assertTrue(millis(first) <= System.currentTimeMillis() + SKEW.toMillis());
        hold(q);
        long ahead = rowValue(db, table, 0, "high_water_mark - " + now);
        assertTrue(ahead <= SKEW.toMillis(), "the recorded mark is " + ahead + " ms ahead of the database's now");
        mint(genQ, 100);
        hold(q);
        assertTrue(rowValue(db, table, 0, "high_water_mark - " + now) <= SKEW.toMillis());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void afterRestoreShutsTheFenceAtOnceAndTheRenewalThreadOpensItAgain(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease a = track(builder(ds, table, "A").background(true).acquire());
        SnowflakeGenerator genA = generator(a, InstantSource.system());
        long last = Collections.max(mint(genA, 100));
        long fenceBefore = a.fence().toEpochMilli();
        a.afterRestore();
        // fenced before afterRestore() returns; if the renewal thread was faster, the raised mark refuses
        RuntimeException refused = assertThrows(RuntimeException.class, genA::nextLong);
        assertTrue(refused instanceof MachineIdLostException || refused instanceof ClockMovedBackwardsException,
                refused.toString());
        // the lease's own thread renews twice; the first ID after it stands above the fence the
        // lease had before the restore (no other copy of the image made one there)
        long first = mintWaiting(genA, 1, Duration.ofSeconds(8), MachineIdLostException.class).get(0);
        assertEquals(0, a.machineId(), "no other copy renewed: the id is kept");
        assertEquals(0, a.reclaims());
        assertTrue(first > last);
        assertTrue(millis(first) >= fenceBefore, LAYOUT.decode(first) + " below the fence before the restore");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void createTableAddsTheNewColumnsToATableFromAnEarlierVersion(TestDatabase db) throws SQLException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + table + " (machine_id INTEGER NOT NULL PRIMARY KEY, owner VARCHAR(255) NOT NULL,"
                    + " token BIGINT NOT NULL, acquired_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL,"
                    + " high_water_mark BIGINT NOT NULL)");
            st.execute("INSERT INTO " + table + " VALUES (0, 'old', 4, 0, 0, 12345)");
        }
        JdbcMachineIdLease a = track(builder(ds, table, "A").acquire());
        assertEquals(0, a.machineId(), "the old, expired row is claimed");
        assertEquals(5, a.token());
        hold(a);
        assertEquals(SKEW.plus(MARGIN).toMillis(), rowValue(db, table, 0, "fence_offset_ms"), "the writer's offset");
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aReleaseWithAMarkAheadOfTheDatabaseKeepsTheRowUntilTheNextClaimStartsAboveIt(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        // R's clock runs 650 ms ahead (bound 900 ms), Q's bound is 200 ms: Q alone would cut R's
        // recorded mark back to its own now + 200 ms, below IDs R made
        TestClock clockR = new TestClock();
        clockR.offset.set(650);
        JdbcMachineIdLease r = JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(0)
                .owner("R").ttl(Duration.ofMillis(3500)).renewEvery(RENEW).safetyMargin(MARGIN)
                .maxClockSkew(Duration.ofMillis(900)).clock(clockR).background(false).acquire();
        SnowflakeGenerator genR = generator(r, clockR);
        List<Long> idsR = new ArrayList<>();
        long until = System.nanoTime() + 300_000_000L;
        while (System.nanoTime() - until < 0) {
            idsR.addAll(mint(genR, 5));
            LockSupport.parkNanos(200_000);
        }
        r.close();

        JdbcMachineIdLease.Builder qb = JdbcMachineIdLease.builder(ds).table(table).maxMachineId(0).owner("Q")
                .ttl(TTL).renewEvery(RENEW).safetyMargin(MARGIN).maxClockSkew(Duration.ofMillis(200))
                .background(false);
        assertThrows(MachineIdLeaseException.class, qb::acquire, "the row stays live while R's mark is ahead");
        JdbcMachineIdLease q = null;
        long end = System.nanoTime() + 10_000_000_000L;
        while (q == null) {
            try {
                q = track(qb.acquire());
            } catch (MachineIdLeaseException e) {
                if (System.nanoTime() - end > 0) {
                    fail("Q never got the id: " + e.getMessage());
                }
                LockSupport.parkNanos(5_000_000);
            }
        }
        List<Long> idsQ = mintWaiting(generator(q, InstantSource.system()), 2000, Duration.ofSeconds(5));
        assertTrue(Collections.min(idsQ) > Collections.max(idsR), "Q starts above every ID R made");
        assertEquals(Set.of(), common(idsR, idsQ));
    }
}
