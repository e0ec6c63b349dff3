package dev.idgen.index.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.PublicIdIndex;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code BIGINT} primary key and a UUID {@code public_id} with a secondary index on it, on the
 * real engines, loaded and read by {@link PublicIdIndex} (what {@code idgen index --real --public-id}
 * runs): 30,000 rows from one writer in transactions of 1,000, then the secondary index's leaf pages
 * as the engine counts them, against {@link WorkloadPredictor}'s secondary-index model.
 * SQLite always; PostgreSQL and MariaDB when they answer (under {@code CI=true} they must). Tables
 * are named per run ({@code idgen_pid_<nanos>_<key>}) and dropped after.
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

    @ParameterizedTest(name = "{0} {1} beside {2}")
    @CsvSource({"SQLITE, uuid7, autoinc", "SQLITE, uuid4, autoinc", "POSTGRESQL, uuid7, autoinc", "POSTGRESQL, uuid4, autoinc",
        "INNODB, uuid7, autoinc", "INNODB, uuid4, autoinc", "SQLITE, uuid7, snowflake", "POSTGRESQL, uuid7, snowflake",
        "INNODB, uuid7, snowflake"})
    void secondaryIndexLeafPagesAreThePredictedOnes(IndexEngine engine, String keyName, String primaryKeyName) throws SQLException {
        RealKey key = RealKey.parse(keyName);
        RealKey primaryKey = RealKey.parse(primaryKeyName);
        Database database = switch (engine) {
            case SQLITE -> Database.SQLITE;
            case POSTGRESQL -> Database.POSTGRESQL;
            default -> Database.MARIADB;
        };
        String url = switch (engine) {
            case SQLITE -> "jdbc:sqlite:" + dir.resolve("sec.db");
            case POSTGRESQL -> POSTGRES;
            default -> MARIADB;
        };
        answers(database, url);
        PublicIdIndex.Result r = PublicIdIndex.measure(database, url, primaryKey, key, ROWS, 1000, 11, InstantSource.system());
        assertEquals(ROWS, r.rows());
        Prediction p = WorkloadPredictor.builder(engine, key).secondary(true).primaryKey(primaryKey)
                .workload(new Workload(ROWS, 1, 1000, 1000, 0, 0, false, 1)).seeds(10).build().predict();
        double error = p.error(r.leafPages());
        String what = String.format(Locale.ROOT, "%s %s secondary index beside %s: engine %d leaf pages, predicted %s: %+.1f %%",
                engine, key.cliName(), primaryKey.cliName(), r.leafPages(), p, 100 * error);
        System.out.println(what);
        assertTrue(Math.abs(error) <= BOUND, what);
    }

    @Test
    void aPublicIdThatIsNotAUuidIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PublicIdIndex.measure(Database.SQLITE, "jdbc:sqlite:" + dir.resolve("x.db"), RealKey.AUTO_INCREMENT,
                        RealKey.SNOWFLAKE, 10, 10, 1,
                        InstantSource.system()));
        assertTrue(e.getMessage().contains("'snowflake'") && e.getMessage().contains("uuid4"), e.getMessage());
    }

    private static void answers(Database database, String url) {
        try (Connection c = database.connect(url)) {
            assertTrue(c.isValid(5));
        } catch (SQLException e) {
            if (database == Database.SQLITE || "true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(database + " at " + url + " does not answer: " + e.getMessage());
            }
            Assumptions.abort(database + " at " + url + " does not answer: " + e.getMessage());
        }
    }
}
