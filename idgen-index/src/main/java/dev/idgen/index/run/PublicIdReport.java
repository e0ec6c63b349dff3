package dev.idgen.index.run;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.PublicIdIndex;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.predict.Prediction;
import dev.idgen.index.predict.WorkloadPredictor;
import dev.idgen.index.report.Json;
import dev.idgen.index.report.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code idgen index --real --public-id}: a UUID {@code public_id} secondary index beside a
 * {@code BIGINT} primary key (the engine's counter or Snowflake ids), on each engine ({@link PublicIdIndex}), beside the
 * prediction of its leaf pages from the workload alone; a table, and a JSON line per run if asked.
 */
public final class PublicIdReport {

    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param out standard output
     * @param err standard error (one line per error)
     */
    public PublicIdReport(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Measures every public id kind on every engine.
     *
     * @param urls the JDBC URLs; empty for an embedded SQLite file in the temp directory
     * @param primaryKey the primary key: {@code autoinc} or {@code snowflake}
     * @param kinds the public ids' key kinds, UUID ones
     * @param rows rows per table
     * @param txRows rows per transaction
     * @param json a file to append each run to as a JSON line, or null
     * @return the exit code: 0, or 1 if an engine failed
     */
    public int run(List<String> urls, RealKey primaryKey, List<RealKey> kinds, long rows, int txRows, Path json) {
        Path temp = null;
        try {
            List<String> targets = new ArrayList<>(urls);
            if (targets.isEmpty()) {
                temp = Files.createTempFile("idgen-index-", ".db");
                targets.add("jdbc:sqlite:" + temp);
            }
            TextTable table = new TextTable("engine", "public id", "rows", "rows/tx", "leaf pages", "predicted (range)", "error");
            for (String url : targets) {
                Database database = Database.of(url);
                for (RealKey kind : kinds) {
                    PublicIdIndex.Result r = PublicIdIndex.measure(database, url, primaryKey, kind, rows, txRows, 42,
                            InstantSource.system());
                    Prediction p = WorkloadPredictor.builder(database.model(), kind).secondary(true).primaryKey(primaryKey)
                            .workload(new Workload(rows, 1, txRows, txRows, 0, 0, false, 1)).seeds(10).build().predict();
                    double error = p.error(r.leafPages());
                    table.row(r.version(), kind.label(), String.format(Locale.ROOT, "%,d", rows), Integer.toString(txRows),
                            String.format(Locale.ROOT, "%,d", r.leafPages()),
                            String.format(Locale.ROOT, "%,d (%,d-%,d)", p.pages(), p.minPages(), p.maxPages()),
                            String.format(Locale.ROOT, "%+.1f %%", 100 * error));
                    if (!r.serverChanges().isEmpty()) {
                        out.println(r.version() + ": " + r.serverChanges());
                    }
                    if (json != null) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("engine", database.name());
                        m.put("version", r.version());
                        m.put("publicId", kind.cliName());
                        m.put("primaryKey", primaryKey.cliName());
                        m.put("rows", rows);
                        m.put("writers", 1);
                        m.put("txRows", txRows);
                        m.put("secondaryLeafPages", r.leafPages());
                        m.put("predictedLeafPages", p.pages());
                        m.put("predictedLeafPagesMin", p.minPages());
                        m.put("predictedLeafPagesMax", p.maxPages());
                        m.put("predictionError", error);
                        Files.writeString(json, Json.write(m) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
                    }
                }
            }
            out.println("Secondary index on a UUID public_id beside a BIGINT primary key of " + primaryKey.label()
                    + " ids (one writer, JDBC batches; a ULID orders as uuid7):");
            out.print(table.render(0));
            out.flush();
            return 0;
        } catch (SQLException e) {
            err.println("idgen index: the engine failed: " + e.getMessage());
            err.flush();
            return 1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // a temp file left behind is harmless
                }
            }
        }
    }
}
