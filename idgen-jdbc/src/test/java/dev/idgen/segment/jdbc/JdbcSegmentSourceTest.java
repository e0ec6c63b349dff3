package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.BusinessNumberFormat;
import dev.idgen.segment.BusinessNumberGenerator;
import dev.idgen.segment.DateGroup;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The JDBC segment store on H2 and on the real PostgreSQL and MariaDB, each run in its own table. */
class JdbcSegmentSourceTest {

    private static JdbcSegmentSource source(SegmentDatabase db, DataSource ds, String table) {
        return JdbcSegmentSource.builder(ds).table(table).createTable(true).build();
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void grantsFromManyThreadsNeverOverlapAndLeaveNoHole(SegmentDatabase db) throws Exception {
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            JdbcSegmentSource source = source(db, ds, table);
            int threads = 4;
            int grantsEach = 40;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<List<SegmentGrant>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    List<SegmentGrant> mine = new ArrayList<>();
                    for (int i = 0; i < grantsEach; i++) {
                        mine.add(source.grant("orders", 7));
                    }
                    return mine;
                }));
            }
            start.countDown();
            List<SegmentGrant> all = new ArrayList<>();
            for (Future<List<SegmentGrant>> f : futures) {
                all.addAll(f.get(120, TimeUnit.SECONDS));
            }
            pool.shutdown();
            all.sort(Comparator.comparingLong(SegmentGrant::first));
            long expectedFirst = 1; // a new name starts at 1; ranges follow each other exactly
            for (SegmentGrant g : all) {
                assertEquals(expectedFirst, g.first(), "ranges overlap or leave a hole at " + g);
                assertEquals(7, g.size());
                expectedFirst = g.last() + 1;
            }
            assertEquals(threads * grantsEach * 7L, expectedFirst - 1);
            assertEquals(1, source.grant("other", 3).first(), "another name has its own counter");
        } finally {
            db.drop(table);
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void twoGeneratorsWithTwoThreadsEachGetDistinctNumbers(SegmentDatabase db) throws Exception {
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            JdbcSegmentSource source = source(db, ds, table);
            int each = 20_000;
            // the fetches run on an executor of the test's, so it can wait for the last one to land
            ExecutorService fetcher = Executors.newFixedThreadPool(2);
            List<SegmentGenerator> gens = List.of(
                    SegmentGenerator.builder().source(source).name("orders").step(200).prefetch(1, 4)
                            .executor(fetcher).maxWait(Duration.ofSeconds(20)).build(),
                    SegmentGenerator.builder().source(source).name("orders").step(200).prefetch(1, 4)
                            .executor(fetcher).maxWait(Duration.ofSeconds(20)).build());
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<long[]>> futures = new ArrayList<>();
            for (SegmentGenerator g : gens) {
                for (int t = 0; t < 2; t++) {
                    futures.add(pool.submit(() -> {
                        long[] mine = new long[each];
                        for (int i = 0; i < each; i++) {
                            mine[i] = g.nextLong();
                        }
                        return mine;
                    }));
                }
            }
            long[] all = new long[4 * each];
            int k = 0;
            for (Future<long[]> f : futures) {
                long[] mine = f.get(180, TimeUnit.SECONDS);
                for (int i = 1; i < mine.length; i++) {
                    assertTrue(mine[i] > mine[i - 1], "a thread saw " + mine[i - 1] + " then " + mine[i]);
                }
                System.arraycopy(mine, 0, all, k, each);
                k += each;
            }
            pool.shutdown();
            gens.forEach(SegmentGenerator::close);
            fetcher.shutdown();
            assertTrue(fetcher.awaitTermination(30, TimeUnit.SECONDS));
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                assertTrue(all[i] != all[i - 1], "repeated " + all[i]);
            }
            assertTrue(all[0] >= 1);
            long granted = source.grant("orders", 1).first() - 1;
            assertTrue(all[all.length - 1] <= granted, "a number beyond every grant");
            long held = gens.get(0).numbersLeft() + gens.get(1).numbersLeft();
            assertEquals(granted, all.length + held, "granted = handed out + still held");
        } finally {
            db.drop(table);
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void theStoresTimeComesBackWithEachGrantAndDecidesBusinessNumbers(SegmentDatabase db) {
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            JdbcSegmentSource source = source(db, ds, table);
            Instant before = Instant.now();
            SegmentGrant g = source.grant("clock", 1);
            Instant storeNow = source.now();
            Instant after = Instant.now();
            // the servers run on this machine: their clocks agree with ours to well within a minute
            assertTrue(Duration.between(before, g.storeTime()).abs().toSeconds() < 60, g.storeTime() + " vs " + before);
            assertTrue(Duration.between(after, storeNow).abs().toSeconds() < 60, storeNow + " vs " + after);
            assertTrue(!storeNow.isBefore(g.storeTime().minusMillis(1)), "the store's clock went back");

            BusinessNumberFormat inv = BusinessNumberFormat.builder().prefix("INV").group(DateGroup.DAY).width(6)
                    .build();
            BusinessNumberGenerator numbers = BusinessNumberGenerator.builder().source(source).name("invoice")
                    .format(inv).build();
            String first = numbers.next();
            LocalDate storeDay = LocalDate.ofInstant(source.now(), ZoneOffset.UTC);
            // (a run across midnight UTC could see the next day; then the number's day is the earlier one)
            LocalDate numberDay = inv.parse(first).date();
            assertTrue(numberDay.equals(storeDay) || numberDay.plusDays(1).equals(storeDay), first);
            assertEquals(1, inv.parse(first).counter());
            assertEquals(2, inv.parse(numbers.next()).counter());
        } finally {
            db.drop(table);
        }
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void anUnreachableDatabaseIsNamedInTheError(SegmentDatabase db) {
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            JdbcSegmentSource source = source(db, ds, table);
            db.drop(table); // the table vanishes: every grant fails, naming table and database
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> source.grant("orders", 5));
            assertTrue(e.getMessage().contains("'orders'") && e.getMessage().contains("table " + table), e.getMessage());
            assertTrue(e.getCause() instanceof SQLException);
        } finally {
            db.drop(table);
        }
    }

    @org.junit.jupiter.api.Test
    void badInputIsNamed() {
        JdbcSegmentSource.Builder b = JdbcSegmentSource.builder(new SegmentDatabase.Direct("jdbc:none", ""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.table("seg; DROP TABLE x")).getMessage()
                .contains("'seg; DROP TABLE x' is not a plain SQL identifier"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.queryTimeout(Duration.ZERO)).getMessage()
                .contains("queryTimeout PT0S is out of range"));
    }

    @ParameterizedTest
    @EnumSource(SegmentDatabase.class)
    void thePatternOfANameIsRecordedOnceAndAnotherIsRefused(SegmentDatabase db) throws Exception {
        DataSource ds = db.dataSource();
        String table = SegmentDatabase.freshTable();
        try {
            // a table made before patterns were recorded: createTable adds the column
            try (java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
                st.execute("CREATE TABLE " + table + " (name VARCHAR(128) NOT NULL PRIMARY KEY,"
                        + " last_value BIGINT NOT NULL)");
            }
            JdbcSegmentSource source = source(db, ds, table);
            assertEquals(5, source.grant("invoice", 5).last(), "the base name may also be a plain counter");
            assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMddNN"));
            assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMNNNN"), "the first one stays");
            assertEquals("ORD-yyyy-NNNN", source.recordPattern("order", "ORD-yyyy-NNNN"), "a new name, a new row");
            assertEquals(6, source.grant("invoice", 1).first(), "recording left the counter alone");
            assertEquals(1, source.grant("order", 1).first(), "a row made by recording starts at 0");

            BusinessNumberGenerator monthly = BusinessNumberGenerator.builder().source(source).name("invoice")
                    .format(BusinessNumberFormat.builder().pattern("INVyyyyMMNNNN").build()).build();
            dev.idgen.segment.PatternConflictException e = assertThrows(
                    dev.idgen.segment.PatternConflictException.class, monthly::next);
            assertTrue(e.getMessage().contains("with pattern INVyyyyMMddNN; pattern INVyyyyMMNNNN is refused")
                    && e.getMessage().contains("table " + table), e.getMessage());
        } finally {
            db.drop(table);
        }
    }
}
