package dev.idgen.index.engine;

import dev.idgen.index.model.IndexEngine;
import dev.idgen.index.model.KeyType;
import dev.idgen.uuid.Uuids;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The engines a real run speaks to, each with its column types, its transactions and its own
 * instruments. Leaf fill is each engine's own measure:
 * <ul>
 *   <li>SQLite: {@code dbstat} leaf pages, bytes used (page size less {@code unused}) over page
 *       bytes;</li>
 *   <li>PostgreSQL: {@code pgstatindex} {@code avg_leaf_density} (used bytes, line pointers and
 *       high keys included, over the 8,152 bytes a page has for them);</li>
 *   <li>InnoDB: record bytes (rows times the record size of the fixed-width row, header and the
 *       hidden transaction id and roll pointer included) over leaf pages times the page size, leaf
 *       pages from the persistent statistics after {@code ANALYZE TABLE}.</li>
 * </ul>
 * Global counters (WAL, redo, page splits of all of InnoDB) are differences over the run and
 * include whatever else the server did meanwhile.
 */
public enum Database {
    /** SQLite, embedded (xerial sqlite-jdbc): a clustered {@code WITHOUT ROWID} table. */
    SQLITE("SQLite", IndexEngine.SQLITE),
    /** PostgreSQL: a heap table and its primary-key B-tree. */
    POSTGRESQL("PostgreSQL", IndexEngine.POSTGRESQL),
    /** MariaDB or MySQL, InnoDB: the clustered primary key. */
    MARIADB("InnoDB", IndexEngine.INNODB);

    private final String label;
    private final IndexEngine model;

    Database(String label, IndexEngine model) {
        this.label = label;
        this.model = model;
    }

    /** @return the engine's name for reports */
    public String label() {
        return label;
    }

    /** @return the model's rules for this engine */
    public IndexEngine model() {
        return model;
    }

    /**
     * @param url a JDBC URL
     * @return the engine it names
     * @throws IllegalArgumentException for another kind of URL
     */
    public static Database of(String url) {
        String u = url.strip().toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (u.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
            return MARIADB;
        }
        throw new IllegalArgumentException("--url '" + url + "' is not a URL this tool speaks; expected jdbc:sqlite:FILE,"
                + " jdbc:postgresql://HOST/DB or jdbc:mariadb://HOST/DB (jdbc:mysql: too)");
    }

    /**
     * Opens a connection set up for the run (SQLite: WAL journal, synchronous NORMAL, a long busy
     * timeout; the others as the server is set).
     *
     * @param url the JDBC URL
     * @return the connection, in auto-commit mode
     * @throws SQLException if it cannot connect
     */
    public Connection connect(String url) throws SQLException {
        String u = this == MARIADB && url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")
                ? "jdbc:mariadb:" + url.substring("jdbc:mysql:".length()) : url;
        Connection c = DriverManager.getConnection(u);
        if (this == SQLITE) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 600000");
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA synchronous = NORMAL");
            }
        }
        return c;
    }

    /**
     * Starts a transaction. SQLite takes its write lock at once ({@code BEGIN IMMEDIATE}), so keys a
     * writer takes inside the transaction are taken in commit order.
     */
    void begin(Connection c) throws SQLException {
        if (this == SQLITE) {
            try (Statement s = c.createStatement()) {
                s.execute("BEGIN IMMEDIATE");
            }
        } else {
            c.setAutoCommit(false);
        }
    }

    void commit(Connection c) throws SQLException {
        if (this == SQLITE) {
            try (Statement s = c.createStatement()) {
                s.execute("COMMIT");
            }
        } else {
            c.commit();
        }
    }

    /** @return whether the engine makes auto-increment keys itself (SQLite's clustered table cannot) */
    boolean ownCounter() {
        return this != SQLITE;
    }

    /**
     * The key column's type as this engine declares it: what reports call the key column, so a
     * 16-byte key reads {@code uuid} on PostgreSQL, {@code BINARY(16)} on InnoDB, {@code BLOB} on
     * SQLite.
     *
     * @param t the model's key type
     * @return the SQL type of the key column
     */
    public String columnType(KeyType t) {
        return switch (this) {
            case SQLITE -> t == KeyType.BIGINT ? "INTEGER" : t == KeyType.BINARY16 ? "BLOB" : "TEXT";
            case POSTGRESQL -> t == KeyType.BIGINT ? "bigint" : t == KeyType.BINARY16 ? "uuid" : "char(36) COLLATE \"C\"";
            case MARIADB -> t == KeyType.BIGINT ? "BIGINT" : t == KeyType.BINARY16 ? "BINARY(16)"
                    : "CHAR(36) CHARACTER SET ascii COLLATE ascii_bin";
        };
    }

    String createTable(String table, RealKey key, Workload w) {
        StringBuilder b = new StringBuilder("CREATE TABLE ").append(table).append(" (k ").append(columnType(key.keyType()));
        switch (this) {
            case SQLITE -> b.append(" NOT NULL PRIMARY KEY");
            case POSTGRESQL -> b.append(key == RealKey.AUTO_INCREMENT ? " GENERATED ALWAYS AS IDENTITY" : "").append(" PRIMARY KEY");
            case MARIADB -> b.append(" NOT NULL").append(key == RealKey.AUTO_INCREMENT ? " AUTO_INCREMENT" : "").append(" PRIMARY KEY");
        }
        if (w.payloadBytes() > 0) {
            b.append(", p ").append(switch (this) {
                case SQLITE -> "BLOB NOT NULL";
                case POSTGRESQL -> "bytea NOT NULL";
                case MARIADB -> (w.payloadBytes() <= 255 ? "BINARY(" : "VARBINARY(") + w.payloadBytes() + ") NOT NULL";
            });
        }
        for (int i = 1; i <= w.secondaryIndexes(); i++) {
            b.append(", s").append(i).append(this == SQLITE ? " INTEGER NOT NULL" : " BIGINT NOT NULL");
        }
        if (orderColumn(key, w)) {
            b.append(", o BIGINT NOT NULL AUTO_INCREMENT, KEY (o)");
        }
        if (timeColumn(w)) {
            b.append(", t DATETIME(6) NOT NULL");
        }
        b.append(')');
        b.append(switch (this) {
            case SQLITE -> " WITHOUT ROWID";
            case POSTGRESQL -> "";
            case MARIADB -> " ENGINE=InnoDB";
        });
        return b.toString();
    }

    /** @return the INSERT of {@code rows} rows at once */
    String insert(String table, RealKey key, Workload w, int rows) {
        boolean withKey = !(key == RealKey.AUTO_INCREMENT && ownCounter());
        StringBuilder cols = new StringBuilder();
        int n = 0;
        if (withKey) {
            cols.append("k");
            n++;
        }
        if (w.payloadBytes() > 0) {
            cols.append(n > 0 ? ", " : "").append("p");
            n++;
        }
        for (int i = 1; i <= w.secondaryIndexes(); i++) {
            cols.append(n > 0 ? ", " : "").append("s").append(i);
            n++;
        }
        String values = n == 0 ? "" : "?, ".repeat(n - 1) + "?";
        if (timeColumn(w)) {
            cols.append(n > 0 ? ", " : "").append("t");
            values += (n > 0 ? ", " : "") + "SYSDATE(6)"; // the server's clock as it builds the row
            n++;
        }
        String tuple = n == 0 ? "(DEFAULT)" : "(" + values + ")";
        StringBuilder b = new StringBuilder("INSERT INTO ").append(table);
        if (n == 0 && this == POSTGRESQL) {
            return b.append(" DEFAULT VALUES").toString(); // one row; multi-row is refused for this case
        }
        b.append(n == 0 ? " () VALUES " : " (" + cols + ") VALUES ");
        for (int r = 0; r < rows; r++) {
            b.append(r == 0 ? "" : ", ").append(n == 0 ? "()" : tuple);
        }
        return b.toString();
    }

    /** Binds one key at parameter {@code index}; returns the next index. */
    int bindKey(PreparedStatement ps, int index, RealKey key, long[] k) throws SQLException {
        KeyType t = key.keyType();
        if (t == KeyType.BIGINT) {
            ps.setLong(index, k[0]);
        } else if (t == KeyType.BINARY16) {
            UUID u = new UUID(k[0], k[1]);
            if (this == POSTGRESQL) {
                ps.setObject(index, u);
            } else {
                ps.setBytes(index, Uuids.toBytes(u));
            }
        } else {
            ps.setString(index, Uuids.toString(new UUID(k[0], k[1])));
        }
        return index + 1;
    }

    /** @return the engine and its version, as the server says */
    String version(Connection c) throws SQLException {
        return switch (this) {
            case SQLITE -> "SQLite " + single(c, "SELECT sqlite_version()");
            case POSTGRESQL -> "PostgreSQL " + single(c, "SHOW server_version");
            case MARIADB -> (single(c, "SELECT version()").toLowerCase(Locale.ROOT).contains("mariadb") ? "MariaDB " : "MySQL ")
                    + single(c, "SELECT version()");
        };
    }

    /** @return the settings that shape the figures */
    Map<String, Object> settings(Connection c) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        switch (this) {
            case SQLITE -> {
                m.put("page_size", single(c, "PRAGMA page_size"));
                m.put("journal_mode", single(c, "PRAGMA journal_mode"));
                m.put("synchronous", "NORMAL");
            }
            case POSTGRESQL -> {
                for (String s : new String[] {"block_size", "shared_buffers", "full_page_writes", "wal_level",
                        "synchronous_commit"}) {
                    m.put(s, single(c, "SHOW " + s));
                }
                m.put("pk_fillfactor", "90 (default)");
            }
            case MARIADB -> {
                for (String s : new String[] {"innodb_page_size", "innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit",
                        "innodb_autoinc_lock_mode", "innodb_default_row_format", "innodb_fill_factor"}) {
                    m.put(s, single(c, "SELECT @@" + s));
                }
            }
        }
        return m;
    }

    /** Reads the global counters the run is measured by ({@link #prepare} turned them on). */
    Map<String, Long> counters(Connection c, Map<String, Object> notes) throws SQLException {
        Map<String, Long> m = new LinkedHashMap<>();
        switch (this) {
            case SQLITE -> {
                long w = ProcIo.writtenBytes();
                if (w >= 0) {
                    m.put("bytes written (write calls of this process)", w);
                }
            }
            case POSTGRESQL -> {
                m.put("WAL bytes", Long.parseLong(single(c, "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")));
                try (Statement s = c.createStatement();
                        ResultSet r = s.executeQuery("SELECT wal_fpi, wal_records FROM pg_stat_wal")) {
                    if (r.next()) {
                        m.put("WAL full-page images", r.getLong(1));
                        m.put("WAL records", r.getLong(2));
                    }
                } catch (SQLException e) {
                    notes.put("pg_stat_wal", "not readable: " + e.getMessage());
                }
            }
            case MARIADB -> {
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                        "SELECT name, count FROM information_schema.INNODB_METRICS WHERE name IN"
                                + " ('index_page_splits', 'index_page_merge_attempts', 'index_page_merge_successful',"
                                + " 'index_page_reorg_attempts')")) {
                    while (r.next()) {
                        m.put(r.getString(1) + " (all of InnoDB)", r.getLong(2));
                    }
                }
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_lsn_current', 'Innodb_buffer_pool_reads',"
                                + " 'Innodb_pages_written', 'Innodb_buffer_pool_pages_split')")) {
                    while (r.next()) {
                        String name = switch (r.getString(1)) {
                            case "Innodb_lsn_current" -> "redo bytes (LSN advance)";
                            case "Innodb_buffer_pool_reads" -> "buffer pool reads from disk";
                            case "Innodb_pages_written" -> "pages written";
                            default -> r.getString(1);
                        };
                        m.put(name, Long.parseLong(r.getString(2)));
                    }
                }
            }
        }
        return m;
    }

    /** Reads the index's own figures; writers' connections must be closed (PostgreSQL flushes their statistics then). */
    Figures figures(Connection c, String table, RealKey key, Workload w, long rows, Map<String, Object> extra)
            throws SQLException {
        switch (this) {
            case SQLITE -> {
                long leaf = 0;
                long internal = 0;
                long used = 0;
                long bytes = 0;
                long pageBytes = 0;
                try (PreparedStatement ps = c.prepareStatement("SELECT pagetype, count(*), sum(pgsize - unused), sum(pgsize),"
                        + " sum(ncell) FROM dbstat WHERE name = ? GROUP BY pagetype")) {
                    ps.setString(1, table);
                    try (ResultSet r = ps.executeQuery()) {
                        while (r.next()) {
                            bytes += r.getLong(4);
                            if (r.getString(1).equals("leaf")) {
                                leaf = r.getLong(2);
                                used = r.getLong(3);
                                pageBytes = r.getLong(4);
                                extra.put("leaf cells", r.getLong(5));
                            } else if (r.getString(1).equals("internal")) {
                                internal += r.getLong(2);
                            } else {
                                extra.put(r.getString(1) + " pages", r.getLong(2));
                            }
                        }
                    }
                }
                for (int i = 1; i <= w.secondaryIndexes(); i++) {
                    try (PreparedStatement ps = c.prepareStatement("SELECT sum(pgsize) FROM dbstat WHERE name = ?")) {
                        ps.setString(1, table + "_s" + i);
                        extra.put("secondary index s" + i + " bytes", longOf(ps));
                    }
                }
                extra.put("database pages", Long.parseLong(single(c, "PRAGMA page_count")));
                return new Figures(leaf, internal, pageBytes == 0 ? 0 : (double) used / pageBytes, bytes, extra);
            }
            case POSTGRESQL -> {
                String index = table + "_pkey";
                long leaf;
                long internal;
                double density;
                long size;
                try (PreparedStatement ps = c.prepareStatement("SELECT leaf_pages, internal_pages, avg_leaf_density,"
                        + " leaf_fragmentation, index_size, tree_level, empty_pages, deleted_pages FROM pgstatindex(?)")) {
                    ps.setString(1, index);
                    try (ResultSet r = ps.executeQuery()) {
                        r.next();
                        leaf = r.getLong(1);
                        internal = r.getLong(2);
                        density = r.getDouble(3) / 100;
                        extra.put("leaf fragmentation %", r.getDouble(4));
                        size = r.getLong(5);
                        extra.put("tree level", r.getLong(6));
                        extra.put("empty + deleted pages", r.getLong(7) + r.getLong(8));
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("SELECT idx_blks_read, idx_blks_hit FROM pg_statio_user_indexes"
                        + " WHERE indexrelname = ?")) {
                    ps.setString(1, index);
                    try (ResultSet r = ps.executeQuery()) {
                        if (r.next()) {
                            extra.put("index blocks read", r.getLong(1));
                            extra.put("index blocks hit", r.getLong(2));
                        }
                    }
                }
                extra.put("heap bytes", Long.parseLong(single(c, "SELECT pg_relation_size('" + table + "')")));
                for (int i = 1; i <= w.secondaryIndexes(); i++) {
                    extra.put("secondary index s" + i + " bytes",
                            Long.parseLong(single(c, "SELECT pg_relation_size('" + table + "_s" + i + "')")));
                }
                return new Figures(leaf, internal, density, size, extra);
            }
            default -> {
                try (Statement s = c.createStatement()) {
                    s.execute("ANALYZE TABLE " + table);
                }
                long leaf = 0;
                long size = 0;
                Map<String, Long> secondary = new LinkedHashMap<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT index_name, stat_name, stat_value FROM"
                        + " mysql.innodb_index_stats WHERE database_name = database() AND table_name = ?"
                        + " AND stat_name IN ('n_leaf_pages', 'size')")) {
                    ps.setString(1, table);
                    try (ResultSet r = ps.executeQuery()) {
                        while (r.next()) {
                            boolean primary = r.getString(1).equals("PRIMARY");
                            if (primary && r.getString(2).equals("n_leaf_pages")) {
                                leaf = r.getLong(3);
                            } else if (primary) {
                                size = r.getLong(3);
                            } else if (r.getString(2).equals("size")) {
                                secondary.put(r.getString(1), r.getLong(3));
                            }
                        }
                    }
                }
                long pageBytes = Long.parseLong(single(c, "SELECT @@innodb_page_size"));
                for (Map.Entry<String, Long> e : secondary.entrySet()) {
                    extra.put("secondary index " + e.getKey() + " bytes", e.getValue() * pageBytes);
                }
                int record = IndexEngine.innodbRecordBytes(key.keyType(), rowBytes(key, w));
                extra.put("record bytes", record);
                long pooled = 0;
                try (PreparedStatement ps = c.prepareStatement("SELECT count(*), sum(number_records), sum(data_size)"
                        + " FROM information_schema.INNODB_BUFFER_PAGE WHERE table_name = concat('`', database(), '`.`', ?, '`')"
                        + " AND index_name = 'PRIMARY' AND page_type = 'INDEX'")) {
                    ps.setString(1, table);
                    try (ResultSet r = ps.executeQuery()) {
                        if (r.next() && r.getLong(1) > 0) {
                            pooled = r.getLong(1);
                            extra.put("pages in buffer pool", pooled);
                            extra.put("their fill (DATA_SIZE / page)", r.getDouble(3) / (r.getLong(1) * (double) pageBytes));
                        }
                    }
                }
                long blobPages = rows * IndexEngine.innodbExternalPages(key.keyType(), rowBytes(key, w), (int) pageBytes);
                if (blobPages > 0) {
                    // a column moved off the page goes to BLOB pages of the leaf segment, which the
                    // statistics count as leaf pages: take them away
                    extra.put("n_leaf_pages (index statistics, BLOB pages included)", leaf);
                    extra.put("BLOB pages (a row's long column on pages of its own)", blobPages);
                    leaf -= blobPages;
                } else if (leaf < 64 && pooled > leaf + 1) {
                    // the statistics count no pages of the leaf segment's first fragment pages: a small
                    // index reads as 1 leaf page; when it is all in the pool, its pages less the root
                    // are its leaves (a small tree has two levels)
                    extra.put("n_leaf_pages (index statistics)", leaf);
                    leaf = pooled - 1;
                }
                double fill = leaf == 0 ? 0 : (double) rows * record / (leaf * (double) pageBytes);
                extra.put("allocated bytes (index statistics size)", size * pageBytes);
                // the statistics' size counts whole extents reserved, not pages in use: report leaf bytes
                return new Figures(leaf, -1, fill, leaf * pageBytes, extra);
            }
        }
    }

    /**
     * The key column as the model sizes it: SQLite stores an integer in as few bytes as its value
     * needs, so its own counter's keys (1 to {@code rows}) take 1 to 3 bytes, not 8.
     */
    KeyType modelKeyType(RealKey key, long rows) {
        if (this == SQLITE && key == RealKey.AUTO_INCREMENT) {
            int bytes = rows <= 127 ? 1 : rows <= 32_767 ? 2 : rows <= 8_388_607 ? 3 : 4;
            return new KeyType("INTEGER", KeyType.Kind.LONG, bytes, 1);
        }
        return key.keyType();
    }

    /**
     * @param key the key kind
     * @param w the workload
     * @return the row's bytes besides the key, as the model counts them
     */
    public int rowBytes(RealKey key, Workload w) {
        return w.payloadBytes() + 8 * w.secondaryIndexes() + (orderColumn(key, w) ? 8 : 0) + (timeColumn(w) ? 8 : 0);
    }

    /**
     * @param w the workload
     * @return whether the table gets the server's clock column {@code t} (InnoDB; DATETIME(6) stores in 8 bytes)
     */
    public boolean timeColumn(Workload w) {
        return w.serverTime() && this == MARIADB;
    }

    /**
     * @param key the key kind
     * @param w the workload
     * @return whether the table gets the server's order column (InnoDB, keys the runner makes)
     */
    public boolean orderColumn(RealKey key, Workload w) {
        return w.serverOrder() && this == MARIADB && key != RealKey.AUTO_INCREMENT;
    }

    /**
     * What a run changed on the server to read it. Only what this run turned on is recorded: an
     * extension or a counter that was already there is left alone, before and after. The InnoDB
     * counters are put back as found by {@link #restore}; the {@code pgstattuple} extension is not
     * (another run on the database may be reading it), and the run says it created it.
     *
     * @param createdPgstattuple PostgreSQL: the run created the {@code pgstattuple} extension (and left it)
     * @param enabledMonitors InnoDB: the {@code INNODB_METRICS} counters of the index module the run
     *     switched on (they were off)
     * @param note what could not be done, for the run's notes; empty if nothing
     */
    record ServerChanges(boolean createdPgstattuple, List<String> enabledMonitors, String note) {

        ServerChanges {
            enabledMonitors = List.copyOf(enabledMonitors);
        }

        /** @return one line saying what was changed for the run and is put back after it; empty if nothing */
        String describe() {
            List<String> parts = new ArrayList<>();
            if (createdPgstattuple) {
                parts.add("pgstattuple extension created (it was missing) and left installed, since other runs may read it;"
                        + " DROP EXTENSION pgstattuple removes it");
            }
            if (!enabledMonitors.isEmpty()) {
                parts.add("InnoDB index monitor switched on (" + String.join(", ", enabledMonitors) + "), off after the run");
            }
            return String.join("; ", parts);
        }
    }

    /**
     * Turns on the instruments a run reads: on PostgreSQL the {@code pgstattuple} extension (for
     * {@code pgstatindex}), created if missing and never dropped, so runs at once on one database
     * cannot pull it from under each other; on InnoDB the index module of {@code INNODB_METRICS}
     * (page splits and merges). Each is noted only if this call turned it on.
     *
     * @param c a connection
     * @return what was changed
     * @throws SQLException if the engine fails
     */
    ServerChanges prepare(Connection c) throws SQLException {
        switch (this) {
            case POSTGRESQL -> {
                boolean present;
                try (Statement s = c.createStatement();
                        ResultSet r = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'pgstattuple'")) {
                    present = r.next();
                }
                boolean created = false;
                if (!present) {
                    try (Statement s = c.createStatement()) {
                        s.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple");
                        // a notice ("already exists, skipping") means another run made it meanwhile
                        created = s.getWarnings() == null;
                    } catch (SQLException e) {
                        // another run may have created it at the same moment (a unique violation): fine if it is there now
                        try (Statement s = c.createStatement();
                                ResultSet r = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'pgstattuple'")) {
                            if (!r.next()) {
                                throw e;
                            }
                        }
                    }
                }
                return new ServerChanges(created, List.of(), "");
            }
            case MARIADB -> {
                List<String> off;
                try {
                    // MariaDB says ENABLED 0 or 1, MySQL 8 STATUS 'enabled' or 'disabled'
                    off = names(c, "SELECT name FROM information_schema.INNODB_METRICS WHERE subsystem = 'index'"
                            + " AND enabled = 0 ORDER BY name");
                } catch (SQLException e) {
                    off = names(c, "SELECT name FROM information_schema.INNODB_METRICS WHERE subsystem = 'index'"
                            + " AND status <> 'enabled' ORDER BY name");
                }
                if (off.isEmpty()) {
                    return new ServerChanges(false, List.of(), "");
                }
                try (Statement s = c.createStatement()) {
                    s.execute("SET GLOBAL innodb_monitor_enable = 'module_index'");
                } catch (SQLException e) {
                    return new ServerChanges(false, List.of(), "innodb_monitor_enable not allowed: " + e.getMessage());
                }
                return new ServerChanges(false, off, "");
            }
            default -> {
                return new ServerChanges(false, List.of(), "");
            }
        }
    }

    /**
     * Puts back what {@link #prepare} changed on InnoDB: switches off the counters it switched on
     * (each by name, so one that was on stays on). A {@code pgstattuple} extension it created stays.
     *
     * @param c a connection
     * @param changes what {@link #prepare} returned
     * @throws SQLException if the engine fails
     */
    void restore(Connection c, ServerChanges changes) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String name : changes.enabledMonitors()) {
                if (!name.matches("[a-z_]+")) {
                    throw new IllegalStateException("unexpected InnoDB counter name '" + name + "'");
                }
                s.execute("SET GLOBAL innodb_monitor_disable = '" + name + "'");
            }
        }
    }

    private static List<String> names(Connection c, String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        }
        return names;
    }

    private static long longOf(PreparedStatement ps) throws SQLException {
        try (ResultSet r = ps.executeQuery()) {
            return r.next() ? r.getLong(1) : 0;
        }
    }

    static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            String v = r.getString(1);
            return v == null ? "" : v;
        }
    }
}
