package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JDBC lease on H2, PostgreSQL and MariaDB where the table is what matters: claims racing on many
 * connections, the namespace row of a new table, a table of an earlier version, the errors that name
 * the table. The life itself is the shared suite's ({@code JdbcLeaseScenariosTest}).
 */
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

    /** ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms: headroom 1,100 ms. */
    static JdbcMachineIdLease.Builder shortTimings(JdbcMachineIdLease.Builder b) {
        return b.ttl(Duration.ofMillis(3000)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400));
    }

    /**
     * Acquires as soon as the table lets {@code b} (another holder's claim has to expire first),
     * asking every {@code every}; fails the test naming the last refusal after {@code limit}.
     */
    static JdbcMachineIdLease acquireWithin(JdbcMachineIdLease.Builder b, Duration limit, Duration every) {
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                return b.acquire();
            } catch (MachineIdLeaseException e) {
                if (System.nanoTime() - end > 0) {
                    fail("no id within " + limit.toMillis() + " ms: " + e.getMessage());
                }
                LockSupport.parkNanos(every.toNanos());
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
        assertTrue(full.getMessage().startsWith("Every machine id 0..2 in table " + table + " is held"),
                full.getMessage());
        long token = c.token();
        c.close();
        assertFalse(c.isHeld());
        JdbcMachineIdLease again = track(b.acquire());
        assertEquals(1, again.machineId());
        assertEquals(token + 1, again.token(), "a new claim of a row takes the next token");
        assertEquals(table, again.table());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aMissingTableOrBadNameIsAClearError(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> JdbcMachineIdLease.builder(ds).table(table).background(false).acquire());
        assertTrue(e.getMessage().startsWith("Could not claim a machine id in table " + table + ": Lease table "
                + table + " is missing, or lacks columns of this version ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("create it with createTable(true), which also adds the columns a table of"
                + " an earlier version lacks, or run the shipped DDL dev/idgen/lease/jdbc/ddl/"
                + (db == TestDatabase.MARIADB ? "mysql" : db.name().toLowerCase(Locale.ROOT)) + ".sql once"),
                e.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).table("x; drop table y"));
        assertEquals("Lease table name 'x; drop table y' is not a plain SQL identifier (letters, digits, _;"
                + " optionally schema.table)", name.getMessage());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void concurrentClaimersOnManyConnectionsNeverShareAnId(TestDatabase db) throws InterruptedException {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.builder(ds).table(table).createTableNow();
        int threads = 8;
        int rounds = 8;
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
                            failures.add(name + " could not renew its fresh lease on " + lease.machineId() + ": "
                                    + lease.state());
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
        System.out.printf("%s: %d claims, %d refusals from %d threads on ids 0..3%n", db, claims.get(), full.get(),
                threads);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aSecondClaimerOfTheSameIdFailsNamingTheFirst(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease first = track(JdbcMachineIdLease.builder(ds).table(table).createTable(true).maxMachineId(9)
                .machineId(5).owner("first-instance").background(false).acquire());
        assertEquals(5, first.machineId(), "the exact id, not the lowest free one (0)");
        assertFalse(first.reclaimsAnyId(), "an exact id never moves to another id");
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> JdbcMachineIdLease.builder(ds)
                .table(table).maxMachineId(9).machineId(5).owner("second-instance").background(false).acquire());
        assertTrue(e.getMessage().startsWith("Machine id 5 in table " + table
                + " is held by a live lease of owner 'first-instance'"), e.getMessage());
        JdbcMachineIdLease other = track(JdbcMachineIdLease.builder(ds).table(table).maxMachineId(9).background(false)
                .acquire());
        assertEquals(0, other.machineId(), "a lease with no exact id claims the lowest free one beside it");
    }

    /**
     * The table made by createTable(true) carries the namespace row that shows it new: the first
     * claim starts with no floor, and names the layout for every later holder.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTableMadeByTheDdlIsTrustedAtOnceAndTheFirstClaimNamesTheLayout(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        JdbcMachineIdLease.Builder b = shortTimings(JdbcMachineIdLease.builder(ds)).table(table).createTable(true)
                .layout(SnowflakeLayout.SONYFLAKE).maxMachineId(3).background(false);
        JdbcMachineIdLease lease = track(b.acquire());
        JdbcLeaseStore store = b.store(ds);
        NamespaceRecord ns = store.readNamespace();
        assertEquals(SnowflakeLayout.SONYFLAKE.signature(), ns.layout());
        assertEquals(Long.MIN_VALUE, ns.trustedFromMillis(), "a new table: nothing to wait for");
        LeaseRecord row = store.read(0, 0).get(0L);
        assertEquals(Long.MIN_VALUE, row.markMillis(), "the claim started with no floor");
        assertEquals(lease.owner(), row.owner());
        assertTrue(lease.isHeld(), lease.state());
    }

    /**
     * A table made before the namespace row (a snapshot before 0.1.0): createTable(true) adds the
     * columns it lacks and no namespace row. Its rows keep counting (an expired one is claimed at
     * once, above the mark it carries); an id without a row makes IDs only from one ttl after the
     * first claim looked, since nothing shows that no holder from before still stamps it.
     */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    @Tag("slow")
    void aTableOfAnEarlierVersionKeepsItsRowsAndTrustsNoOtherIdForOneTtl(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        String now = SqlDialect.of(productName(db)).nowMillis();
        JdbcLeaseStoreTest.sql(db, "CREATE TABLE " + table + " (machine_id INTEGER NOT NULL PRIMARY KEY,"
                + " owner VARCHAR(255) NOT NULL, token BIGINT NOT NULL, acquired_ms BIGINT NOT NULL,"
                + " expires_ms BIGINT NOT NULL, high_water_mark BIGINT NOT NULL)");
        // id 0: expired a second ago, with a mark 200 ms ahead of the database's clock
        JdbcLeaseStoreTest.sql(db, "INSERT INTO " + table + " (machine_id, owner, token, acquired_ms, expires_ms,"
                + " high_water_mark) VALUES (0, 'old', 4, 0, " + now + " - 1000, " + now + " + 200)");
        JdbcMachineIdLease.Builder b = shortTimings(JdbcMachineIdLease.builder(ds)).table(table).maxMachineId(1)
                .background(false);
        assertThrows(MachineIdLeaseException.class, b::acquire, "the columns are missing");
        assertFalse(b.createTableNow(), "the table exists: no namespace row");
        JdbcLeaseStore store = b.store(ds);
        assertNull(store.readNamespace());
        long oldMark = store.read(0, 0).get(0L).markMillis();

        JdbcMachineIdLease a = track(b.owner("A").background(true).acquire()); // holds id 0 throughout
        b.background(false);
        assertEquals(0, a.machineId());
        assertEquals(5, a.token(), "the old row's claims go on counting");
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(a).build();
        assertTrue(ids.decode(ids.nextLong()).timestamp().toEpochMilli() > oldMark, "above the old row's mark");

        NamespaceRecord ns = store.readNamespace();
        assertTrue(ns.trustedFromMillis() > store.time().storeMillis(), "new rows free only later: " + ns);
        assertEquals(ns.trustedFromMillis(), store.read(1, 1).get(1L).expiresMillis());
        JdbcMachineIdLease second = track(b.owner("B").acquire());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!second.renewNow()) { // claimed, waiting for the time id 1 is trusted from
            if (System.nanoTime() - end > 0) {
                fail("id 1 never held: " + second.state());
            }
            LockSupport.parkNanos(100_000_000);
        }
        assertEquals(1, second.machineId());
        SnowflakeGenerator more = SnowflakeGenerator.builder().machineId(second).build();
        assertTrue(more.decode(more.nextLong()).timestamp().toEpochMilli() >= ns.trustedFromMillis(),
                "no ID of id 1 below the time it was trusted from");
    }

    @Test
    void theShippedDdlMakesTheTableThenItsNamespaceRow() {
        for (SqlDialect d : SqlDialect.values()) {
            List<String> ddl = d.createTable("app.leases");
            assertEquals(2, ddl.size(), d + ": " + ddl);
            assertTrue(ddl.get(0).startsWith("CREATE TABLE app.leases ("), d + ": " + ddl);
            assertTrue(ddl.get(1).startsWith("INSERT INTO app.leases (machine_id, owner, token,"), d + ": " + ddl);
            assertTrue(ddl.get(1).contains("VALUES (-1, '', -1, "), d + ": " + ddl);
            assertFalse(String.join(";", ddl).contains("${table}"), d + ": " + ddl);
        }
        assertEquals(SqlDialect.POSTGRESQL, SqlDialect.of("PostgreSQL"));
        assertEquals(SqlDialect.MYSQL, SqlDialect.of("MariaDB"));
        assertEquals(SqlDialect.MYSQL, SqlDialect.of("MySQL"));
        assertEquals(SqlDialect.H2, SqlDialect.of("H2"));
        assertThrows(IllegalArgumentException.class, () -> SqlDialect.of("Oracle"));
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void concurrentCreateTableCallsMakeOneTableWithOneNamespaceRow(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = table(db);
        int callers = 6;
        List<Boolean> made = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    made.add(JdbcMachineIdLease.builder(ds).table(table).createTableNow());
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(1, made.stream().filter(x -> x).count(), "made by exactly one: " + made);
        assertEquals(new NamespaceRecord("", -1, 0, Long.MIN_VALUE),
                JdbcMachineIdLease.builder(ds).table(table).store(ds).readNamespace());
    }

    @Test
    void timingsThatDoNotFitAreRefusedBeforeTheDatabaseIsAsked() {
        TestDatabase.Switchable ds = new TestDatabase.Switchable(TestDatabase.H2);
        ds.down();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JdbcMachineIdLease.builder(ds).ttl(Duration.ofSeconds(3)).acquire());
        assertTrue(e.getMessage().startsWith("Lease timings do not fit: ttl 3000 ms"), e.getMessage());
    }

    private static String productName(TestDatabase db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password)) {
            return c.getMetaData().getDatabaseProductName();
        }
    }
}
