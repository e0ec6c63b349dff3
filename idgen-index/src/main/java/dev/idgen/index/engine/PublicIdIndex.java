package dev.idgen.index.engine;

import dev.idgen.index.model.KeyType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most common schema, measured on a real engine: a {@code BIGINT} primary key (the engine's
 * counter, or Snowflake ids), and a UUID {@code public_id} with a secondary index on it. One writer loads the rows in
 * transactions of JDBC-batched INSERTs, the public ids made by the key kind's own generator; then
 * the secondary index's leaf pages are read as the engine counts them (PostgreSQL
 * {@code pgstatindex}, InnoDB {@code innodb_index_stats} after {@code ANALYZE TABLE}, SQLite
 * {@code dbstat}) and the table is dropped.
 */
public final class PublicIdIndex {

    private PublicIdIndex() {
    }

    /**
     * What the engine counted.
     *
     * @param version the engine and its version
     * @param primaryKey the primary key's kind
     * @param publicId the public id's key kind
     * @param rows rows loaded
     * @param leafPages the secondary index's leaf pages
     * @param serverChanges what the measurement changed on the server and left (PostgreSQL: the
     *     {@code pgstattuple} extension, when it was missing); empty if nothing
     */
    public record Result(String version, RealKey primaryKey, RealKey publicId, long rows, long leafPages, String serverChanges) {
    }

    /**
     * Loads and measures one table.
     *
     * @param database the engine
     * @param url its JDBC URL
     * @param primaryKey {@code autoinc} (the engine numbers the rows) or {@code snowflake}
     * @param publicId the public id's kind: a UUID one ({@code uuid7}, {@code uuid7-submilli} or {@code uuid4})
     * @param rows rows to load, 1 to 10,000,000
     * @param txRows rows per transaction, 1 to 100,000
     * @param seed the seed of random public ids
     * @param clock the clock time-ordered public ids read
     * @return the engine's figures
     * @throws SQLException if the engine refuses
     * @throws IllegalArgumentException if a value is out of range, naming it
     */
    public static Result measure(Database database, String url, RealKey primaryKey, RealKey publicId, long rows, int txRows,
            long seed, InstantSource clock) throws SQLException {
        if (primaryKey != RealKey.AUTO_INCREMENT && primaryKey != RealKey.SNOWFLAKE) {
            throw new IllegalArgumentException("primary key '" + primaryKey.cliName() + "' is not offered here; expected"
                    + " autoinc or snowflake");
        }
        if (publicId.keyType() != KeyType.BINARY16) {
            throw new IllegalArgumentException("public id '" + publicId.cliName() + "' is not a UUID kind; expected uuid7,"
                    + " uuid7-submilli or uuid4");
        }
        if (rows < 1 || rows > 10_000_000 || txRows < 1 || txRows > 100_000) {
            throw new IllegalArgumentException("rows " + rows + " and rows per transaction " + txRows
                    + " are out of range; expected 1..10000000 and 1..100000");
        }
        String table = "idgen_pid_" + Long.toString(System.nanoTime(), 36) + "_" + publicId.cliName().replace('-', '_');
        try (Connection c = database.connect(url)) {
            String version = database.version(c);
            // PostgreSQL reads the index with pgstatindex: the extension is created if missing, and left
            String changes = database == Database.POSTGRESQL ? database.prepare(c).describe() : "";
            try {
                boolean ownCounter = primaryKey == RealKey.AUTO_INCREMENT;
                create(database, c, table, ownCounter);
                load(database, c, table, ownCounter ? null : primaryKey.maker(0, clock, new AtomicLong(), seed), publicId,
                        publicId.maker(0, clock, new AtomicLong(), seed), rows, txRows);
                return new Result(version, primaryKey, publicId, rows, leafPages(database, c, table), changes);
            } finally {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + table);
                }
            }
        }
    }

    private static void create(Database database, Connection c, String table, boolean ownCounter) throws SQLException {
        String id = switch (database) {
            case POSTGRESQL -> "id BIGINT" + (ownCounter ? " GENERATED ALWAYS AS IDENTITY" : "") + " PRIMARY KEY";
            case SQLITE -> "id INTEGER PRIMARY KEY"; // the rowid itself
            case MARIADB -> "id BIGINT NOT NULL" + (ownCounter ? " AUTO_INCREMENT" : "") + " PRIMARY KEY";
        };
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (" + id + ", public_id " + database.columnType(KeyType.BINARY16) + " NOT NULL)"
                    + (database == Database.MARIADB ? " ENGINE=InnoDB" : ""));
            s.execute("CREATE INDEX " + table + "_pid ON " + table + " (public_id)");
        }
    }

    /** Loads the rows; {@code ids} null when the engine numbers them. */
    private static void load(Database database, Connection c, String table, RealKey.Maker ids, RealKey publicId,
            RealKey.Maker publicIds, long rows, int txRows) throws SQLException {
        c.setAutoCommit(false);
        long[] id = new long[2];
        long[] key = new long[2];
        String sql = ids == null ? "INSERT INTO " + table + " (public_id) VALUES (?)"
                : "INSERT INTO " + table + " (id, public_id) VALUES (?, ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (long i = 1; i <= rows; i++) {
                int p = 1;
                if (ids != null) {
                    ids.next(id);
                    ps.setLong(p++, id[0]);
                }
                publicIds.next(key);
                database.bindKey(ps, p, publicId, key);
                ps.addBatch();
                if (i % txRows == 0 || i == rows) {
                    ps.executeBatch();
                    c.commit();
                }
            }
        }
        c.setAutoCommit(true);
    }

    private static long leafPages(Database database, Connection c, String table) throws SQLException {
        String index = table + "_pid";
        try (Statement s = c.createStatement()) {
            switch (database) {
                case POSTGRESQL -> {
                    return single(s, "SELECT leaf_pages FROM pgstatindex('" + index + "')");
                }
                case SQLITE -> {
                    return single(s, "SELECT count(*) FROM dbstat WHERE name = '" + index + "' AND pagetype = 'leaf'");
                }
                default -> {
                    s.execute("ANALYZE TABLE " + table);
                    return single(s, "SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = DATABASE()"
                            + " AND table_name = '" + table + "' AND index_name = '" + index + "' AND stat_name = 'n_leaf_pages'");
                }
            }
        }
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            if (!r.next()) {
                throw new SQLException("no row from " + sql.toLowerCase(Locale.ROOT));
            }
            return r.getLong(1);
        }
    }
}
