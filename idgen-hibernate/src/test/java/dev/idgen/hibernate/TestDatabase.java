package dev.idgen.hibernate;

import dev.idgen.testsupport.Missing;
import dev.idgen.testsupport.TestPostgres;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The engines the entity tests run on: H2 in memory and the real PostgreSQL and MariaDB on loopback
 * (other URLs through {@code idgen.test.postgresql.url} / {@code idgen.test.mariadb.url}). A server
 * that does not answer fails the test under {@code CI=true} and skips it elsewhere, naming what to
 * install; PostgreSQL comes from {@link TestPostgres}, which outside CI starts a private server.
 */
enum TestDatabase {
    H2("jdbc:h2:mem:idgen_hib_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8) + ";DB_CLOSE_DELAY=-1",
            "sa", ""),
    POSTGRESQL(null, "postgres", ""),
    MARIADB(System.getProperty("idgen.test.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/test"), "root", "");

    private final String configuredUrl;
    final String user;
    final String password;

    TestDatabase(String url, String user, String password) {
        this.configuredUrl = url;
        this.user = user;
        this.password = password;
    }

    /** {@return the URL the tests connect to; PostgreSQL's is found or started on first use} */
    String url() {
        return this == POSTGRESQL ? TestPostgres.server().url() + "?reWriteBatchedInserts=true" : configuredUrl;
    }

    /** Fails (CI) or skips (elsewhere, naming what to install) unless the server answers. */
    void requireUp() {
        try (Connection c = DriverManager.getConnection(url(), user, password)) {
            c.isValid(2);
        } catch (SQLException e) {
            throw Missing.server(this == MARIADB ? "MariaDB" : toString(), url() + " does not answer: " + e.getMessage(),
                    Missing.apt(this == MARIADB ? "mariadb-server" : "postgresql"));
        }
    }

    /**
     * Hibernate settings for this engine. On MariaDB, UUIDs go to {@code BINARY(16)}: the server's
     * own {@code UUID} type reorders RFC-variant UUIDs of versions below 6, and did so for version 7
     * too before 10.10.6 / 10.11.5.
     */
    Map<String, Object> hibernateSettings() {
        Map<String, Object> s = new HashMap<>();
        s.put("hibernate.connection.url", url());
        s.put("hibernate.connection.username", user);
        s.put("hibernate.connection.password", password);
        s.put("hibernate.connection.pool_size", "8");
        s.put("hibernate.hbm2ddl.auto", "create-drop");
        s.put("hibernate.jdbc.batch_size", "500");
        if (this == MARIADB) {
            s.put("hibernate.type.preferred_uuid_jdbc_type", "BINARY");
        }
        return s;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user, password);
    }

    /** A plain DataSource (a new connection per call) for the JDBC lease. */
    DataSource dataSource() {
        TestDatabase db = this;
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                return db.connect();
            }

            @Override
            public Connection getConnection(String username, String password) throws SQLException {
                return db.connect();
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
        };
    }
}
