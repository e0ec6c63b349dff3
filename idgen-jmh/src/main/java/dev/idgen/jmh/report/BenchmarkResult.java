package dev.idgen.jmh.report;

import java.util.List;
import java.util.Map;

/**
 * One benchmark's result as JMH's JSON gives it, with the benchmark name split by this module's
 * convention: {@code dev.idgen.jmh.<Topic>.<implementation>}, run on the threads the runner gave
 * ({@code -t}, the case {@code 1t}, {@code 2t}), or {@code dev.idgen.jmh.<Topic>.<implementation>_<case>}
 * for a named operation (and for runs written when the thread count was in the method name).
 *
 * @param topic the benchmark class's simple name, for example {@code UuidV4Benchmark}
 * @param implementation what was measured, {@code ours...} for idgen, else the peer
 * @param caseName the thread count ({@code 1t}, {@code 2t}) or the operation ({@code parse})
 * @param mode JMH's mode ({@code thrpt}, {@code avgt}, ...)
 * @param threads threads the benchmark ran on
 * @param score the primary score
 * @param error the half-width of JMH's 99.9 % confidence interval; NaN when JMH gave none
 * @param unit the score's unit, for example {@code ns/op}
 * @param bytesPerOp bytes allocated per operation from {@code -prof gc}; NaN without it
 * @param bytesError its error; NaN when JMH gave none
 */
public record BenchmarkResult(String topic, String implementation, String caseName, String mode,
        int threads, double score, double error, String unit, double bytesPerOp, double bytesError) {

    /** The secondary metric {@code -prof gc} writes: bytes allocated per operation. */
    static final String ALLOC_NORM = "gc.alloc.rate.norm";

    /** @return whether a higher score is better (throughput) rather than lower (time per op) */
    public boolean higherIsBetter() {
        return mode.equals("thrpt");
    }

    /** @return whether this is one of idgen's own implementations */
    public boolean isOurs() {
        return implementation.startsWith("ours");
    }

    /**
     * Reads one element of JMH's JSON array.
     *
     * @param json the element
     * @return the result
     */
    @SuppressWarnings("unchecked")
    static BenchmarkResult fromJson(Map<String, Object> json) {
        String benchmark = (String) json.get("benchmark");
        int lastDot = benchmark.lastIndexOf('.');
        String className = benchmark.substring(0, lastDot);
        String topic = className.substring(className.lastIndexOf('.') + 1);
        String method = benchmark.substring(lastDot + 1);
        int underscore = method.lastIndexOf('_');
        String implementation = underscore < 0 ? method : method.substring(0, underscore);
        int threads = (int) number(json.get("threads"));
        String caseName = underscore < 0 ? threads + "t" : method.substring(underscore + 1);
        Map<String, Object> primary = (Map<String, Object>) json.get("primaryMetric");
        double bytes = Double.NaN;
        double bytesError = Double.NaN;
        Object secondaries = json.get("secondaryMetrics");
        if (secondaries instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                // JMH has written this name with and without a leading '·' over its versions
                String name = String.valueOf(e.getKey());
                if (name.endsWith(ALLOC_NORM)) {
                    Map<String, Object> m = (Map<String, Object>) e.getValue();
                    bytes = number(m.get("score"));
                    bytesError = number(m.get("scoreError"));
                }
            }
        }
        return new BenchmarkResult(topic, implementation, caseName, (String) json.get("mode"),
                threads, number(primary.get("score")),
                number(primary.get("scoreError")), (String) primary.get("scoreUnit"), bytes, bytesError);
    }

    /**
     * @param json JMH's whole JSON output
     * @return its results in file order
     */
    @SuppressWarnings("unchecked")
    static List<BenchmarkResult> listFromJson(String json) {
        Object parsed = Json.parse(json);
        if (!(parsed instanceof List<?> list)) {
            throw new IllegalArgumentException("JMH JSON is an array of results; this starts with something else");
        }
        return list.stream().map(o -> fromJson((Map<String, Object>) o)).toList();
    }

    /** JMH writes NaN and infinities as strings. */
    private static double number(Object value) {
        if (value instanceof Double d) {
            return d;
        }
        if (value instanceof String s) {
            return Double.parseDouble(s);
        }
        return Double.NaN;
    }
}
