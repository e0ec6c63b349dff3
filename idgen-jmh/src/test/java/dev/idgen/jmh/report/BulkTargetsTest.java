package dev.idgen.jmh.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bulk rows' targets, on hand-written JMH JSON whose ratios were worked out by hand. */
class BulkTargetsTest {

    private static String result(String benchmark, String score, String alloc) {
        String secondary = alloc == null ? "{}"
                : "{\"gc.alloc.rate.norm\": {\"score\": " + alloc + ", \"scoreError\": 0.1, \"scoreUnit\": \"B/op\"}}";
        return "{\"jmhVersion\": \"1.37\", \"benchmark\": \"dev.idgen.jmh." + benchmark + "\", \"mode\": \"avgt\","
                + " \"threads\": 1, \"forks\": 1, \"jdkVersion\": \"17.0.15\","
                + " \"vmName\": \"OpenJDK 64-Bit Server VM\", \"vmVersion\": \"17.0.15+6\","
                + " \"warmupIterations\": 2, \"warmupTime\": \"500 ms\", \"measurementIterations\": 8,"
                + " \"measurementTime\": \"300 ms\", \"primaryMetric\": {\"score\": " + score
                + ", \"scoreError\": 0.1, \"scoreUnit\": \"ns/op\", \"rawData\": [[1.0, 2.0]]},"
                + " \"secondaryMetrics\": " + secondary + "}";
    }

    private static String render(String v7Bulk, String snowflakeBulk, String v7BulkAlloc) {
        String run = "[\n"
                + result("UuidV7Benchmark.ours", "30.0", "32.0") + ",\n"
                + result("UuidV7Benchmark.oursBulk", v7Bulk, v7BulkAlloc) + ",\n"
                + result("UuidV7Benchmark.uuidCreator", "24.0", null) + ",\n"
                + result("UuidV7Benchmark.jug", "40.0", null) + ",\n"
                + result("SnowflakeOverheadBenchmark.ours", "25.0", "0.0") + ",\n"
                + result("SnowflakeOverheadBenchmark.oursBulk", snowflakeBulk, "0.0") + "\n"
                + "]";
        return ReportRenderer.render(run, "quick run", "2-core test VM", "2026-12-03");
    }

    private static String rowOf(String report, String start) {
        return report.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no row starting " + start + " in\n" + report));
    }

    private static final String V7_TARGET = "| UUIDv7 bulk, per UUID, ≥ 3× faster than the fastest peer's v7 per call, 1 thread";
    private static final String SNOWFLAKE_TARGET = "| Snowflake bulk (41/0/22), per ID, under 5 ns, 1 thread";

    @Test
    void bulkIsComparedWithTheFastestPeersPerCallRowAndAnAbsoluteBound() {
        String report = render("7.5", "3.2", "34.1");
        String v7 = rowOf(report, V7_TARGET);
        // 24.0 / 7.5 = 3.2: against uuid-creator, the faster peer, not java-uuid-generator
        assertTrue(v7.contains("fastest peer: uuid-creator") && v7.contains(": 3.20×") && v7.endsWith("| met (3.20×) |"), v7);
        String snowflake = rowOf(report, SNOWFLAKE_TARGET);
        assertTrue(snowflake.contains("| 3.20 ± 0.10 ns/op |") && snowflake.endsWith("| met |"), snowflake);
        assertTrue(rowOf(report, "| UUIDv7 bulk: at most the UUID + 3 B per UUID").endsWith("| met |"), report);
        assertTrue(rowOf(report, "| UUIDv7: at most the UUID (32 B/op)").endsWith("| met |"),
                "the bulk row's extra bytes are judged apart: " + report);
        assertTrue(rowOf(report, "| Snowflake bulk: 0 B/op").endsWith("| met |"), report);
    }

    @Test
    void aSlowBulkRowMissesItsTargets() {
        String report = render("10.0", "6.0", "40.0"); // 24 / 10 = 2.4; 6 - 5 = 1; 40 - (32 + 3) = 5
        assertTrue(rowOf(report, V7_TARGET).endsWith("| **missed**: 2.40× of the 3× asked |"), report);
        assertTrue(rowOf(report, SNOWFLAKE_TARGET).endsWith("| **missed** by 1.00 ns |"), report);
        assertTrue(rowOf(report, "| UUIDv7 bulk: at most the UUID + 3 B per UUID").contains("**missed** by 5.0 B/op"),
                report);
    }
}
