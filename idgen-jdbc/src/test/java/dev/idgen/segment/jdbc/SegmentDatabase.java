package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * The databases the segment tests run on: H2 in memory and the real PostgreSQL and MariaDB on
 * loopback (as the lease tests, same system properties). A server that does not answer fails the
 * test under CI ({@code CI=true}) and skips it elsewhere.
 */
enum SegmentDatabase {
    H2("jdbc:h2:mem:idgen_segment_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8)
            + ";DB_CLOSE_DELAY=-1", ""),
    POSTGRESQL(System.getProperty("idgen.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test"), "postgres"),
    MARIADB(System.getProperty("idgen.test.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test"), "root");

    final String url;
    final String user;

    SegmentDatabase(String url, String user) {
        this.url = url;
        this.user = user;
    }

    /** Connections through DriverManager, checked to answer. */
    DataSource dataSource() {
        DataSource ds = new Direct(url, user);
        try (Connection c = ds.getConnection()) {
            c.isValid(2);
        } catch (SQLException e) {
            String why = this + " at " + url + " does not answer: " + e.getMessage();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(why + " (CI=true: the segment tests need every database)");
            }
            Assumptions.abort(why + "; skipped outside CI");
        }
        return ds;
    }

    /** A table name no other test class or run uses. */
    static String freshTable() {
        return "idgen_segment_jt" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 4);
    }

    void drop(String table) {
        try (Connection c = DriverManager.getConnection(url, user, ""); Statement st = c.createStatement()) {
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
