package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store's operations on each engine, as {@code InMemoryLeaseStore} defines them: the namespace
 * row written once, {@code extend} all or nothing on the namespace's nonce, {@code replace} a
 * compare-and-set on the row's nonce that exactly one of many racing writers wins.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JdbcLeaseStoreTest {

    private static final String LAYOUT = "time-machine-sequence 41/10/12 tick 1 ms epoch 1288834974657";

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanup.forEach(Runnable::run);
    }

    private JdbcLeaseStore newTable(TestDatabase db) {
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        cleanup.add(() -> db.drop(table));
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table);
        assertTrue(b.createTableNow(), "made the table");
        return b.store(ds);
    }

    private static LeaseRecord record(String owner, long nonce, long expires) {
        return new LeaseRecord(owner, 3, nonce, expires, expires - 5_000, 1_400);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aNewTableHoldsItsNamespaceRowAsNewAndNoMachineId(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        assertEquals(new NamespaceRecord("", -1, 0, Long.MIN_VALUE), store.readNamespace());
        assertEquals(Map.of(), store.read(0, 1023));
        assertFalse(store.createNamespace(new NamespaceRecord(LAYOUT, -1, 7, 0)), "written once");
        assertEquals(new NamespaceRecord("", -1, 0, Long.MIN_VALUE), store.readNamespace());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void extendComparesTheNamespaceNonceAndCreatesOnlyTheMissingRows(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        NamespaceRecord first = new NamespaceRecord(LAYOUT, 3, 11, Long.MIN_VALUE);
        LeaseRecord free = LeaseRecord.unclaimed(21, LeaseRecord.NEVER);
        assertFalse(store.extend(1, first, 0, 3, free), "the nonce is 0, not 1");
        assertEquals(new NamespaceRecord("", -1, 0, Long.MIN_VALUE), store.readNamespace());
        assertEquals(Map.of(), store.read(0, 3));

        assertTrue(store.extend(0, first, 0, 3, free));
        assertEquals(first, store.readNamespace());
        assertEquals(Map.of(0L, free, 1L, free, 2L, free, 3L, free), store.read(0, 3));

        LeaseRecord held = record("A", 31, 1_800_000_000_000L);
        assertTrue(store.replace(1, 21, held));
        NamespaceRecord second = new NamespaceRecord(LAYOUT, 5, 12, 1_700_000_000_000L);
        LeaseRecord later = LeaseRecord.unclaimed(22, 1_700_000_000_000L);
        assertTrue(store.extend(11, second, 0, 5, later));
        assertEquals(second, store.readNamespace());
        assertEquals(Map.of(0L, free, 1L, held, 2L, free, 3L, free, 4L, later, 5L, later), store.read(0, 5));
        assertEquals(Map.of(4L, later, 5L, later), store.read(4, 1000), "a range reads only the ids it has");

        NamespaceRecord renamed = new NamespaceRecord(LAYOUT, 5, 13, 1_700_000_000_000L);
        assertTrue(store.extend(12, renamed, 0, -1, free), "an empty range replaces the namespace row alone");
        assertEquals(renamed, store.readNamespace());
        assertEquals(6, store.read(0, 1000).size());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void replaceIsACompareAndSetOnTheNonce(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        assertTrue(store.extend(0, new NamespaceRecord(LAYOUT, 0, 1, Long.MIN_VALUE), 0, 0,
                LeaseRecord.unclaimed(5, LeaseRecord.NEVER)));
        LeaseRecord a = record("A", 6, 1_800_000_000_000L);
        assertFalse(store.replace(0, 4, a), "not the nonce the row has");
        assertFalse(store.replace(1, 5, a), "no row");
        assertTrue(store.replace(0, 5, a));
        assertEquals(a, store.read(0, 0).get(0L));
        assertFalse(store.replace(0, 5, record("B", 7, 1)), "the nonce moved on");
        assertEquals(a, store.read(0, 0).get(0L));
        assertEquals(Map.of(), store.read(1, 1));
    }

    /** Twelve connections write one row from the same nonce, twenty rounds: one winner each round. */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void ofManyRacingReplacesExactlyOneWins(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        assertTrue(store.extend(0, new NamespaceRecord(LAYOUT, 0, 1, Long.MIN_VALUE), 0, 0,
                LeaseRecord.unclaimed(1_000, LeaseRecord.NEVER)));
        int writers = 12;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            long nonce = 1_000;
            for (int round = 0; round < 20; round++) {
                long expected = nonce;
                List<Boolean> won = race(pool, writers, w -> store.replace(0, expected,
                        record("w" + w, expected * 100 + w, 1_800_000_000_000L + w)));
                assertEquals(1, won.stream().filter(x -> x).count(), "winners in round " + round + ": " + won);
                int winner = won.indexOf(true);
                assertEquals(record("w" + winner, expected * 100 + winner, 1_800_000_000_000L + winner),
                        store.read(0, 0).get(0L));
                nonce = expected * 100 + winner;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Eight connections extend from the same namespace nonce: one creates the rows, the rest change nothing. */
    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void ofManyRacingExtensionsExactlyOneLands(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            long nonce = 0;
            for (int round = 0; round < 5; round++) {
                long expected = nonce;
                long from = round * 64L;
                List<Boolean> won = race(pool, writers, w -> store.extend(expected,
                        new NamespaceRecord(LAYOUT, from + 63, expected * 10 + w + 1, Long.MIN_VALUE), from, from + 63,
                        LeaseRecord.unclaimed(w + 1, LeaseRecord.NEVER)));
                assertEquals(1, won.stream().filter(x -> x).count(), "winners in round " + round + ": " + won);
                int winner = won.indexOf(true);
                NamespaceRecord ns = store.readNamespace();
                assertEquals(expected * 10 + winner + 1, ns.nonce());
                SortedMap<Long, LeaseRecord> rows = store.read(from, from + 63);
                assertEquals(64, rows.size());
                assertTrue(rows.values().stream().allMatch(r -> r.nonce() == winner + 1), "every row the winner's");
                nonce = ns.nonce();
            }
            assertEquals(5 * 64, store.read(0, 10_000).size());
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theStoresClockIsTheDatabasesBracketedByTheLocalClock(TestDatabase db) throws Exception {
        JdbcLeaseStore store = newTable(db);
        StoreTime t = store.time();
        assertTrue(t.localBeforeMillis() <= t.localAfterMillis(), t.toString());
        assertTrue(t.hasClock());
        // the database runs on this host: its reading lies between ours before and after the call, give
        // or take a second for how each engine rounds; a slow call widens the bracket, never fails it
        assertTrue(t.storeMillis() >= t.localBeforeMillis() - 1_000 && t.storeMillis() <= t.localAfterMillis() + 1_000,
                "skew " + t.skewMillis() + " ms: " + t);
        assertTrue(store.describe().startsWith("in table idgen_lease_t"), store.describe());
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aTruncatedTableHasNoNamespaceRowAndCreateTableDoesNotPutOneBack(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        cleanup.add(() -> db.drop(table));
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table);
        assertTrue(b.createTableNow());
        sql(db, "TRUNCATE TABLE " + table);
        assertFalse(b.createTableNow(), "the table exists");
        JdbcLeaseStore store = b.store(ds);
        assertNull(store.readNamespace(), "nothing shows the table new: the lease treats it as emptied");
        assertTrue(store.createNamespace(new NamespaceRecord(LAYOUT, -1, 9, 1_800_000_000_000L)));
        assertFalse(store.createNamespace(new NamespaceRecord(LAYOUT, -1, 10, 0)));
        assertEquals(new NamespaceRecord(LAYOUT, -1, 9, 1_800_000_000_000L), store.readNamespace());
    }

    private interface Write {
        boolean run(int writer) throws Exception;
    }

    /** Runs {@code writers} writes at once; {@return whether each landed, by writer} */
    private static List<Boolean> race(ExecutorService pool, int writers, Write write) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int me = w;
            Callable<Boolean> task = () -> {
                go.await();
                return write.run(me);
            };
            results.add(pool.submit(task));
        }
        go.countDown();
        List<Boolean> won = new ArrayList<>();
        for (Future<Boolean> f : results) {
            won.add(f.get(30, TimeUnit.SECONDS));
        }
        return won;
    }

    static void sql(TestDatabase db, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }
}
