package dev.idgen.segment.jdbc;

import dev.idgen.lease.jdbc.SqlDialect;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * <p>The table: {@code name VARCHAR(128) PRIMARY KEY, last_value BIGINT NOT NULL, pattern
 * VARCHAR(100)}. The first grant of a name inserts its row; a row's value only grows. The pattern
 * column holds the pattern of business numbers recorded under a base name
 * ({@link #recordPattern}), set once.
 *
 * <p><b>What a grant survives.</b> A grant is used only once its commit is known:
 * <ul>
 *   <li>A crash of the server or its machine right after the commit: the source checks, when built,
 *       that the database keeps commits ({@code fsync}, {@code synchronous_commit},
 *       {@code innodb_flush_log_at_trx_commit}, the table's kind: see {@link #checkStore()}) and
 *       refuses it otherwise with a {@link SegmentStoreRefusedException}, unless
 *       {@link Builder#allowLossyStore(boolean)} accepts it.</li>
 *   <li>A commit lost on the wire: the grant is not idempotent (asked again, it grants another
 *       range), so it is never retried blindly, and its range is used only once the whole answer has
 *       arrived. On PostgreSQL the statement runs in autocommit and the driver returns its row only
 *       after the server's ready-for-query message, which follows the commit; on MariaDB the
 *       {@code INSERT} commits on its own and its range is read by a second statement on the same
 *       connection ({@code LAST_INSERT_ID()} belongs to that connection), so a connection lost
 *       after the commit loses the range too. Either way an answer cut off ends in an exception: the
 *       range is a gap, never handed out, and the next grant (on any connection) lies above it.</li>
 *   <li>A restart: the rows are the table's, kept like any other.</li>
 *   <li>A restored backup or a failover to a replica that lacked the last commits: the counters go
 *       back, and nothing in the database tells. A running generator refuses a range below the
 *       last one it held; a process started afterwards cannot know. Raise each counter to at least
 *       the highest number in use before starting again.</li>
 *   <li>A row deleted, or the table emptied by hand: not told apart from a name never used.</li>
 * </ul>
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
    private final String patternSql;
    private final String patternReadSql;
    private final boolean allowLossyStore;

    private JdbcSegmentSource(Builder b, SqlDialect dialect) {
        this.dataSource = b.dataSource;
        this.table = b.table;
        this.dialect = dialect;
        this.allowLossyStore = b.allowLossyStore;
        this.patternReadSql = "SELECT pattern FROM " + table + " WHERE name = ?";
        this.patternSql = switch (dialect) {
            case POSTGRESQL -> "INSERT INTO " + table + " AS seg (name, last_value, pattern) VALUES (?, 0, ?)"
                    + " ON CONFLICT (name) DO UPDATE SET pattern = COALESCE(seg.pattern, EXCLUDED.pattern)"
                    + " RETURNING seg.pattern";
            case MYSQL -> "INSERT INTO " + table + " (name, last_value, pattern) VALUES (?, 0, ?)"
                    + " ON DUPLICATE KEY UPDATE pattern = COALESCE(pattern, VALUES(pattern))";
            default -> "MERGE INTO " + table + " t USING (VALUES (CAST(? AS VARCHAR(128)), CAST(? AS VARCHAR(100))))"
                    + " AS v(name, pattern) ON t.name = v.name WHEN MATCHED AND t.pattern IS NULL THEN UPDATE SET"
                    + " pattern = v.pattern WHEN NOT MATCHED THEN INSERT (name, last_value, pattern) VALUES (v.name,"
                    + " 0, v.pattern)";
        };
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

    /**
     * Records the pattern in the {@code pattern} column of the base name's row (inserting the row at
     * 0 if the name has none), unless one is there, and reads the one there back.
     */
    @Override
    public String recordPattern(String name, String pattern) {
        SegmentGenerator.checkName(name);
        Objects.requireNonNull(pattern, "pattern");
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            if (dialect == SqlDialect.POSTGRESQL) {
                try (PreparedStatement ps = c.prepareStatement(patternSql)) {
                    ps.setQueryTimeout(queryTimeoutSeconds);
                    ps.setString(1, name);
                    ps.setString(2, pattern);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getString(1);
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement(patternSql)) {
                ps.setQueryTimeout(queryTimeoutSeconds);
                ps.setString(1, name);
                ps.setString(2, pattern);
                ps.executeUpdate();
            }
            // set once and never changed: a read after the write sees the pattern that won
            try (PreparedStatement read = c.prepareStatement(patternReadSql)) {
                read.setQueryTimeout(queryTimeoutSeconds);
                read.setString(1, name);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not record pattern " + pattern + " of '" + name + "' in " + describe()
                    + ": " + e.getMessage() + (e.getMessage() != null && e.getMessage().toLowerCase(java.util.Locale.ROOT)
                            .contains("pattern") ? " (a table made by an earlier idgen lacks the column: ALTER TABLE "
                                    + table + " ADD COLUMN pattern VARCHAR(100), or build with createTable(true))" : ""),
                    e);
        }
    }

    /**
     * Checks that the database keeps a committed grant through a crash of the server or of its
     * machine: on PostgreSQL {@code fsync} and {@code full_page_writes} on, {@code synchronous_commit}
     * not off, the table neither unlogged nor temporary; on MariaDB / MySQL
     * {@code innodb_flush_log_at_trx_commit} 1 (or 3), {@code sync_binlog} 1 when the binary log is
     * on, the table InnoDB. H2 is not checked. {@link Builder#build()} runs it.
     *
     * @throws SegmentStoreRefusedException naming every setting found, unless the builder allowed a
     *     lossy store
     */
    @Override
    public void checkStore() {
        try (Connection c = dataSource.getConnection()) {
            refuseLossy(c, dialect, table, allowLossyStore);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the durability settings of " + describe() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void refuseLossy(Connection c, SqlDialect dialect, String table, boolean allowed)
            throws SQLException {
        if (allowed) {
            return;
        }
        List<String> found = JdbcDurability.findings(c, dialect, table);
        if (!found.isEmpty()) {
            throw new SegmentStoreRefusedException("segment table " + table + " on " + dialect.name().toLowerCase(
                    java.util.Locale.ROOT) + " is refused: it may lose a grant after it was committed, and numbers"
                    + " would then repeat: " + String.join("; ", found) + ". Change the setting, or accept such a store"
                    + " with allowLossyStore(true)");
        }
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
                    + " utf8mb4_bin NOT NULL PRIMARY KEY, last_value BIGINT NOT NULL, pattern VARCHAR(100) CHARACTER"
                    + " SET ascii COLLATE ascii_bin) ENGINE=InnoDB";
            default -> "CREATE TABLE IF NOT EXISTS " + table
                    + " (name VARCHAR(128) NOT NULL PRIMARY KEY, last_value BIGINT NOT NULL, pattern VARCHAR(100))";
        };
    }

    /** The column a table made before patterns were recorded lacks; fails harmlessly when it is there. */
    static String addPatternColumnSql(String table) {
        return "ALTER TABLE " + table + " ADD COLUMN pattern VARCHAR(100)";
    }

    /** Configures a {@link JdbcSegmentSource}. */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = "idgen_segment";
        private SqlDialect dialect;
        private boolean createTable;
        private boolean allowLossyStore;
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
         * @param create run {@code CREATE TABLE IF NOT EXISTS} when building (and add the
         *     {@code pattern} column to a table made by an earlier version); default false
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
         * Accepts a database that may lose a committed grant (see {@link JdbcSegmentSource#checkStore()}):
         * after a crash its counters can go back, and processes started then repeat numbers. For
         * tests and throw-away data only.
         *
         * @param allow true to skip the check; default false
         * @return this
         */
        public Builder allowLossyStore(boolean allow) {
            this.allowLossyStore = allow;
            return this;
        }

        /**
         * Connects once to detect the dialect (unless set), if asked to create the table, and to
         * check that the database keeps what it commits ({@link JdbcSegmentSource#checkStore()}).
         *
         * @return the source
         * @throws SegmentStoreRefusedException if the database may lose a committed grant, naming the
         *     settings (unless {@link #allowLossyStore(boolean)})
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
                    addPatternColumn(c, table);
                }
                refuseLossy(c, d, table, allowLossyStore);
                return new JdbcSegmentSource(this, d);
            } catch (SQLException e) {
                throw new IllegalStateException("could not set up segment table " + table + ": " + e.getMessage(), e);
            }
        }

        /** Adds the pattern column to a table made before patterns were recorded. */
        private static void addPatternColumn(Connection c, String table) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.executeQuery("SELECT pattern FROM " + table + " WHERE 1 = 0").close();
                return;
            } catch (SQLException missing) {
                if (!c.getAutoCommit()) {
                    c.rollback(); // PostgreSQL refuses every statement of a transaction after a failed one
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute(addPatternColumnSql(table));
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }
}
