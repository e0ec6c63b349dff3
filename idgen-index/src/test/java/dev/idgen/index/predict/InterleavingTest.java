package dev.idgen.index.predict;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.index.engine.Arrival;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two simulated interleavings against arrival traces of real runs (MariaDB 10.11, Snowflake,
 * 1-10 rows per transaction, key only; the writer of each row in the order InnoDB took them):
 * {@code arrival/quiet-*} from a saturated but otherwise quiet 2-core machine (15,000-18,000
 * rows/s, 2026-12-06), and the fitted four-writer run of {@code runs.jsonl} from the same machine
 * busy with other builds (1,300 rows/s).
 *
 * <p>Two measures of how writers take turns: how often a writer's row comes straight after its own
 * last one, and how many rows of others come between two of one writer's (median). The queued
 * simulation must reproduce the quiet machine's (its commit cost was chosen on these traces), and
 * every trace must lie between the two simulations: that is what makes their median and range a
 * fair prediction.
 */
class InterleavingTest {

    /** A run's interleaving. */
    record Turns(double sameWriterNext, double medianGap) {

        static Turns of(int[] writers) {
            int same = 0;
            int[] last = new int[256];
            Arrays.fill(last, -1);
            int[] gaps = new int[writers.length];
            int n = 0;
            for (int i = 0; i < writers.length; i++) {
                if (i > 0 && writers[i] == writers[i - 1]) {
                    same++;
                }
                if (last[writers[i]] >= 0) {
                    gaps[n++] = i - last[writers[i]] - 1;
                }
                last[writers[i]] = i;
            }
            int[] sorted = Arrays.copyOf(gaps, n);
            Arrays.sort(sorted);
            return new Turns(same / (double) writers.length, sorted[n / 2]);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "same writer next %.3f, median gap %.0f rows", sameWriterNext, medianGap);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "arrival/quiet-mariadb-snowflake-w4.trace.gz, 4, 50000, true",
        "arrival/quiet-mariadb-snowflake-w16.trace.gz, 16, 50000, true",
        "mariadb-snowflake-w4-p0.trace.gz, 4, 100000, false"})
    void theRecordedInterleavingLiesBetweenTheSimulatedOnes(String file, int writers, int rows, boolean quiet) throws IOException {
        Turns real;
        try (InputStream in = InterleavingTest.class.getResourceAsStream("/index/real/" + file)) {
            real = Turns.of(Arrival.Trace.read(in).writers());
        }
        WorkloadPredictor p = WorkloadPredictor.builder(IndexEngine.INNODB, RealKey.SNOWFLAKE)
                .workload(new Workload(rows, writers, 1, 10, 0, 0, false, 1)).build();
        Turns independent = Turns.of(p.arrivalWriters(WorkloadPredictor.Interleaving.INDEPENDENT, 1));
        Turns queued = Turns.of(p.arrivalWriters(WorkloadPredictor.Interleaving.QUEUED, 1));
        String what = file + ": engine " + real + "; independent " + independent + "; queued " + queued;
        System.out.println(what);
        assertTrue(between(real.sameWriterNext, independent.sameWriterNext, queued.sameWriterNext), what);
        assertTrue(between(real.medianGap, independent.medianGap, queued.medianGap), what);
        if (quiet) {
            assertTrue(Math.abs(real.sameWriterNext - queued.sameWriterNext) <= 0.05, what);
            assertTrue(Math.abs(real.medianGap - queued.medianGap) <= 0.25 * writers, what);
        }
    }

    private static boolean between(double x, double a, double b) {
        return Math.min(a, b) <= x && x <= Math.max(a, b);
    }
}
