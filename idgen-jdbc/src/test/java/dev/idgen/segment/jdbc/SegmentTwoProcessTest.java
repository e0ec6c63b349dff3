package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.segment.StoreOutage;
import dev.idgen.testkit.segment.TwoProcessReport;
import dev.idgen.testkit.segment.TwoProcessRun;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes × 4 threads on one PostgreSQL counter, reached through a proxy this test controls.
 * Mid-run the proxy drops every byte (the store unreachable, as a partition looks to the client)
 * for 3 s, then forwards again. Every number must be distinct, each thread's must increase, every
 * number must lie at or below what the store granted, and callers must have been told
 * {@code SegmentUnavailableException} (naming the store, the counter and the step) only while their
 * generator held nothing. Both runs are in the slow tier (tag {@code slow}, run by
 * {@code .ci/run}): 200,000 numbers a thread, and the issue's 1,000,000 (also tagged
 * {@code issue-scale}).
 */
@Tag("slow")
class SegmentTwoProcessTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void twoProcessesNeverShareANumberAcrossAnOutageAndFailOnlyWhenSpent() throws Exception {
        run(200_000);
    }

    @Test
    @Tag("issue-scale")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void issueScaleAMillionNumbersPerThread() throws Exception {
        run(1_000_000);
    }

    private static void run(int perThread) throws Exception {
        SegmentDatabase db = SegmentDatabase.POSTGRESQL;
        String table = SegmentDatabase.freshTable();
        JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build();
        try (BlackholeProxy proxy = new BlackholeProxy(java.net.URI.create(db.url().substring(5)).getPort())) {
            // timeouts on every read: a dropped answer must end as an error, never hang a grant
            String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test"
                    + "?connectTimeout=2&socketTimeout=2&loginTimeout=2";
            TwoProcessReport r = TwoProcessRun.builder().opener(JdbcStoreOpener.class, url, table)
                    .name("orders").step(1000).perThread(perThread)
                    .warmUp(Duration.ofMillis(perThread / 80)).outage(new StoreOutage() {
                        @Override
                        public void stop() {
                            proxy.partition(true);
                        }

                        @Override
                        public void start() {
                            proxy.partition(false);
                        }
                    }, Duration.ofSeconds(3)).directory(Path.of("target")).build().run();
            System.out.println("PostgreSQL (partition 3 s), " + perThread + " a thread: " + r.summary()
                    + "; first errors " + r.firstFailures());
            assertEquals(8L * perThread, r.distinct());
            r.checkErrorsOnlyOnceSpent("'orders'", "table " + table, "step 1000");
            long granted = lastValue(db, table, "orders");
            assertTrue(r.lowest() >= 1 && r.highest() <= granted,
                    "numbers " + r.lowest() + ".." + r.highest() + " outside the granted 1.." + granted);
        } finally {
            db.drop(table);
        }
    }

    static long lastValue(SegmentDatabase db, String table, String name) throws Exception {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT last_value FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row for " + name);
                return rs.getLong(1);
            }
        }
    }
}
