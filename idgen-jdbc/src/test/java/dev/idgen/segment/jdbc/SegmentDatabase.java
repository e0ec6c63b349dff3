package dev.idgen.segment.jdbc;

import dev.idgen.testsupport.Missing;
import dev.idgen.testsupport.TestPostgres;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The databases the segment tests run on: H2 in memory and the real PostgreSQL and MariaDB on
 * loopback (as the lease tests, same system properties). A server that does not answer fails the
 * test under CI ({@code CI=true}) and skips it elsewhere, naming what to install; PostgreSQL comes
 * from {@link TestPostgres}, which outside CI starts a private server instead.
 */
enum SegmentDatabase {
    H2("jdbc:h2:mem:idgen_segment_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8)
            + ";DB_CLOSE_DELAY=-1", ""),
    POSTGRESQL(System.getProperty("idgen.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres"),
    MARIADB(System.getProperty("idgen.test.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test"), "root");

    private final String configuredUrl;
    final String user;

    SegmentDatabase(String url, String user) {
        this.configuredUrl = url;
        this.user = user;
    }

    /** {@return the URL the tests connect to; PostgreSQL's is found or started on first use} */
    String url() {
        return this == POSTGRESQL ? TestPostgres.server().url() : configuredUrl;
    }

    /** Connections through DriverManager, checked to answer. */
    DataSource dataSource() {
        DataSource ds = new Direct(url(), user);
        try (Connection c = ds.getConnection()) {
            c.isValid(2);
        } catch (SQLException e) {
            throw Missing.server(this == MARIADB ? "MariaDB" : toString(), url() + " does not answer: " + e.getMessage(),
                    Missing.apt(this == MARIADB ? "mariadb-server" : "postgresql"));
        }
        return ds;
    }

    /** A table name no other test class or run uses. */
    static String freshTable() {
        return "idgen_segment_jt" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    void drop(String table) {
        try (Connection c = DriverManager.getConnection(url(), user, ""); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop " + table, e);
        }
    }

    /** A data source that only opens connections. */
    record Direct(String url, String user) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url, user, "");
        }

        @Override
        public Connection getConnection(String u, String p) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
