package dev.idgen.lease.jdbc;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The shared lease suite on a real database: each scenario gets a table of its own, made by the
 * shipped DDL (so it is new), and each connection is a data source of its own behind its own
 * {@link BlackholeProxy} in front of the server, which a partition silences. The store forgets by
 * {@code DELETE} (one row) and {@code TRUNCATE} (everything, the namespace row included); a
 * database keeps what it acknowledged across a restart, so a restart empty is a {@code TRUNCATE}
 * too.
 */
final class JdbcLeaseBackend implements LeaseBackend {

    private final TestDatabase db;
    private final SqlDialect dialect;
    private final int port;

    /**
     * @param db a database with a network port (PostgreSQL, MariaDB, or H2 behind its TCP server)
     */
    JdbcLeaseBackend(TestDatabase db) {
        this.db = db;
        try (java.sql.Connection c = db.dataSource().getConnection()) { // a missing server skips (CI: fails)
            this.dialect = SqlDialect.of(c.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        this.port = URI.create(db.url().substring("jdbc:".length())).getPort();
    }

    @Override
    public Namespace namespace(String scenario) {
        String table = TestDatabase.freshTable();
        JdbcMachineIdLease.builder(db.dataSource()).table(table).createTableNow();
        List<BlackholeProxy> proxies = new CopyOnWriteArrayList<>();
        return new Namespace() {
            @Override
            public Connection connect(String name) {
                BlackholeProxy proxy;
                try {
                    proxy = new BlackholeProxy(port);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                proxies.add(proxy);
                Via ds = new Via(db, proxy.port());
                return new Connection() {
                    @Override
                    public LeaseBuilder<?, ?> builder() {
                        return JdbcMachineIdLeaseTest.shortTimings(JdbcMachineIdLease.builder(ds)).table(table)
                                .owner(name).background(false);
                    }

                    /** Asks the database nothing: a copy may be made after the cut. */
                    @Override
                    public LeaseStore store() {
                        return new JdbcLeaseStore(ds, new LeaseTable(table, dialect), InstantSource.system(), 1000);
                    }

                    @Override
                    public void cutOff() {
                        proxy.partition(true);
                    }

                    @Override
                    public void close() {
                        closeQuietly(proxy);
                    }
                };
            }

            @Override
            public void forgetRecord(long machineId) {
                sql("DELETE FROM " + table + " WHERE machine_id = " + machineId);
            }

            @Override
            public void forgetAll() {
                sql("TRUNCATE TABLE " + table);
            }

            @Override
            public void close() {
                proxies.forEach(JdbcLeaseBackend::closeQuietly);
                db.drop(table);
            }
        };
    }

    private void sql(String statement) {
        try {
            JdbcLeaseStoreTest.sql(db, statement);
        } catch (SQLException e) {
            throw new IllegalStateException(statement, e);
        }
    }

    private static void closeQuietly(BlackholeProxy proxy) {
        try {
            proxy.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A connection to the database through a proxy port: the server's URL with the port replaced,
     * and a login timeout, so a connection opened across a partition fails instead of hanging.
     */
    private static final class Via extends PlainDataSource {
        private final TestDatabase db;
        private final String url;

        Via(TestDatabase db, int proxyPort) {
            this.db = db;
            String u = db.url().replaceFirst("//([^/:]+):\\d+/", "//127.0.0.1:" + proxyPort + "/");
            String sep = u.contains("?") ? "&" : "?";
            this.url = switch (db) {
                case POSTGRESQL -> u + sep + "loginTimeout=2&connectTimeout=2";
                case MARIADB -> u + sep + "connectTimeout=2000";
                case H2 -> u;
            };
        }

        @Override
        public java.sql.Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url, db.user, db.password);
        }
    }
}
