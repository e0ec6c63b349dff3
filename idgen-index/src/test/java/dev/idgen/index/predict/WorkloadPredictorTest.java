package dev.idgen.index.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The prediction from a workload alone against the recorded free-running runs of several writers
 * (never their traces: only engine, key, writers, rows per transaction, row size and client style
 * go in).
 *
 * <p><b>Fitted on</b> ({@link Calibration}'s timing and server slots were chosen on these):
 * {@code index/real/runs.jsonl} (four writers) and {@code many-writers/runs.jsonl} (4 and 16
 * writers, every layout, multi-row INSERTs). <b>Looked at while choosing among candidate models</b>:
 * {@code free-running/}, {@code many-writers/innodb-rerun-midpoint-order.jsonl}, {@code segments/},
 * {@code server-order/} and the first six runs of {@code repeats/}. <b>Recorded before and looked at
 * only after the model was first fixed</b>: {@code writers-8-16-32/} (8, 16 and 32 writers, six key
 * layouts, MariaDB and PostgreSQL) and the rest of {@code repeats/}; the server's slots changed
 * after that, from 3 to 2, on the arrival traces ({@link InterleavingTest}). The 500,000-row runs are left
 * out for time; docs/index-real.md gives their errors.
 *
 * <p>What is held: every run within 20 % of the engine's leaf pages and the mean error under 6 %;
 * 90 % of the runs within 10 %, Snowflake with the sequence above the machine id apart: the model
 * over-predicts that layout at 8 writers and more (up to +35 %), a known miss the docs state,
 * and it is held within 35 %. Repeats of one
 * workload on the engine differ by up to 15 % themselves (see {@code repeats/}).
 */
class WorkloadPredictorTest {

    static final double TARGET = 0.10;
    static final double SHARE_WITHIN_TARGET = 0.90;
    static final double MEAN_ERROR = 0.06;
    static final double BOUND = 0.20;
    static final double BOUND_SEQUENCE_FIRST = 0.35;

    private static final Map<Run, Prediction> PREDICTIONS = new ConcurrentHashMap<>();

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":(\"[^\"]*\"|[-0-9.eE]+|true|false)");

    record Run(String file, IndexEngine engine, RealKey key, Workload workload, long leafPages, boolean heldOut) {
        @Override
        public String toString() {
            return (heldOut ? "held out " : "fitted ") + file + ": " + engine + " " + key.cliName() + " w"
                    + workload.writers() + " p" + workload.payloadBytes() + (workload.multiRow() ? " multi-row" : "");
        }
    }

    static Stream<Run> recorded() throws IOException {
        List<Run> runs = new ArrayList<>();
        read("runs.jsonl", false, runs);
        read("many-writers/runs.jsonl", false, runs);
        read("free-running/runs.jsonl", true, runs);
        read("many-writers/innodb-rerun-midpoint-order.jsonl", true, runs);
        read("segments/runs.jsonl", true, runs);
        read("server-order/runs.jsonl", true, runs);
        read("repeats/runs.jsonl", true, runs);
        read("writers-8-16-32/runs.jsonl", true, runs);
        return runs.stream();
    }

    private static void read(String file, boolean heldOut, List<Run> runs) throws IOException {
        try (InputStream in = WorkloadPredictorTest.class.getResourceAsStream("/index/real/" + file);
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                Map<String, String> f = new HashMap<>();
                Matcher m = FIELD.matcher(line);
                while (m.find()) {
                    f.putIfAbsent(m.group(1), m.group(2).replace("\"", ""));
                }
                int writers = Integer.parseInt(f.get("writers"));
                boolean turnstile = "true".equals(f.get("turnstile"));
                String key = f.get("key");
                // free-running time-ordered keys of several writers: where the interleaving decides
                if (writers == 1 || turnstile || !f.get("secondaryIndexes").equals("0") || key.equals("autoinc")
                        || key.startsWith("uuid4")) {
                    continue;
                }
                IndexEngine engine = switch (f.get("engine")) {
                    case "POSTGRESQL" -> IndexEngine.POSTGRESQL;
                    case "SQLITE" -> IndexEngine.SQLITE;
                    default -> IndexEngine.INNODB;
                };
                String[] tx = f.get("txRows").split("-");
                // the server-time and server-order columns add 8 bytes to the row
                int row = Integer.parseInt(f.get("payloadBytes"))
                        + ("true".equals(f.get("serverTime")) || "true".equals(f.get("serverOrder")) ? 8 : 0);
                Workload w = new Workload(Long.parseLong(f.get("rows")), writers, Integer.parseInt(tx[0]),
                        Integer.parseInt(tx[tx.length - 1]), row, 0, "true".equals(f.get("multiRow")), 1);
                runs.add(new Run(file, engine, RealKey.parse(key), w, Long.parseLong(f.get("leafPages")), heldOut));
            }
        }
    }

    @Test
    void theRecordedRunsIncludeHeldOutOnesOfFourToThirtyTwoWriters() throws IOException {
        List<Run> runs = recorded().toList();
        assertTrue(runs.stream().filter(r -> !r.heldOut).count() >= 30, "fitted runs");
        for (int writers : new int[] {4, 8, 16, 32}) {
            assertTrue(runs.stream().filter(r -> r.heldOut && r.workload.writers() == writers).count() >= 12,
                    "held-out " + writers + "-writer runs");
        }
    }

    /** The prediction for a run, made once (the per-run and the overall tests share it). */
    static Prediction predict(Run run) {
        return PREDICTIONS.computeIfAbsent(run,
                r -> WorkloadPredictor.builder(r.engine, r.key).workload(r.workload).seeds(2).build().predict());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recorded")
    void predictionIsWithinTheStatedBoundOfTheEngine(Run run) {
        double bound = run.key == RealKey.SNOWFLAKE_SEQ_MACHINE ? BOUND_SEQUENCE_FIRST : BOUND;
        Prediction p = predict(run);
        double error = p.error(run.leafPages);
        assertTrue(Math.abs(error) <= bound, String.format(Locale.ROOT, "%s: predicted %s, engine %d leaf pages: %+.1f %%",
                run, p, run.leafPages, 100 * error));
    }

    @Test
    void ninetyPercentOfTheRunsAreWithinTenPercent() throws IOException {
        List<Run> all = recorded().toList();
        double sum = 0;
        for (Run run : all) {
            sum += Math.abs(predict(run).error(run.leafPages));
        }
        assertTrue(sum / all.size() <= MEAN_ERROR, "mean error " + sum / all.size());
        // the sequence-first layout is a known miss, held to its own bound above
        List<Run> runs = all.stream().filter(r -> r.key != RealKey.SNOWFLAKE_SEQ_MACHINE).toList();
        List<String> misses = new ArrayList<>();
        for (Run run : runs) {
            double error = predict(run).error(run.leafPages);
            if (Math.abs(error) > TARGET) {
                misses.add(String.format(Locale.ROOT, "%s %+.1f %%", run, 100 * error));
            }
        }
        double within = 1 - misses.size() / (double) runs.size();
        assertTrue(within >= SHARE_WITHIN_TARGET, String.format(Locale.ROOT, "%.1f %% of %d runs within 10 %%; misses: %s",
                100 * within, runs.size(), misses));
    }

    @Test
    void theSameInputGivesTheSamePrediction() {
        Workload w = new Workload(20_000, 4, 1, 10, 0, 0, false, 7);
        Prediction a = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE).workload(w).seeds(2).build().predict();
        Prediction b = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE).workload(w).seeds(2).build().predict();
        assertEquals(a, b);
        Prediction other = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE)
                .workload(new Workload(20_000, 4, 1, 10, 0, 0, false, 8)).seeds(2).build().predict();
        assertNotEquals(a, other, "another seed draws other interleavings");
    }

    @Test
    void oneWriterAppendsAndSoFillsInnoDbPages() {
        // one writer: every key lands after the last, InnoDB keeps 1/16 free: 15/16 of the records fit
        Prediction p = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE)
                .workload(new Workload(50_000, 1, 100, 100, 0, 0, false, 1)).seeds(1).build().predict();
        assertEquals(p.minPages(), p.maxPages(), "one writer has one order");
        assertTrue(p.fill() > 0.88 && p.fill() < 0.94, "fill " + p.fill());
    }

    @Test
    void machineFirstKeepsInnoDbDenseWhereTimeFirstDoesNot() {
        Workload w = new Workload(30_000, 8, 1, 10, 0, 0, false, 3);
        Prediction timeFirst = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE).workload(w).seeds(1).build().predict();
        Prediction machineFirst = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE_MACHINE_FIRST).workload(w)
                .seeds(1).build().predict();
        assertTrue(timeFirst.maxFill() < 0.6, "time first " + timeFirst);
        assertTrue(machineFirst.minFill() > 0.75, "machine first " + machineFirst);
    }

    @Test
    void anInsertRateSetsTheCommitTime() {
        Workload w = new Workload(10_000, 4, 1, 10, 0, 0, false, 1);
        Timing slow = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.UUID_V7).workload(w).rowsPerSecond(100).build().timing();
        Timing fast = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.UUID_V7).workload(w).rowsPerSecond(100_000).build().timing();
        assertTrue(slow.commitMicros() > 10 * fast.commitMicros() || fast.commitMicros() == 0, slow + " " + fast);
    }

    @Test
    void badInputIsRefusedNamingTheValueAndTheRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.UUID_V7).seeds(0));
        assertTrue(e.getMessage().contains("seeds 0") && e.getMessage().contains("1..50"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Timing(0, 1, 1, 0));
        assertTrue(e.getMessage().contains("statement time 0.0") && e.getMessage().contains("1..10000000"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ClientStyle.parse("bulk"));
        assertTrue(e.getMessage().contains("'bulk'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.UUID_V7).rowsPerSecond(-1));
        assertTrue(e.getMessage().contains("-1.0 rows/s"), e.getMessage());
    }
}
