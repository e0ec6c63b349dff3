package dev.idgen.index.predict;

import dev.idgen.index.engine.ClientStyle;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The recorded free-running runs under {@code index/real/}, each with only what a prediction may
 * know of it (engine, key, rows, writers, rows per transaction, row size, client style, insert
 * rate) and the engine's leaf pages, and whether the prediction was fitted on it. Turnstile runs
 * are left out (their writers take turns); everything else is in, every key.
 *
 * <p>Which files were fitted on, which only looked at and which held out is said in
 * docs/index-real.md; {@link Use} records it per file.
 */
final class RecordedRuns {

    /** How a file of runs was used in making the prediction. */
    enum Use {
        /** Its runs chose the prediction's timing, server slots or client parameters. */
        FITTED,
        /** Looked at while choosing among candidate models, not fitted on. */
        SEEN,
        /** Recorded before the model was fixed and looked at only after. */
        HELD_OUT
    }

    /**
     * One recorded run.
     *
     * @param file the file under {@code index/real/}
     * @param line its line in the file, from 1
     * @param use how the file was used
     * @param engine the engine's model
     * @param key the key kind
     * @param workload the workload as the engine stored it (the clock and order columns in the row)
     * @param leafPages the engine's leaf pages
     * @param load the machine's one-minute load average as the run started, -1 where not recorded
     */
    record Run(String file, int line, Use use, IndexEngine engine, RealKey key, Workload workload, long leafPages,
            double load) {

        /** @return the run's class */
        WorkloadClass workloadClass() {
            return WorkloadClass.of(engine, workload);
        }

        @Override
        public String toString() {
            return file + ":" + line + " " + engine + " " + key.cliName() + " w" + workload.writers() + " tx"
                    + workload.txRows() + " p" + workload.payloadBytes() + " " + workload.client().cliName()
                    + (workload.rateLimited() ? " " + (long) workload.rowsPerSecond() + "/s" : "");
        }
    }

    /** Every file of runs and its use, in the order the prediction's history met them. */
    static final Map<String, Use> FILES = files();

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|[-0-9.eE]+|true|false)");

    private static final Map<Run, Prediction> PREDICTIONS = new ConcurrentHashMap<>();

    private static List<Run> all;

    private RecordedRuns() {
    }

    private static Map<String, Use> files() {
        Map<String, Use> m = new java.util.LinkedHashMap<>();
        m.put("runs.jsonl", Use.FITTED);
        m.put("many-writers/runs.jsonl", Use.FITTED);
        m.put("free-running/runs.jsonl", Use.SEEN);
        m.put("many-writers/innodb-rerun-midpoint-order.jsonl", Use.SEEN);
        m.put("segments/runs.jsonl", Use.SEEN);
        m.put("server-order/runs.jsonl", Use.SEEN);
        m.put("repeats/runs.jsonl", Use.SEEN);
        m.put("writers-8-16-32/runs.jsonl", Use.HELD_OUT);
        m.put("500k/runs.jsonl", Use.SEEN);
        m.put("batch/fitted.jsonl", Use.FITTED);
        m.put("batch/held-out.jsonl", Use.HELD_OUT);
        return m;
    }

    /** @return every recorded free-running run */
    static synchronized List<Run> all() {
        if (all == null) {
            List<Run> runs = new ArrayList<>();
            FILES.forEach((file, use) -> read(file, use, runs));
            all = List.copyOf(runs);
        }
        return all;
    }

    /**
     * The prediction for a run, made once (every test that needs it shares it): two seeds per
     * interleaving, as {@code idgen index} predicts.
     *
     * @param run a recorded run
     * @return what its workload alone predicts
     */
    static Prediction predict(Run run) {
        return PREDICTIONS.computeIfAbsent(run,
                r -> WorkloadPredictor.builder(r.engine, r.key).workload(r.workload).seeds(2).build().predict());
    }

    private static void read(String file, Use use, List<Run> runs) {
        try (InputStream in = RecordedRuns.class.getResourceAsStream("/index/real/" + file);
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            int number = 0;
            for (String line; (line = r.readLine()) != null; ) {
                number++;
                Map<String, String> f = new HashMap<>();
                Matcher m = FIELD.matcher(line);
                while (m.find()) {
                    f.putIfAbsent(m.group(1), m.group(2).replace("\"", ""));
                }
                if ("true".equals(f.get("turnstile"))) {
                    continue;
                }
                IndexEngine engine = switch (f.get("engine")) {
                    case "POSTGRESQL" -> IndexEngine.POSTGRESQL;
                    case "SQLITE" -> IndexEngine.SQLITE;
                    default -> IndexEngine.INNODB;
                };
                String[] tx = f.get("txRows").split("-");
                // the server-time and server-order columns and each secondary column add 8 bytes to the row
                int row = Integer.parseInt(f.get("payloadBytes")) + 8 * Integer.parseInt(f.get("secondaryIndexes"))
                        + ("true".equals(f.get("serverTime")) || "true".equals(f.get("serverOrder")) ? 8 : 0);
                ClientStyle client = f.containsKey("client") ? ClientStyle.parse(f.get("client"))
                        : "true".equals(f.get("multiRow")) ? ClientStyle.MULTI_ROW : ClientStyle.SINGLE;
                double rate = Double.parseDouble(f.getOrDefault("rateLimit", "0"));
                Workload w = new Workload(Long.parseLong(f.get("rows")), Integer.parseInt(f.get("writers")),
                        Integer.parseInt(tx[0]), Integer.parseInt(tx[tx.length - 1]), row, 0, client, 1, false, false, false,
                        rate);
                runs.add(new Run(file, number, use, engine, RealKey.parse(f.get("key")), w, Long.parseLong(f.get("leafPages")),
                        Double.parseDouble(f.getOrDefault("loadAverageStart", "-1"))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
