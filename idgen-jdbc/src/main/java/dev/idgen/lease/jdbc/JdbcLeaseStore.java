package dev.idgen.lease.jdbc;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * Lease records in a database table ({@link LeaseTable}): each method one statement in auto-commit
 * mode, except {@link #extend}, one transaction. A write is a compare-and-set on the row's nonce,
 * which the database's row lock orders. Each method takes a connection from the data source and
 * closes it; while it has it, the connection's network timeout is {@code callMillis}, so a database
 * that stops answering (a partition, no reset) fails the call instead of hanging it. Thread-safe.
 */
final class JdbcLeaseStore implements LeaseStore {

    private static final Executor DIRECT = Runnable::run;

    private final DataSource dataSource;
    private final LeaseTable table;
    private final InstantSource clock;
    private final int callMillis;
    private final int callSeconds;

    /**
     * @param callMillis how long one statement may take (the network timeout; the query timeout in
     *     whole seconds, at least 1)
     */
    JdbcLeaseStore(DataSource dataSource, LeaseTable table, InstantSource clock, int callMillis) {
        this.dataSource = dataSource;
        this.table = table;
        this.clock = clock;
        this.callMillis = callMillis;
        this.callSeconds = Math.max(1, (callMillis + 999) / 1000);
    }

    @Override
    public String describe() {
        return "in table " + table.name;
    }

    @Override
    public StoreTime time() throws SQLException {
        try (Session s = open(); PreparedStatement ps = s.prepare(table.now)) {
            long before = clock.millis();
            try (ResultSet rs = ps.executeQuery()) {
                long after = clock.millis();
                rs.next();
                return StoreTime.of(rs.getLong(1), before, after);
            }
        }
    }

    @Override
    public NamespaceRecord readNamespace() throws SQLException {
        try (Session s = open(); PreparedStatement ps = s.prepare(table.readNamespace);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? new NamespaceRecord(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)) : null;
        }
    }

    @Override
    public boolean createNamespace(NamespaceRecord ns) throws SQLException {
        try (Session s = open(); PreparedStatement ps = s.prepare(table.insertNamespace)) {
            set(ps, ns.layout(), ns.highestId(), ns.nonce(), ns.trustedFromMillis());
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            if (isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The namespace row is updated first: its row lock then orders concurrent extensions, and the
     * second one's compare finds the nonce changed. A row that appears meanwhile in the range makes
     * the insert fail on the primary key; the whole transaction is then rolled back.
     */
    @Override
    public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws SQLException {
        try (Session s = open()) {
            Connection c = s.connection;
            c.setAutoCommit(false);
            try {
                boolean done = extendIn(s, expectedNonce, next, fromId, toId, initial);
                if (done) {
                    c.commit();
                } else {
                    c.rollback();
                }
                return done;
            } catch (SQLException e) {
                try {
                    c.rollback();
                } catch (SQLException r) {
                    e.addSuppressed(r);
                    throw e; // rolled back or not: unknown
                }
                if (isDuplicateKey(e)) {
                    return false;
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private boolean extendIn(Session s, long expectedNonce, NamespaceRecord next, long fromId, long toId,
            LeaseRecord initial) throws SQLException {
        try (PreparedStatement ps = s.prepare(table.updateNamespace)) {
            set(ps, next.layout(), next.highestId(), next.nonce(), next.trustedFromMillis(), expectedNonce);
            if (ps.executeUpdate() != 1) {
                return false;
            }
        }
        if (fromId > toId) {
            return true;
        }
        Set<Long> present = new HashSet<>();
        try (PreparedStatement ps = s.prepare(table.presentIds)) {
            set(ps, fromId, toId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    present.add(rs.getLong(1));
                }
            }
        }
        try (PreparedStatement ps = s.prepare(table.insertRecord)) {
            for (long id = fromId; id <= toId; id++) {
                if (!present.contains(id)) {
                    set(ps, id, initial.owner(), initial.token(), initial.nonce(), initial.expiresMillis(),
                            initial.markMillis(), initial.fenceOffsetMillis());
                    ps.addBatch();
                }
            }
            ps.executeBatch();
        }
        return true;
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws SQLException {
        SortedMap<Long, LeaseRecord> records = new TreeMap<>();
        try (Session s = open(); PreparedStatement ps = s.prepare(table.read)) {
            set(ps, fromId, toId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    records.put(rs.getLong(1), new LeaseRecord(rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getLong(6), rs.getLong(7)));
                }
            }
        }
        return records;
    }

    @Override
    public boolean replace(long id, long expectedNonce, LeaseRecord next) throws SQLException {
        try (Session s = open(); PreparedStatement ps = s.prepare(table.replace)) {
            set(ps, next.token(), next.owner(), next.token(), next.nonce(), next.expiresMillis(), next.markMillis(),
                    next.fenceOffsetMillis(), id, expectedNonce);
            return ps.executeUpdate() == 1;
        }
    }

    private static void set(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
    }

    private Session open() throws SQLException {
        Connection c = dataSource.getConnection();
        int previous;
        try {
            c.setAutoCommit(true);
            previous = c.getNetworkTimeout();
            c.setNetworkTimeout(DIRECT, callMillis);
        } catch (SQLFeatureNotSupportedException e) {
            previous = -1; // a driver without one: the query timeout stands alone
        } catch (SQLException e) {
            try {
                c.close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new Session(c, previous);
    }

    /** A connection borrowed for one call, its network timeout given back when it is closed. */
    private final class Session implements AutoCloseable {
        final Connection connection;
        private final int previousTimeout;

        Session(Connection connection, int previousTimeout) {
            this.connection = connection;
            this.previousTimeout = previousTimeout;
        }

        PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement ps = connection.prepareStatement(sql);
            ps.setQueryTimeout(callSeconds);
            return ps;
        }

        @Override
        public void close() throws SQLException {
            try {
                if (previousTimeout >= 0 && !connection.isClosed()) {
                    connection.setNetworkTimeout(DIRECT, previousTimeout);
                }
            } finally {
                connection.close();
            }
        }
    }

    /** A primary-key violation: PostgreSQL's and H2's SQLSTATE 23505, MySQL's and MariaDB's error 1062. */
    static boolean isDuplicateKey(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if ("23505".equals(x.getSQLState()) || x.getErrorCode() == 1062
                    || x.getCause() instanceof SQLException cause && cause != x && isDuplicateKey(cause)) {
                return true;
            }
        }
        return false;
    }
}
