package dev.idgen.segment.jdbc;

import dev.idgen.lease.jdbc.SqlDialect;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Segment ranges from a database table: one row per name holding the last number granted, moved
 * on by {@code step} in one statement or one short transaction, so the database's row lock is the
 * only authority over who gets which range.
 *
 * <pre>{@code
 * JdbcSegmentSource source = JdbcSegmentSource.builder(dataSource).table("idgen_segment").createTable(true).build();
 * SegmentGenerator orders = SegmentGenerator.builder().source(source).name("orders").step(1000).build();
 * }</pre>
 *
 * <p>Per database (detected from the connection, as the lease does, or set with
 * {@link Builder#dialect}):
 * <ul>
 *   <li>PostgreSQL: {@code INSERT ... ON CONFLICT (name) DO UPDATE SET last_value = last_value + step
 *       RETURNING last_value, now} - one statement;</li>
 *   <li>MySQL / MariaDB: {@code INSERT ... ON DUPLICATE KEY UPDATE last_value =
 *       LAST_INSERT_ID(last_value + step)}, then {@code SELECT LAST_INSERT_ID(), now} on the same
 *       connection (the value is the connection's own, whatever others do meanwhile);</li>
 *   <li>H2: {@code UPDATE} (or {@code INSERT} for a new name) and a {@code SELECT} of the row in one
 *       transaction; the row lock taken by the update keeps others out until the commit.</li>
 * </ul>
 * The time returned with each range is the database's clock read in the same statement or
 * transaction, in Unix milliseconds (as the lease reads it).
 *
 * <p>The table: {@code name VARCHAR(128) PRIMARY KEY, last_value BIGINT NOT NULL}. The first grant
 * of a name inserts its row; a row's value only grows. Restoring the table from a backup makes it
 * hand out numbers again: a running generator refuses such ranges, a restarted one cannot know.
 */
public final class JdbcSegmentSource implements SegmentSource {

    private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    private final DataSource dataSource;
    private final String table;
    private final SqlDialect dialect;
    private final int queryTimeoutSeconds;
    private final String grantSql;
    private final String readBackSql;
    private final String insertSql;
    private final String nowSql;

    private JdbcSegmentSource(Builder b, SqlDialect dialect) {
        this.dataSource = b.dataSource;
        this.table = b.table;
        this.dialect = dialect;
        this.queryTimeoutSeconds = (int) Math.max(1, b.queryTimeout.toSeconds());
        String now = dialect.nowMillis();
        this.nowSql = "SELECT " + now;
        switch (dialect) {
            case POSTGRESQL -> {
                this.grantSql = "INSERT INTO " + table + " AS seg (name, last_value) VALUES (?, ?) ON CONFLICT (name)"
                        + " DO UPDATE SET last_value = seg.last_value + EXCLUDED.last_value RETURNING seg.last_value, "
                        + now;
                this.insertSql = null;
                this.readBackSql = null;
            }
            case MYSQL -> {
                // LAST_INSERT_ID(x) stores x for this connection alone: the next SELECT reads our value
                this.grantSql = "INSERT INTO " + table + " (name, last_value) VALUES (?, LAST_INSERT_ID(?))"
                        + " ON DUPLICATE KEY UPDATE last_value = LAST_INSERT_ID(last_value + ?)";
                this.readBackSql = "SELECT LAST_INSERT_ID(), " + now;
                this.insertSql = null;
            }
            default -> {
                this.grantSql = "UPDATE " + table + " SET last_value = last_value + ? WHERE name = ?";
                this.insertSql = "INSERT INTO " + table + " (name, last_value) VALUES (?, ?)";
                this.readBackSql = "SELECT last_value, " + now + " FROM " + table + " WHERE name = ?";
            }
        }
    }

    /**
     * @param dataSource where to connect; a pool is recommended
     * @return a builder, table {@code idgen_segment}
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    @Override
    public SegmentGrant grant(String name, long step) {
        SegmentGenerator.checkName(name);
        SegmentGenerator.checkStep(step);
        try (Connection c = dataSource.getConnection()) {
            long[] lastAndNow = switch (dialect) {
                case POSTGRESQL -> grantPostgres(c, name, step);
                case MYSQL -> grantMysql(c, name, step);
                default -> grantInTransaction(c, name, step);
            };
            long last = lastAndNow[0];
            return new SegmentGrant(last - step + 1, last, Instant.ofEpochMilli(lastAndNow[1]));
        } catch (SQLException e) {
            throw new IllegalStateException("could not grant " + step + " numbers of '" + name + "' from " + describe()
                    + ": " + e.getMessage(), e);
        }
    }

    private long[] grantPostgres(Connection c, String name, long step) throws SQLException {
        c.setAutoCommit(true);
        try (PreparedStatement ps = c.prepareStatement(grantSql)) {
            ps.setQueryTimeout(queryTimeoutSeconds);
            ps.setString(1, name);
            ps.setLong(2, step);
            try (ResultSet rs = ps.executeQuery()) {
                return readRow(rs, name);
            }
        }
    }

    private long[] grantMysql(Connection c, String name, long step) throws SQLException {
        c.setAutoCommit(true);
        try (PreparedStatement ps = c.prepareStatement(grantSql); PreparedStatement read = c.prepareStatement(readBackSql)) {
            ps.setQueryTimeout(queryTimeoutSeconds);
            ps.setString(1, name);
            ps.setLong(2, step);
            ps.setLong(3, step);
            ps.executeUpdate();
            read.setQueryTimeout(queryTimeoutSeconds);
            try (ResultSet rs = read.executeQuery()) {
                return readRow(rs, name);
            }
        }
    }

    private long[] grantInTransaction(Connection c, String name, long step) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            for (int attempt = 0; ; attempt++) {
                int updated;
                try (PreparedStatement up = c.prepareStatement(grantSql)) {
                    up.setQueryTimeout(queryTimeoutSeconds);
                    up.setLong(1, step);
                    up.setString(2, name);
                    updated = up.executeUpdate();
                }
                if (updated == 0) {
                    try (PreparedStatement ins = c.prepareStatement(insertSql)) {
                        ins.setQueryTimeout(queryTimeoutSeconds);
                        ins.setString(1, name);
                        ins.setLong(2, step);
                        ins.executeUpdate();
                    } catch (SQLException e) {
                        // another grant inserted the row first: start over and update it
                        c.rollback();
                        if (attempt >= 2 || !isDuplicate(e)) {
                            throw e;
                        }
                        continue;
                    }
                }
                long[] row;
                try (PreparedStatement read = c.prepareStatement(readBackSql)) {
                    read.setQueryTimeout(queryTimeoutSeconds);
                    read.setString(1, name);
                    try (ResultSet rs = read.executeQuery()) {
                        row = readRow(rs, name);
                    }
                }
                c.commit();
                return row;
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    private static boolean isDuplicate(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("23");
    }

    private static long[] readRow(ResultSet rs, String name) throws SQLException {
        if (!rs.next()) {
            throw new SQLException("no row came back for segment '" + name + "'");
        }
        return new long[] {rs.getLong(1), rs.getLong(2)};
    }

    @Override
    public Instant now() {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.setQueryTimeout(queryTimeoutSeconds);
            try (ResultSet rs = st.executeQuery(nowSql)) {
                rs.next();
                return Instant.ofEpochMilli(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the clock of " + describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "jdbc " + dialect.name().toLowerCase(java.util.Locale.ROOT) + " table " + table;
    }

    /** {@return the {@code CREATE TABLE IF NOT EXISTS} statement for this source's table and database} */
    public String createTableSql() {
        return createTableSql(dialect, table);
    }

    static String createTableSql(SqlDialect dialect, String table) {
        return switch (dialect) {
            // binary collation: names differing in case are different counters
            case MYSQL -> "CREATE TABLE IF NOT EXISTS " + table + " (name VARCHAR(128) CHARACTER SET utf8mb4 COLLATE"
                    + " utf8mb4_bin NOT NULL PRIMARY KEY, last_value BIGINT NOT NULL) ENGINE=InnoDB";
            default -> "CREATE TABLE IF NOT EXISTS " + table
                    + " (name VARCHAR(128) NOT NULL PRIMARY KEY, last_value BIGINT NOT NULL)";
        };
    }

    /** Configures a {@link JdbcSegmentSource}. */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = "idgen_segment";
        private SqlDialect dialect;
        private boolean createTable;
        private Duration queryTimeout = Duration.ofSeconds(5);

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * @param table the table, a plain SQL identifier, optionally {@code schema.table}; default
         *     {@code idgen_segment}
         * @return this
         * @throws IllegalArgumentException for another name
         */
        public Builder table(String table) {
            if (table == null || !TABLE.matcher(table).matches()) {
                throw new IllegalArgumentException("segment table name '" + table
                        + "' is not a plain SQL identifier (letters, digits, _, up to 63; optionally schema.table)");
            }
            this.table = table;
            return this;
        }

        /**
         * @param dialect the database's dialect; default detected from the connection's metadata
         * @return this
         */
        public Builder dialect(SqlDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * @param create run {@code CREATE TABLE IF NOT EXISTS} when building; default false
         * @return this
         */
        public Builder createTable(boolean create) {
            this.createTable = create;
            return this;
        }

        /**
         * @param timeout the longest one statement may run, whole seconds, 1 s to 1 h; default 5 s
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder queryTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.toSeconds() < 1 || timeout.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("queryTimeout " + timeout + " is out of range [PT1S, PT1H]");
            }
            this.queryTimeout = timeout;
            return this;
        }

        /**
         * Connects once to detect the dialect (unless set) and, if asked, to create the table.
         *
         * @return the source
         * @throws IllegalStateException if the database cannot be reached or the table not created
         */
        public JdbcSegmentSource build() {
            try (Connection c = dataSource.getConnection()) {
                SqlDialect d = dialect != null ? dialect : SqlDialect.of(c.getMetaData().getDatabaseProductName());
                if (createTable) {
                    try (Statement st = c.createStatement()) {
                        st.execute(createTableSql(d, table));
                    }
                    if (!c.getAutoCommit()) {
                        c.commit();
                    }
                }
                return new JdbcSegmentSource(this, d);
            } catch (SQLException e) {
                throw new IllegalStateException("could not set up segment table " + table + ": " + e.getMessage(), e);
            }
        }
    }
}
