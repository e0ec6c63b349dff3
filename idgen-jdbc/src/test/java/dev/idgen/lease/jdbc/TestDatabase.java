package dev.idgen.lease.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import dev.idgen.testsupport.Missing;
import dev.idgen.testsupport.TestPostgres;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The databases the lease tests run on: H2 in memory, and the real PostgreSQL and MariaDB servers
 * on loopback (other URLs through the system properties {@code idgen.test.postgresql.url} and
 * {@code idgen.test.mariadb.url}). A server that does not answer fails the test under CI
 * ({@code CI=true}) and skips it, with the reason and the command that installs it, elsewhere;
 * PostgreSQL comes from {@link TestPostgres}, which outside CI starts a private server instead.
 */
enum TestDatabase {
    H2("jdbc:h2:mem:idgen_lease_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8)
            + ";DB_CLOSE_DELAY=-1", "", "", "jdbc:h2:tcp://127.0.0.1:1/mem:gone"),
    POSTGRESQL(System.getProperty("idgen.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres", "",
            "jdbc:postgresql://127.0.0.1:1/test?connectTimeout=1"),
    MARIADB(System.getProperty("idgen.test.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test"), "root", "",
            "jdbc:mariadb://127.0.0.1:1/test?connectTimeout=1000");

    private final String configuredUrl;
    final String user;
    final String password;
    /** A closed port: what the holder sees while the server is "stopped". */
    final String deadUrl;

    TestDatabase(String url, String user, String password, String deadUrl) {
        this.configuredUrl = url;
        this.user = user;
        this.password = password;
        this.deadUrl = deadUrl;
    }

    /** {@return the URL the tests connect to; PostgreSQL's is found or started on first use} */
    String url() {
        return this == POSTGRESQL ? TestPostgres.server().url() : configuredUrl;
    }

    /** A data source on this database that the test can cut off and restore. */
    Switchable dataSource() {
        Switchable ds = new Switchable(this);
        try (Connection c = ds.getConnection()) {
            c.isValid(2);
        } catch (SQLException e) {
            throw Missing.server(this == MARIADB ? "MariaDB" : toString(), url() + " does not answer: " + e.getMessage(),
                    Missing.apt(this == MARIADB ? "mariadb-server" : "postgresql"));
        }
        return ds;
    }

    /** A fresh table name, so parallel runs and tests never share rows. */
    static String freshTable() {
        return "idgen_lease_t" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    void drop(String table) {
        try (Connection c = DriverManager.getConnection(url(), user, password); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop " + table, e);
        }
    }

    /** Opens real connections through DriverManager; when down, through a closed port. */
    static final class Switchable extends PlainDataSource {
        final TestDatabase db;
        private volatile boolean down;

        Switchable(TestDatabase db) {
            this.db = db;
        }

        void down() {
            down = true;
        }

        void up() {
            down = false;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(down ? db.deadUrl : db.url(), db.user, db.password);
        }
    }
}
