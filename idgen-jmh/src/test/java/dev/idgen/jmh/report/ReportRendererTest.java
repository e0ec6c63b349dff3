package dev.idgen.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The renderer on a hand-written JMH JSON whose ratios were worked out by hand. */
class ReportRendererTest {

    private static String result(String benchmark, String mode, int threads, String score, String error,
            String unit, String allocName, String alloc) {
        String secondary = allocName == null ? "{}"
                : "{\"" + allocName + "\": {\"score\": " + alloc + ", \"scoreError\": 0.1, \"scoreUnit\": \"B/op\"}}";
        return "{\"jmhVersion\": \"1.37\", \"benchmark\": \"dev.idgen.jmh." + benchmark + "\", \"mode\": \"" + mode
                + "\", \"threads\": " + threads + ", \"forks\": 1, \"jdkVersion\": \"17.0.15\","
                + " \"vmName\": \"OpenJDK 64-Bit Server VM\", \"vmVersion\": \"17.0.15+6\","
                + " \"warmupIterations\": 2, \"warmupTime\": \"500 ms\", \"measurementIterations\": 8,"
                + " \"measurementTime\": \"300 ms\", \"primaryMetric\": {\"score\": " + score
                + ", \"scoreError\": " + error + ", \"scoreUnit\": \"" + unit + "\", \"rawData\": [[1.0, 2.0]]},"
                + " \"secondaryMetrics\": " + secondary + "}";
    }

    /** A run on 1 thread ({@code -t 1}): one method per implementation, the case from "threads". */
    private static final String RUN = "[\n"
            + result("SnowflakeSaturatedBenchmark.ours", "thrpt", 1, "4055040", "4096", "ops/s", "gc.alloc.rate.norm", "0.003") + ",\n"
            + result("SnowflakeSaturatedBenchmark.agrona", "thrpt", 1, "3686400", "40960", "ops/s", null, null) + ",\n"
            + result("UuidV4Benchmark.ours", "avgt", 1, "20.0", "1.0", "ns/op", "gc.alloc.rate.norm", "32.0") + ",\n"
            + result("UuidV4Benchmark.jdkRandomUUID", "avgt", 1, "300.0", "30.0", "ns/op", "\\u00b7gc.alloc.rate.norm", "128.0") + ",\n"
            + result("UuidV4Benchmark.jug", "avgt", 1, "21.0", "1.5", "ns/op", null, null) + ",\n"
            + result("UuidCodecBenchmark.ours_parse", "avgt", 1, "10.0", "\"NaN\"", "ns/op", null, null) + "\n"
            + "]";

    /** The same methods run again with {@code -t 2}. */
    private static final String RUN_2T = "[\n"
            + result("SnowflakeSaturatedBenchmark.ours", "thrpt", 2, "4014080", "8192", "ops/s", null, null) + ",\n"
            + result("SnowflakeSaturatedBenchmark.agrona", "thrpt", 2, "2048000", "20480", "ops/s", null, null) + "\n"
            + "]";

    private final String report = ReportRenderer.render(RUN, "quick run", "2-core test VM", "2026-12-03");

    private static String rowOf(String report, String start) {
        return report.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no row starting " + start + " in\n" + report));
    }

    @Test
    void headerNamesTheRunTheMachineAndTheJdk() {
        assertTrue(report.startsWith("# idgen benchmarks: quick run\n"), report);
        assertTrue(report.contains("2-core test VM; date: 2026-12-03"), report);
        assertTrue(report.contains("JDK 17.0.15 (OpenJDK 64-Bit Server VM 17.0.15+6), JMH 1.37"), report);
        assertTrue(report.contains("1 fork(s), 2 × 500 ms warmup, 8 × 300 ms measured"), report);
    }

    @Test
    void saturatedSnowflakeIsAFractionOfTheCeiling() {
        // 4,055,040 / 4,096,000 = 0.99 and 4,096 / 4,096,000 = 0.001
        assertEquals("| 1 thread | **idgen** | 4,055,040 ± 4,096 ops/s | 99.0 % ± 0.1 | 1 | (reference) | 0 |",
                rowOf(report, "| 1 thread | **idgen** | 4,055,040"));
        // 3,686,400 / 4,055,040 = 0.909 (1.10× slower); 40,960 / 4,096,000 = 1.0 point
        assertEquals("| 1 thread | Agrona `SnowflakeIdGenerator` | 3,686,400 ± 40,960 ops/s | 90.0 % ± 1.0 | 0.91"
                + " | 1.10× slower than ours | - |", rowOf(report, "| 1 thread | Agrona"));
        assertEquals("| Snowflake saturated ≥ 99 % of ceiling, 1 thread | 99.0 % ± 0.1 | met (the target is inside the error) |",
                rowOf(report, "| Snowflake saturated ≥ 99 % of ceiling, 1 thread"));
    }

    @Test
    void timePerOperationRatiosAndErrorOverlap() {
        // 300 / 20 = 15; bytes under either spelling of the gc metric
        assertEquals("| 1 thread | `UUID.randomUUID()` | 300.0 ± 30.00 ns/op | 15.00 | 15.00× slower than ours | 128 |",
                rowOf(report, "| 1 thread | `UUID.randomUUID()`"));
        // [19, 21] and [19.5, 22.5] overlap
        assertEquals("| 1 thread | java-uuid-generator | 21.00 ± 1.50 ns/op | 1.05 | inside error | - |",
                rowOf(report, "| 1 thread | java-uuid-generator"));
        assertTrue(rowOf(report, "| UUIDv4 ≥ 5× faster than `UUID.randomUUID()`, 1 thread").endsWith("| met (15.00×) |"),
                report);
        // 21 / 20 = 1.05 on the point estimates; the worst case (21 - 1.5) / (20 + 1) = 0.93 is below 1
        assertTrue(rowOf(report, "| UUIDv4 faster than every peer's v4, 1 thread")
                .endsWith("(fastest peer: java-uuid-generator) | met (1.05×), but inside error |"), report);
        assertTrue(rowOf(report, "| UUIDv4: at most the UUID (32 B/op)").endsWith("| met |"), report);
    }

    @Test
    void summaryPutsEachPeerNextToOursOnOneLine() {
        assertEquals("| UUIDv4 (CSPRNG randomness) | 1 thread | 20.00 ± 1.00 ns/op | `UUID.randomUUID()` 300.0 ± 30.00"
                + " ns/op (15.00); java-uuid-generator 21.00 ± 1.50 ns/op (1.05, inside error) |",
                rowOf(report, "| UUIDv4 (CSPRNG randomness) | 1 thread"));
        assertEquals("| Snowflake, saturated (41/10/12) | 1 thread | 99.0 % ± 0.1 | Agrona `SnowflakeIdGenerator`"
                + " 90.0 % ± 1.0 (0.91) |", rowOf(report, "| Snowflake, saturated (41/10/12) | 1 thread"));
    }

    @Test
    void missingErrorAndMissingBenchmarksAreSaidPlainly() {
        assertEquals("| `parse` | **idgen** | 10.00 ± ? ns/op | 1 | (reference) | - |", rowOf(report, "| `parse`"));
        assertTrue(rowOf(report, "| UUIDv7 (monotonic) faster than every peer's v7, 2 threads")
                .contains("not in this run"), report);
    }

    @Test
    void aSecondRunOnTwoThreadsAddsItsCaseAndTargets() {
        String both = ReportRenderer.render(List.of(RUN, RUN_2T), "quick run", "2-core test VM", "2026-12-03");
        // the 1-thread rows are those of the 1-thread run alone
        assertEquals(rowOf(report, "| 1 thread | Agrona"), rowOf(both, "| 1 thread | Agrona"));
        // 4,014,080 / 4,096,000 = 0.98; 2,048,000 / 4,014,080 = 0.51 (1.96× slower)
        assertEquals("| 2 threads | **idgen** | 4,014,080 ± 8,192 ops/s | 98.0 % ± 0.2 | 1 | (reference) | - |",
                rowOf(both, "| 2 threads | **idgen**"));
        assertEquals("| 2 threads | Agrona `SnowflakeIdGenerator` | 2,048,000 ± 20,480 ops/s | 50.0 % ± 0.5 | 0.51"
                + " | 1.96× slower than ours | - |", rowOf(both, "| 2 threads | Agrona"));
        assertTrue(rowOf(both, "| Snowflake saturated ≥ 97 % of ceiling, 2 threads").endsWith("| met |"), both);
        assertTrue(rowOf(report, "| Snowflake saturated ≥ 97 % of ceiling, 2 threads").contains("not in this run"), report);
    }

    @Test
    void runsWrittenWithTheThreadCountInTheMethodNameReadTheSame() {
        String legacy = RUN.replace("Benchmark.ours\"", "Benchmark.ours_1t\"")
                .replace("Benchmark.agrona\"", "Benchmark.agrona_1t\"")
                .replace("Benchmark.jdkRandomUUID\"", "Benchmark.jdkRandomUUID_1t\"")
                .replace("Benchmark.jug\"", "Benchmark.jug_1t\"");
        assertTrue(legacy.contains("UuidV4Benchmark.jug_1t"), legacy);
        assertEquals(report, ReportRenderer.render(legacy, "quick run", "2-core test VM", "2026-12-03"));
    }

    @Test
    void mergedJsonHoldsBothRunsResultsAsOneArray() {
        String merged = ReportRenderer.concatenate(List.of(RUN, "[]", RUN_2T));
        assertEquals(8, BenchmarkResult.listFromJson(merged).size());
        assertEquals(ReportRenderer.render(List.of(RUN, RUN_2T), "t", "m", "d"), ReportRenderer.render(merged, "t", "m", "d"));
        assertEquals("[]\n", ReportRenderer.concatenate(List.of("[ ]")));
    }

    @Test
    void jsonReaderReadsWhatJmhWrites() {
        Object value = Json.parse("{\"a\": [1, -2.5e3, \"x\\\"y\\u00b7\", true, null], \"b\": {}}");
        assertEquals(Map.of("a", java.util.Arrays.asList(1.0, -2500.0, "x\"y·", true, null), "b", Map.of()), value);
        assertEquals(List.of(), Json.parse(" [ ] "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, 2"));
        assertTrue(e.getMessage().contains("offset 5"), e.getMessage());
    }
}
