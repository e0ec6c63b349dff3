package dev.idgen.lease.jdbc;

import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseFleet;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's {@link LeaseFleet} on the real PostgreSQL and MariaDB servers, in a database of its
 * own ({@code idgen_fleet_db}) and a fresh table. Each member is a process of its own to the lease:
 * its own data source, owner and renewal thread. The data sources borrow from one pool of
 * {@value #POOL} physical connections, as a fleet of that size would through PgBouncer or ProxySQL:
 * 1,000 processes with a connection each would pass the servers' {@code max_connections} (100 on
 * PostgreSQL, 151 on MariaDB by default), and the servers are shared. A death makes the member's data
 * source refuse every connection from then on. The renewal load is the server's count:
 * PostgreSQL's {@code xact_commit} of the fleet's database ({@code pg_stat_database}), MariaDB's
 * {@code Com_update + Com_select} ({@code SHOW GLOBAL STATUS}: the whole server's, so other clients
 * add to it); the statements the pool saw are printed beside it. The server's expiry of a dead
 * holder is its row's {@code expires_ms} (the database's clock, on this host). 200 claimers by
 * default; {@code -Didgen.test.fleet.claimers=1000} for the large setting.
 */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class JdbcFleetTest {

    private static final int POOL = 16;
    private static final String DB = "idgen_fleet_db";

    /** ttl 10 s, renew 2 s, margin 1 s, skew 1 s: headroom 3 s, as the Redis fleet (see RedisFleetTest). */
    private static JdbcMachineIdLease.Builder timings(JdbcMachineIdLease.Builder b) {
        return b.ttl(Duration.ofSeconds(10)).renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .maxClockSkew(Duration.ofSeconds(1));
    }

    @Test
    void aFleetOnPostgreSql() throws Exception {
        fleet(TestDatabase.POSTGRESQL);
    }

    @Test
    void aFleetOnMariaDb() throws Exception {
        fleet(TestDatabase.MARIADB);
    }

    private void fleet(TestDatabase db) throws Exception {
        db.dataSource().getConnection().close(); // the server answers, or the test fails (CI) or skips
        String url = createDatabase(db);
        String table = TestDatabase.freshTable();
        try (Pool pool = new Pool(url, db.user, db.password, POOL)) {
            timings(JdbcMachineIdLease.builder(pool.member())).table(table).createTableNow();
            long[] window = new long[4]; // the pool's statements and the time at the window's start and end
            int[] calls = new int[1];
            LeaseFleet.Result r = LeaseFleet.run(db.toString(), new LeaseFleet.Backend() {
                @Override
                public LeaseFleet.Member member(int index, long maxMachineId) {
                    Pool.Member ds = pool.member();
                    JdbcMachineIdLease.Builder b = timings(JdbcMachineIdLease.builder(ds)).table(table)
                            .maxMachineId(maxMachineId).owner("fleet-" + index);
                    // a death: no statement reaches the server from then on; nothing is released
                    return LeaseFleet.member(b::acquire, () -> ds.dead = true, () -> true);
                }

                @Override
                public long serverOps() {
                    if (calls[0] < 2) {
                        window[2 * calls[0]] = pool.statements.get();
                        window[2 * calls[0] + 1] = System.nanoTime();
                        calls[0]++;
                    }
                    try (Connection c = DriverManager.getConnection(url, db.user, db.password);
                            Statement st = c.createStatement()) {
                        if (db == TestDatabase.POSTGRESQL) {
                            st.execute("SELECT pg_stat_clear_snapshot()");
                            try (ResultSet rs = st.executeQuery(
                                    "SELECT xact_commit FROM pg_stat_database WHERE datname = '" + DB + "'")) {
                                rs.next();
                                return rs.getLong(1);
                            }
                        }
                        long n = 0;
                        try (ResultSet rs = st.executeQuery(
                                "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_update', 'Com_select')")) {
                            while (rs.next()) {
                                n += rs.getLong(2);
                            }
                        }
                        return n;
                    } catch (SQLException e) {
                        throw new IllegalStateException("reading the server's counters", e);
                    }
                }

                @Override
                public String opsName() {
                    return db == TestDatabase.POSTGRESQL ? "xact_commit" : "Com_update+Com_select";
                }

                @Override
                public long serverExpiryMillis(FencingLease dead) {
                    try (Connection c = DriverManager.getConnection(url, db.user, db.password);
                            PreparedStatement ps = c.prepareStatement(
                                    "SELECT expires_ms FROM " + table + " WHERE machine_id = ?")) {
                        ps.setLong(1, dead.machineId());
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getLong(1);
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException("reading the row of machine id " + dead.machineId(), e);
                    }
                }
            }, LeaseFleet.Settings.forTtl(Duration.ofSeconds(10)));
            System.out.println(r + String.format("; the pool sent %.0f statements/s in the window",
                    (window[2] - window[0]) * 1e9 / (window[3] - window[1])));
        } finally {
            try (Connection c = DriverManager.getConnection(url, db.user, db.password);
                    Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table); // the fleet's own, in the fleet's own database
            }
        }
    }

    /** Creates the fleet's own database once; returns its URL. */
    private static String createDatabase(TestDatabase db) throws SQLException {
        String url = db.url().substring(0, db.url().lastIndexOf('/') + 1) + DB;
        try (Connection c = DriverManager.getConnection(db.url(), db.user, db.password);
                Statement st = c.createStatement()) {
            if (db == TestDatabase.POSTGRESQL) {
                try (ResultSet rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DB + "'")) {
                    if (!rs.next()) {
                        st.execute("CREATE DATABASE " + DB);
                    }
                }
            } else {
                st.execute("CREATE DATABASE IF NOT EXISTS " + DB);
            }
        }
        return url;
    }

    /** A fixed set of physical connections lent out one statement group at a time. */
    private static final class Pool implements AutoCloseable {
        final AtomicLong statements = new AtomicLong();
        private final BlockingQueue<Connection> idle;
        private final String url;
        private final String user;
        private final String password;

        Pool(String url, String user, String password, int size) throws SQLException {
            this.url = url;
            this.user = user;
            this.password = password;
            this.idle = new ArrayBlockingQueue<>(size);
            for (int i = 0; i < size; i++) {
                idle.add(DriverManager.getConnection(url, user, password));
            }
        }

        Member member() {
            return new Member();
        }

        private Connection borrow() throws SQLException {
            Connection c;
            try {
                c = idle.poll(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted waiting for a pooled connection", e);
            }
            if (c == null) {
                throw new SQLException("no pooled connection free for 10 s");
            }
            Connection physical = c;
            boolean[] returned = new boolean[1];
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "close":
                                if (!returned[0]) {
                                    returned[0] = true;
                                    giveBack(physical);
                                }
                                return null;
                            case "isClosed":
                                return returned[0];
                            case "prepareStatement":
                            case "createStatement":
                                statements.incrementAndGet();
                                break;
                            default:
                                break;
                        }
                        try {
                            return method.invoke(physical, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        private void giveBack(Connection physical) throws SQLException {
            Connection c = physical;
            if (c.isClosed()) { // no isValid(): on PostgreSQL it is a transaction of its own, counted in the load
                c.close();
                c = DriverManager.getConnection(url, user, password);
            }
            idle.add(c);
        }

        @Override
        public void close() {
            Connection c;
            while ((c = idle.poll()) != null) {
                try {
                    c.close();
                } catch (SQLException e) {
                    // closing anyway
                }
            }
        }

        /** One process's data source: its connections come from the pool until it dies. */
        final class Member extends PlainDataSource {
            volatile boolean dead;

            @Override
            public Connection getConnection() throws SQLException {
                if (dead) {
                    throw new SQLException("this member's process is dead");
                }
                return borrow();
            }
        }
    }
}
