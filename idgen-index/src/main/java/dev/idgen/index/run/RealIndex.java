package dev.idgen.index.run;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.RealResult;
import dev.idgen.index.engine.RealRunner;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.predict.Prediction;
import dev.idgen.index.predict.WorkloadPredictor;

import dev.idgen.index.report.Json;
import dev.idgen.index.report.Progress;
import java.io.IOException;
import java.io.PrintWriter;
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

/** {@code idgen index --real}: runs each key kind in turn and prints, and writes, what it measured. */
public final class RealIndex {

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    /**
     * What to run.
     *
     * @param url the JDBC URL, or null for an embedded SQLite file in the temp directory
     * @param keys the key kinds, in order
     * @param workload the workload of each
     * @param json a file to append each run to as a JSON line, or null
     * @param html a file for the HTML report, or null
     * @param svg a file for the fill chart as SVG, or null
     * @param traceDir a directory for arrival traces, or null
     * @param keepTables whether the run's tables are left in place (and named) instead of dropped
     */
    public record Settings(String url, List<RealKey> keys, Workload workload, Path json, Path html, Path svg, Path traceDir,
            boolean keepTables) {
    }

    /**
     * @param out standard output
     * @param err standard error (the progress bar)
     * @param terminal whether standard error is a terminal
     */
    public RealIndex(PrintWriter out, PrintWriter err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /**
     * @param s what to run
     * @return the exit code, 0
     */
    public int run(Settings s) {
        Path temp = null;
        String url = s.url();
        try {
            if (url == null) {
                temp = Files.createTempFile("idgen-index-", ".db");
                url = "jdbc:sqlite:" + temp;
            }
            Database database = Database.of(url);
            RealRunner fresh = new RealRunner(database, url, InstantSource.system());
            RealRunner runner = s.keepTables() ? fresh.keepingTables() : fresh;
            Workload w = s.workload();
            out.printf(Locale.ROOT, "%s: %,d rows per key, %d writer%s, %s rows per transaction%s, %s%s%n", database.label(),
                    w.rows(), w.writers(), w.writers() == 1 ? "" : "s", w.txRows(), w.multiRow() ? " (one sorted multi-row INSERT)" : "",
                    w.payloadBytes() == 0 ? "key-only rows" : w.payloadBytes() + "-byte payload",
                    w.secondaryIndexes() == 0 ? "" : ", " + w.secondaryIndexes() + " secondary indexes");
            out.printf(Locale.ROOT, "tables %s<key>, this run's own, %s%n", RealRunner.TABLE_PREFIX + runner.tag() + "_",
                    s.keepTables() ? "kept after the run (--keep-tables)" : "each dropped after its key's run");
            out.flush();
            Progress progress = new Progress(err, terminal, w.rows() * s.keys().size(), System::nanoTime);
            List<RealResult> results = new ArrayList<>();
            List<Prediction> predictions = new ArrayList<>();
            for (int i = 0; i < s.keys().size(); i++) {
                RealKey key = s.keys().get(i);
                long before = w.rows() * i;
                RealResult r = runner.run(key, w, done -> progress.update(before + done, database.label() + " " + key.label()));
                results.add(r);
                Prediction p = predict(database, key, w);
                predictions.add(p);
                if (s.json() != null) {
                    Files.writeString(s.json(), Json.write(json(r, p)) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
                if (s.traceDir() != null && (key == RealKey.SNOWFLAKE || key == RealKey.UUID_V7)) {
                    Files.createDirectories(s.traceDir());
                    Files.write(s.traceDir().resolve(traceName(r)), w.turnstile() || w.serverTime() ? r.arrival().keys()
                            : r.arrival().trace(key == RealKey.SNOWFLAKE));
                }
            }
            progress.finish();
            out.println(results.get(0).version());
            out.println();
            out.print(RealText.table(results));
            out.println();
            out.println("Predicted from the workload alone (engine, key, writers, rows per transaction, row size; no trace),"
                    + " beside the engine:");
            for (int i = 0; i < results.size(); i++) {
                RealResult r = results.get(i);
                Prediction p = predictions.get(i);
                out.printf(Locale.ROOT, "  %-34s engine %,7d leaf pages; predicted %s: %+.1f %%%n", r.key().label(),
                        r.real().leafPages(), p, 100 * p.error(r.real().leafPages()));
            }
            if (w.turnstile()) {
                out.println("  (the prediction simulates free-running writers; --turnstile interleaves them more)");
            }
            out.println();
            for (RealResult r : results) {
                out.print(RealText.details(r));
            }
            String title = "idgen index --real: " + results.get(0).version();
            if (s.html() != null) {
                Files.writeString(s.html(), RealReport.html(results, title), StandardCharsets.UTF_8);
                out.println("report written to " + s.html());
            }
            if (s.svg() != null) {
                Files.writeString(s.svg(), RealReport.svg(results, "Leaf fill (%)", r -> 100 * r.real().leafFill()),
                        StandardCharsets.UTF_8);
                out.println("chart written to " + s.svg());
            }
            out.flush();
            return 0;
        } catch (SQLException e) {
            throw new IllegalArgumentException("the engine at " + url + " failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write: " + e, e);
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        } finally {
            if (temp != null) {
                for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                    try {
                        Files.deleteIfExists(Path.of(temp + suffix));
                    } catch (IOException ignored) {
                        // a temp file left behind is harmless
                    }
                }
            }
        }
    }

    /**
     * What the workload alone predicts for a key on this engine, before the run's keys are known.
     *
     * @param database the engine
     * @param key the key kind
     * @param w the workload
     * @return the prediction
     */
    static Prediction predict(Database database, RealKey key, Workload w) {
        // the row as the engine stores it: the server-order and server-time columns included
        Workload asStored = new Workload(w.rows(), w.writers(), w.txRowsMin(), w.txRowsMax(),
                Math.min(4000, database.rowBytes(key, w)), 0, w.multiRow(), w.seed());
        return WorkloadPredictor.builder(database.model(), key).workload(asStored).seeds(2).build().predict();
    }

    /** @return the trace file's name for a run, such as {@code InnoDB-snowflake-w4-p200.trace.gz} */
    public static String traceName(RealResult r) {
        return r.database().name().toLowerCase(Locale.ROOT) + "-" + r.key().cliName() + "-w" + r.workload().writers()
                + "-p" + r.workload().payloadBytes() + (r.workload().turnstile() ? "-turnstile.keys.gz" : r.workload().serverTime() ? "-servertime.keys.gz" : ".trace.gz");
    }

    /**
     * @param r a run
     * @param p what the workload alone predicted for it
     * @return the run as a JSON object, the prediction and its error included
     */
    public static Map<String, Object> json(RealResult r, Prediction p) {
        Map<String, Object> m = json(r);
        m.put("predictedLeafPages", p.pages());
        m.put("predictedLeafPagesMin", p.minPages());
        m.put("predictedLeafPagesMax", p.maxPages());
        m.put("predictedLeafFill", round(p.fill()));
        m.put("predictionError", round(p.error(r.real().leafPages())));
        return m;
    }

    /** @return a run as a JSON object */
    public static Map<String, Object> json(RealResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        Workload w = r.workload();
        m.put("engine", r.database().name());
        m.put("version", r.version());
        m.put("settings", stringify(r.settings()));
        m.put("key", r.key().cliName());
        m.put("keyType", r.key().keyType().name());
        m.put("column", r.database().columnType(r.key().keyType()));
        m.put("rows", w.rows());
        m.put("writers", w.writers());
        m.put("txRows", w.txRows());
        m.put("payloadBytes", w.payloadBytes());
        m.put("secondaryIndexes", w.secondaryIndexes());
        m.put("multiRow", w.multiRow());
        m.put("serverOrder", r.database().orderColumn(r.key(), w));
        m.put("turnstile", w.turnstile());
        m.put("serverTime", r.database().timeColumn(w));
        m.put("seconds", round(r.seconds()));
        m.put("rowsPerSecond", Math.round(r.rowsPerSecond()));
        m.put("latencyP50Micros", round(r.latencyP50Micros()));
        m.put("latencyP99Micros", round(r.latencyP99Micros()));
        m.put("leafPages", r.real().leafPages());
        m.put("internalPages", r.real().internalPages());
        m.put("leafFill", round(r.real().leafFill()));
        m.put("indexBytes", r.real().indexBytes());
        m.put("instruments", stringify(r.real().extra()));
        m.put("counters", new LinkedHashMap<>(r.counters()));
        m.put("modelLeafPages", r.model().leafPages());
        m.put("modelLeafFill", round(r.modelLeafFill()));
        m.put("modelLeafSplits", r.model().leafSplits());
        return m;
    }

    private static Map<String, Object> stringify(Map<String, Object> in) {
        Map<String, Object> m = new LinkedHashMap<>();
        in.forEach((k, v) -> m.put(k, v instanceof Number || v instanceof Boolean ? v : String.valueOf(v)));
        return m;
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
