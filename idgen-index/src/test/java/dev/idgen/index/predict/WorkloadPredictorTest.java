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
 * <p><b>Fitted on</b> ({@link Calibration}'s timing was chosen on these): {@code index/real/runs.jsonl},
 * the free-running four-writer runs. <b>Held out</b> (not looked at while fitting):
 * {@code many-writers/runs.jsonl} (50,000 rows, 4 and 16 writers, every layout and multi-row
 * INSERTs), {@code free-running/runs.jsonl} (three repeats of InnoDB Snowflake and UUIDv7 with the
 * server-time column) and {@code many-writers/innodb-rerun-midpoint-order.jsonl} (a rerun of the
 * fitted InnoDB runs). The 500,000-row runs are left out for time; docs/index-real.md gives their
 * errors.
 *
 * <p>The bound is 10 % of the engine's leaf pages on every run but one group: InnoDB with 16
 * writers, where the simulation lets all 16 writers interleave freely while the recorded machine
 * (2 cores) ran few at once; there the prediction is too pessimistic by up to +25 % (UUIDv7), and the
 * bound is 30 %, a known miss the docs state.
 */
class WorkloadPredictorTest {

    static final double BOUND = 0.10;
    static final double BOUND_INNODB_16_WRITERS = 0.30;

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
        read("many-writers/runs.jsonl", true, runs);
        read("free-running/runs.jsonl", true, runs);
        read("many-writers/innodb-rerun-midpoint-order.jsonl", true, runs);
        read("segments/runs.jsonl", true, runs);
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
    void theRecordedRunsIncludeHeldOutOnesOfFourAndSixteenWriters() throws IOException {
        List<Run> runs = recorded().toList();
        assertTrue(runs.stream().filter(r -> !r.heldOut).count() >= 8, "fitted runs");
        assertTrue(runs.stream().filter(r -> r.heldOut && r.workload.writers() == 4).count() >= 20, "held-out 4-writer runs");
        assertTrue(runs.stream().filter(r -> r.heldOut && r.workload.writers() == 16).count() >= 12, "held-out 16-writer runs");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recorded")
    void predictionIsWithinTheStatedBoundOfTheEngine(Run run) {
        Prediction p = WorkloadPredictor.builder(run.engine, run.key).workload(run.workload).seeds(2).build().predict();
        double bound = run.engine == IndexEngine.INNODB && run.workload.writers() >= 16 ? BOUND_INNODB_16_WRITERS : BOUND;
        double error = p.error(run.leafPages);
        assertTrue(Math.abs(error) <= bound, String.format(Locale.ROOT, "%s: predicted %s, engine %d leaf pages: %+.1f %%",
                run, p, run.leafPages, 100 * error));
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
