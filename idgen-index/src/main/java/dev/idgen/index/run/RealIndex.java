package dev.idgen.index.run;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.RealResult;
import dev.idgen.index.engine.RealRunner;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.predict.Prediction;
import dev.idgen.index.predict.PredictionAccuracy;
import dev.idgen.index.predict.StatedPrediction;
import dev.idgen.index.predict.WorkloadClass;
import dev.idgen.index.predict.WorkloadPredictor;
import dev.idgen.index.report.ComparisonReport;
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

/**
 * {@code idgen index --real}: every engine (one per URL), writer count and key kind in turn, each
 * with the prediction from its workload alone; then the table a person reads (engine beside model,
 * per engine, writer count and key, workload stated), the advice per engine, the replay and speed
 * table, each run's instruments, and the files asked for.
 */
public final class RealIndex {

    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean terminal;

    /**
     * What to run.
     *
     * @param urls the JDBC URLs, one engine each, in order; empty for an embedded SQLite file in the
     *     temp directory
     * @param keys the key kinds, in order, 1 or more
     * @param workloads the workloads, one per writer count, in order, 1 or more
     * @param json a file to append each run to as a JSON line, or null
     * @param html a file for the HTML report, or null
     * @param svg a file for the fill chart as SVG, or null
     * @param traceDir a directory for arrival traces, or null
     * @param keepTables whether the run's tables are left in place (and named) instead of dropped
     */
    public record Settings(List<String> urls, List<RealKey> keys, List<Workload> workloads, Path json, Path html, Path svg,
            Path traceDir, boolean keepTables) {

        /**
         * Copies the lists.
         *
         * @throws IllegalArgumentException if there is no key or no workload
         */
        public Settings {
            urls = List.copyOf(urls);
            keys = List.copyOf(keys);
            workloads = List.copyOf(workloads);
            if (keys.isEmpty() || workloads.isEmpty()) {
                throw new IllegalArgumentException(keys.size() + " key kinds and " + workloads.size()
                        + " writer counts; expected 1 or more of each");
            }
        }
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
     * @throws IllegalArgumentException if a URL names no engine this tool speaks, an engine fails,
     *     or a file cannot be written
     */
    public int run(Settings s) {
        Path temp = null;
        String url = null;
        try {
            List<String> urls = new ArrayList<>(s.urls());
            List<Database> databases = new ArrayList<>();
            for (String u : urls) {
                databases.add(Database.of(u));
            }
            if (urls.isEmpty()) {
                temp = Files.createTempFile("idgen-index-", ".db");
                urls.add("jdbc:sqlite:" + temp);
                databases.add(Database.SQLITE);
            }
            long total = 0;
            for (Workload w : s.workloads()) {
                total += w.rows() * s.keys().size() * urls.size();
            }
            for (Workload w : s.workloads()) {
                out.printf(Locale.ROOT, "%,d rows per key, %d writer%s%s, %s rows per transaction%s, %s%s%n",
                        w.rows(), w.writers(), w.writers() == 1 ? "" : "s",
                        w.rateLimited() ? String.format(Locale.ROOT, " at %,.0f rows/s together", w.rowsPerSecond()) : "",
                        w.txRows(), switch (w.client()) {
                            case MULTI_ROW -> " (one sorted multi-row INSERT)";
                            case BATCH -> " (one JDBC batch)";
                            case SINGLE -> "";
                        },
                        w.payloadBytes() == 0 ? "key-only rows" : w.payloadBytes() + "-byte payload",
                        w.secondaryIndexes() == 0 ? "" : ", " + w.secondaryIndexes() + " secondary indexes");
            }
            out.flush();
            Progress progress = new Progress(err, terminal, total, System::nanoTime);
            List<RealResult> results = new ArrayList<>();
            List<ComparisonReport.Row> rows = new ArrayList<>();
            long done = 0;
            for (int e = 0; e < urls.size(); e++) {
                url = urls.get(e);
                Database database = databases.get(e);
                RealRunner fresh = new RealRunner(database, url, InstantSource.system());
                RealRunner runner = s.keepTables() ? fresh.keepingTables() : fresh;
                out.printf(Locale.ROOT, "%s: tables %s<key>, this run's own, %s%n", database.label(),
                        RealRunner.TABLE_PREFIX + runner.tag() + "_",
                        s.keepTables() ? "kept after the run (--keep-tables)" : "each dropped after its key's run");
                out.flush();
                for (Workload w : s.workloads()) {
                    for (RealKey key : s.keys()) {
                        long before = done;
                        String label = String.format(Locale.ROOT, "%s, %d writer%s, %s", database.label(), w.writers(),
                                w.writers() == 1 ? "" : "s", key.label());
                        progress.update(before, label);
                        RealResult r = runner.run(key, w, n -> progress.update(before + n, label));
                        done += w.rows();
                        results.add(r);
                        StatedPrediction p = predict(database, key, w);
                        rows.add(row(r, p));
                        if (s.json() != null) {
                            Files.writeString(s.json(), Json.write(json(r, p)) + "\n", StandardCharsets.UTF_8,
                                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        }
                        if (s.traceDir() != null && (key == RealKey.SNOWFLAKE || key == RealKey.UUID_V7)) {
                            Files.createDirectories(s.traceDir());
                            Files.write(s.traceDir().resolve(traceName(r)), w.turnstile() || w.serverTime() ? r.arrival().keys()
                                    : r.arrival().trace(key == RealKey.SNOWFLAKE));
                        }
                    }
                }
            }
            progress.finish();
            out.println();
            out.println("Engine (measured) and model (predicted from the workload alone: engine, key, writers, rows per"
                    + " transaction, row size; no trace):");
            out.print(ComparisonReport.text(rows));
            if (s.workloads().stream().anyMatch(Workload::turnstile)) {
                out.println("(the prediction simulates free-running writers; --turnstile interleaves them more)");
            }
            out.println();
            for (List<ComparisonReport.Row> engine : ComparisonReport.byEngine(rows).values()) {
                out.println(ComparisonReport.advice(engine));
            }
            out.println();
            out.println("Replay (the model fed each run's own keys in the order the engine took them) and speed:");
            out.print(RealText.table(results));
            out.println();
            StringBuilder details = new StringBuilder();
            for (RealResult r : results) {
                details.append(RealText.details(r));
            }
            out.print(details);
            String title = "idgen index --real: " + String.join(", ", ComparisonReport.byEngine(rows).keySet());
            if (s.html() != null) {
                Files.writeString(s.html(), ComparisonReport.html(title, rows, details.toString()), StandardCharsets.UTF_8);
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
     * A run and its prediction as a line of the report.
     *
     * @param r the run
     * @param p what the workload alone predicted for it
     * @return the report's row
     */
    public static ComparisonReport.Row row(RealResult r, StatedPrediction p) {
        Workload w = r.workload();
        // the product and its version number, without the build's suffix: "MariaDB 10.11.19", "PostgreSQL 15.20"
        String version = r.version();
        int paren = version.indexOf(" (");
        version = (paren > 0 ? version.substring(0, paren) : version).replaceFirst("^(\\S+ [0-9.]+)-.*$", "$1");
        String engine = version.startsWith(r.database().label()) ? version : r.database().label() + ", " + version;
        String client = switch (w.client()) {
            case MULTI_ROW -> "one sorted multi-row INSERT per transaction";
            case BATCH -> "one JDBC batch per transaction";
            case SINGLE -> "one INSERT per row";
        } + (w.rateLimited() ? String.format(Locale.ROOT, ", %,.0f rows/s together", w.rowsPerSecond()) : "");
        int rowBytes = r.key().keyType().storedBytes() + r.database().rowBytes(r.key(), w);
        return new ComparisonReport.Row(engine, r.key().label(), w.writers(), w.rows(), w.txRows(), rowBytes, client,
                Math.max(1, r.real().leafPages()), Math.min(1, Math.max(0, r.real().leafFill())), p.pages(),
                Math.min(p.low(), p.pages()), Math.max(p.high(), p.pages()), Math.min(1, Math.max(0, p.prediction().fill())),
                p.verdict().calibrated());
    }

    /**
     * What the workload alone predicts for a key on this engine, before the run's keys are known.
     *
     * @param database the engine
     * @param key the key kind
     * @param w the workload
     * @return the prediction, with what the recorded runs of its workload class say of it
     */
    static StatedPrediction predict(Database database, RealKey key, Workload w) {
        // the row as the engine stores it: the server-order and server-time columns included
        Workload asStored = new Workload(w.rows(), w.writers(), w.txRowsMin(), w.txRowsMax(),
                Math.min(Workload.MAX_PAYLOAD_BYTES, database.rowBytes(key, w)), 0, w.client(), w.seed(), false, false, false,
                w.rowsPerSecond());
        Prediction p = WorkloadPredictor.builder(database.model(), key).workload(asStored).seeds(2).build().predict();
        return StatedPrediction.of(p, PredictionAccuracy.recorded(), WorkloadClass.of(database.model(), asStored), key);
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
    public static Map<String, Object> json(RealResult r, StatedPrediction p) {
        Map<String, Object> m = json(r);
        m.put("predictedLeafPages", p.pages());
        m.put("predictedLeafPagesMin", p.prediction().minPages());
        m.put("predictedLeafPagesMax", p.prediction().maxPages());
        m.put("predictedRangeLow", p.low());
        m.put("predictedRangeHigh", p.high());
        m.put("predictedLeafFill", round(p.prediction().fill()));
        m.put("predictionError", round(p.prediction().error(r.real().leafPages())));
        m.put("workloadClass", p.verdict().workloadClass().id());
        m.put("calibrated", p.verdict().calibrated());
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
        m.put("client", w.client().cliName());
        m.put("rateLimit", w.rowsPerSecond());
        m.put("serverOrder", r.database().orderColumn(r.key(), w));
        m.put("turnstile", w.turnstile());
        m.put("serverTime", r.database().timeColumn(w));
        m.put("loadAverageStart", round(r.loadAtStart()));
        m.put("loadAverageEnd", round(r.loadAtEnd()));
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
