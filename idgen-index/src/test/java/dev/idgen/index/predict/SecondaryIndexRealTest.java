package dev.idgen.index.predict;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code BIGINT} primary key and a UUID {@code public_id} with a secondary index on it, on the
 * real engines: 30,000 rows from one writer in transactions of 1,000, then the secondary index's
 * leaf pages as the engine counts them, against {@link WorkloadPredictor}'s secondary-index model.
 * SQLite always; PostgreSQL and MariaDB when they answer (under {@code CI=true} they must). Tables
 * are named per run ({@code idgen_sec_<nanos>_<key>}) and dropped after.
 *
 * <p>Bound: 12 % of the engine's leaf pages, for the median of 20 simulations. Random keys move a
 * small index by several percent from one stream to the next (InnoDB UUIDv4: the model's
 * simulations span 67-89 pages at this size, the engine gave 67 in a run by hand and 68 here), so
 * the bound is wider than the prediction's 10 %, and with 6 simulations the median was itself a
 * matter of luck (72-79 pages across workload seeds).
 */
class SecondaryIndexRealTest {

    static final double BOUND = 0.12;
    static final int ROWS = 30_000;
    static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"SQLITE, uuid7", "SQLITE, uuid4", "POSTGRESQL, uuid7", "POSTGRESQL, uuid4", "INNODB, uuid7", "INNODB, uuid4"})
    void secondaryIndexLeafPagesAreThePredictedOnes(IndexEngine engine, String keyName) throws SQLException {
        RealKey key = RealKey.parse(keyName);
        String url = switch (engine) {
            case SQLITE -> "jdbc:sqlite:" + dir.resolve("sec.db");
            case POSTGRESQL -> POSTGRES;
            default -> MARIADB;
        };
        String table = "idgen_sec_" + Long.toString(System.nanoTime(), 36) + "_" + key.cliName().replace('-', '_');
        try (Connection c = connect(engine, url)) {
            long leaves;
            try {
                leaves = load(engine, c, table, key);
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute("DROP TABLE IF EXISTS " + table);
                }
            }
            Prediction p = WorkloadPredictor.builder(engine, key).secondary(true)
                    .workload(new Workload(ROWS, 1, 1000, 1000, 0, 0, false, 1)).seeds(10).build().predict();
            double error = p.error(leaves);
            String what = String.format(Locale.ROOT, "%s %s secondary index: engine %d leaf pages, predicted %s: %+.1f %%",
                    engine, key.cliName(), leaves, p, 100 * error);
            System.out.println(what);
            assertTrue(Math.abs(error) <= BOUND, what);
        }
    }

    private static Connection connect(IndexEngine engine, String url) {
        try {
            return DriverManager.getConnection(url);
        } catch (SQLException e) {
            if (engine == IndexEngine.SQLITE || "true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(engine + " at " + url + " does not answer: " + e.getMessage());
            }
            Assumptions.abort(engine + " at " + url + " does not answer: " + e.getMessage());
            throw new AssertionError(e);
        }
    }

    /** Creates the table, inserts the rows, and returns the secondary index's leaf pages. */
    private static long load(IndexEngine engine, Connection c, String table, RealKey key) throws SQLException {
        String column = engine == IndexEngine.POSTGRESQL ? "uuid" : engine == IndexEngine.SQLITE ? "BLOB" : "BINARY(16)";
        String id = switch (engine) {
            case POSTGRESQL -> "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
            case SQLITE -> "id INTEGER PRIMARY KEY";
            default -> "id BIGINT AUTO_INCREMENT PRIMARY KEY";
        };
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (" + id + ", public_id " + column + " NOT NULL)"
                    + (engine == IndexEngine.INNODB ? " ENGINE=InnoDB" : ""));
            s.execute("CREATE INDEX " + table + "_pid ON " + table + " (public_id)");
        }
        c.setAutoCommit(false);
        SplittableRandom random = new SplittableRandom(11);
        long ms = 1_795_000_000_000L;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (public_id) VALUES (?)")) {
            for (int i = 0; i < ROWS; i++) {
                long high;
                long low = 0x8000_0000_0000_0000L | (random.nextLong() >>> 2);
                if (key == RealKey.UUID_V7) {
                    high = (ms + i) << 16 | 0x7000L | random.nextInt(1 << 12); // one key per millisecond: ascending
                } else {
                    high = random.nextLong() & ~0xF000L | 0x4000L;
                }
                if (engine == IndexEngine.POSTGRESQL) {
                    ps.setObject(1, new java.util.UUID(high, low));
                } else {
                    ps.setBytes(1, ByteBuffer.allocate(16).putLong(high).putLong(low).array());
                }
                ps.addBatch();
                if ((i + 1) % 1000 == 0) {
                    ps.executeBatch();
                    c.commit();
                }
            }
        }
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            switch (engine) {
                case POSTGRESQL -> {
                    // no extension needed: a two-level index is a meta page, one root and its leaves
                    try (ResultSet r = s.executeQuery("SELECT pg_relation_size('" + table + "_pid') / 8192")) {
                        r.next();
                        long pages = r.getLong(1);
                        assertTrue(pages - 2 < 280, "the index has more than two levels: " + pages + " pages");
                        return pages - 2;
                    }
                }
                case SQLITE -> {
                    try (ResultSet r = s.executeQuery("SELECT count(*) FROM dbstat WHERE name = '" + table
                            + "_pid' AND pagetype = 'leaf'")) {
                        r.next();
                        return r.getLong(1);
                    }
                }
                default -> {
                    s.execute("ANALYZE TABLE " + table);
                    try (ResultSet r = s.executeQuery("SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name ="
                            + " DATABASE() AND table_name = '" + table + "' AND index_name = '" + table
                            + "_pid' AND stat_name = 'n_leaf_pages'")) {
                        assertTrue(r.next(), "no innodb_index_stats row for " + table);
                        return r.getLong(1);
                    }
                }
            }
        }
    }
}
