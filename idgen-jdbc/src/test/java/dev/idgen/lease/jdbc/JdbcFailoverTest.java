package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database fails over to a replica that lacks the holder's last renewal, replayed on a real
 * database: the row is put back as it was after the renewal before (expiry, mark and nonce). Holder
 * A, cut off from the new primary, fences from the older of its last two expiries, so it stops
 * before B can claim the restored row. Timings: ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("slow")
class JdbcFailoverTest {

    private final List<Runnable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
    }

    private JdbcMachineIdLease.Builder builder(TestDatabase.Switchable ds, String table) {
        return JdbcMachineIdLeaseTest.shortTimings(JdbcMachineIdLease.builder(ds)).table(table).createTable(true)
                .maxMachineId(0).background(false);
    }

    private JdbcMachineIdLease track(JdbcMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
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
    }

    /** expires_ms, high_water_mark, nonce of machine id 0. */
    private static long[] row(TestDatabase db, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT expires_ms, high_water_mark, nonce FROM " + table + " WHERE machine_id = 0");
                ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aFailoverThatLosesTheLastRenewalStillFencesBeforeTheNextHolder(TestDatabase db) throws Exception {
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        cleanup.add(() -> db.drop(table));
        JdbcMachineIdLease a = track(builder(ds, table).owner("A").acquire());
        Pump pump = new Pump(SnowflakeGenerator.builder().machineId(a).build());
        Thread t = new Thread(pump, "A-app");
        t.start();
        assertTrue(a.renewNow());
        long[] replica = row(db, table); // what the replica has
        Thread.sleep(1500);
        assertTrue(a.renewNow()); // acknowledged by the primary, never replicated
        long lastExpiry = row(db, table)[0];
        long offset = a.timings().fenceOffsetMillis();
        assertEquals(replica[0] - offset, a.fence().toEpochMilli(), "fence from the second-to-last expiry");
        ds.down(); // the primary is gone; A cannot reach the new one
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                PreparedStatement ps = c.prepareStatement("UPDATE " + table
                        + " SET expires_ms = ?, high_water_mark = ?, nonce = ? WHERE machine_id = 0")) {
            for (int i = 0; i < 3; i++) {
                ps.setLong(i + 1, replica[i]);
            }
            assertEquals(1, ps.executeUpdate());
        }
        // B claims as soon as the database lets it, then makes IDs for 200 ms
        JdbcMachineIdLease.Builder bb = builder(db.dataSource(), table).owner("B");
        JdbcMachineIdLease b = track(JdbcMachineIdLeaseTest.acquireWithin(bb, Duration.ofSeconds(15),
                Duration.ofMillis(10)));
        long bStart = System.currentTimeMillis();
        SnowflakeGenerator gb = SnowflakeGenerator.builder().machineId(b).build();
        Set<Long> bIds = new HashSet<>();
        long bMin = Long.MAX_VALUE;
        long until = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() - until < 0) {
            long id = gb.nextLong();
            bIds.add(id);
            bMin = Math.min(bMin, gb.decode(id).timestamp().toEpochMilli());
        }
        pump.stop = true;
        t.join();
        // B may claim as soon as the database's clock passes the replica's expiry: a fence from the
        // last expiry stands past that instant (by the 1.5 s between the renewals less the offset),
        // whenever B's claim actually ran; a bound in the store's time, not in scheduling luck
        assertTrue(lastExpiry - offset > replica[0], "a fence from the last expiry (" + (lastExpiry - offset)
                + ") would have let A run past the instant B may claim (" + replica[0] + ")");
        assertTrue(bStart >= replica[0] - a.timings().maxClockSkew().toMillis(),
                "B claimed only once the replica's expiry passed (its clock within the skew bound)");
        assertTrue(pump.refusals > 0);
        long aMax = Long.MIN_VALUE;
        for (long id : new ArrayList<>(pump.made)) {
            assertFalse(bIds.contains(id), "both holders made " + SnowflakeLayout.TWITTER.decode(id));
            aMax = Math.max(aMax, SnowflakeLayout.TWITTER.decode(id).timestamp().toEpochMilli());
        }
        assertTrue(aMax < bStart && aMax < bMin, "A made an ID at " + aMax + ", B started at " + bStart
                + ", B's first at " + bMin);
        System.out.printf("%s: failover lost the renewal to %d; A refused from %d, B started %d%n", db, lastExpiry,
                pump.firstRefusalMillis, bStart);
    }
}
