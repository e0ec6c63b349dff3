package dev.idgen.index.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.RealResult;
import dev.idgen.index.engine.RealRunner;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import dev.idgen.index.predict.Prediction;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows too large for a SQLite cell: the real SQLite (sqlite-jdbc, embedded) with 1,200-byte
 * payloads, against the model's replay of the same keys and the prediction from the workload alone.
 *
 * <p>By the SQLite file format (sqlite.org/fileformat2.html), on a 4,096-byte page of an index
 * B-tree, which a {@code WITHOUT ROWID} table is, a cell keeps at most X = 4084 * 64 / 255 - 23 =
 * 1,002 bytes of a record; a larger record keeps M = 4084 * 32 / 255 - 23 = 489 bytes (K = M + (P -
 * M) mod 4092 exceeds X for every record under 4,092 + M bytes) and the rest goes to overflow pages
 * of 4,092 bytes. A 1,200-byte payload beside an 8- or 16-byte key is a record of 1,212 or 1,220
 * bytes: 489 kept, one overflow page per row.
 */
class SqliteOverflowTest {

    @TempDir
    Path dir;

    @Test
    void rowsThatSpillToOverflowPagesMatchTheEngine() throws SQLException {
        RealRunner runner = new RealRunner(Database.SQLITE, "jdbc:sqlite:" + dir.resolve("o.db"), InstantSource.system(), "ov");
        for (RealKey key : new RealKey[] {RealKey.SNOWFLAKE, RealKey.UUID_V4}) {
            Workload w = new Workload(5_000, 1, 100, 100, 1_200, 0, false, 11);
            RealResult r = runner.run(key, w, done -> { });
            Prediction p = RealIndex.predict(Database.SQLITE, key, w).prediction();
            String what = String.format(Locale.ROOT, "%s: engine %d leaf pages, %.4f full, %s overflow pages; replay %d, %.4f;"
                            + " predicted %s", key.label(), r.real().leafPages(), r.real().leafFill(),
                    r.real().extra().get("overflow pages"), r.model().leafPages(), r.modelLeafFill(), p);
            System.out.println("SqliteOverflowTest " + what);
            assertEquals(1, IndexEngine.sqliteOverflowPages(key.keyType(), 1_200), what);
            assertEquals(5_000L, r.real().extra().get("overflow pages"), "one overflow page per row: " + what);
            assertTrue(Math.abs(r.leafPagesError()) <= 0.03, "replay within 3 %: " + what);
            assertTrue(Math.abs(r.leafFillError()) <= 0.03, "replay fill within 3 %: " + what);
            assertTrue(Math.abs(p.error(r.real().leafPages())) <= 0.03, "prediction within 3 %: " + what);
        }
        // a 900-byte payload still fits its cell (a 912-byte record is under X): no overflow page
        RealResult fits = runner.run(RealKey.SNOWFLAKE, new Workload(2_000, 1, 100, 100, 900, 0, false, 12), done -> { });
        assertEquals(0, IndexEngine.sqliteOverflowPages(RealKey.SNOWFLAKE.keyType(), 900));
        assertTrue(!fits.real().extra().containsKey("overflow pages"), fits.real().extra().toString());
        assertTrue(Math.abs(fits.leafPagesError()) <= 0.05, fits.real() + " / " + fits.model());
    }
}
