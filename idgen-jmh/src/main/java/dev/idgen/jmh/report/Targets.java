package dev.idgen.jmh.report;

import dev.idgen.jmh.report.ReportRenderer.Numbers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The performance targets idgen holds itself to, checked against one run. A target is met on the point estimates; where the
 * verdict would flip inside the error bars the result says so.
 */
final class Targets {

    private static final String SATURATED = "SnowflakeSaturatedBenchmark";
    private static final String OVERHEAD = "SnowflakeOverheadBenchmark";
    private static final String V7 = "UuidV7Benchmark";
    private static final String V4 = "UuidV4Benchmark";
    /** A UUID object: 12-byte header (compressed class pointer), padding, two longs. */
    private static final double UUID_BYTES = 32;

    private final List<BenchmarkResult> results;
    private final List<String[]> rows = new ArrayList<>();

    private Targets(List<BenchmarkResult> results) {
        this.results = results;
    }

    /**
     * @param results one run
     * @return rows of (target, measured, result)
     */
    static List<String[]> check(List<BenchmarkResult> results) {
        Targets t = new Targets(results);
        for (String c : List.of("1t", "2t")) {
            t.saturated(c, "1t".equals(c) ? 0.99 : 0.97);
        }
        t.overheadAgainstFloor();
        t.overheadAgainstAgrona();
        for (String c : List.of("1t", "2t")) {
            t.fasterBy(V4, c, "jdkRandomUUID", 5.0, "UUIDv4 ≥ 5× faster than `UUID.randomUUID()`");
            t.fasterThanEveryPeer(V4, c, "ours", "UUIDv4 faster than every peer's v4");
            t.fasterThanEveryPeer(V7, c, "ours", "UUIDv7 (monotonic) faster than every peer's v7");
            t.fasterThanEveryPeer(V7, c, "oursNonMonotonic", "UUIDv7 (non-monotonic) faster than every peer's v7");
            t.fasterThanEveryPeer(V7, c, "oursBulk", 3.0,
                    "UUIDv7 bulk, per UUID, ≥ 3× faster than the fastest peer's v7 per call");
            t.under(OVERHEAD, c, "oursBulk", 5.0, "Snowflake bulk (41/0/22), per ID, under 5 ns");
        }
        t.allocation(SATURATED, false, 0, "Snowflake saturated: 0 B/op");
        t.allocation(OVERHEAD, false, 0, "Snowflake overhead: 0 B/op");
        t.allocation(OVERHEAD, true, 0, "Snowflake bulk: 0 B/op");
        t.allocation(V7, false, UUID_BYTES, "UUIDv7: at most the UUID (32 B/op)");
        // a fill allocates its UUIDs and, once per call, a run of random longs (528 B per 256 UUIDs)
        t.allocation(V7, true, UUID_BYTES + 3, "UUIDv7 bulk: at most the UUID + 3 B per UUID");
        t.allocation(V4, false, UUID_BYTES, "UUIDv4: at most the UUID (32 B/op)");
        return t.rows;
    }

    private Optional<BenchmarkResult> find(String topic, String implementation, String caseName) {
        return results.stream().filter(r -> r.topic().equals(topic) && r.implementation().equals(implementation)
                && r.caseName().equals(caseName)).findFirst();
    }

    private static String threads(String caseName) {
        return "1t".equals(caseName) ? "1 thread" : caseName.replace("t", "") + " threads";
    }

    private void notMeasured(String target) {
        rows.add(new String[] {target, "not in this run", "-"});
    }

    private void saturated(String caseName, double wanted) {
        String target = String.format(Locale.ROOT, "Snowflake saturated ≥ %.0f %% of ceiling, %s",
                100 * wanted, threads(caseName));
        Optional<BenchmarkResult> ours = find(SATURATED, "ours", caseName);
        if (ours.isEmpty()) {
            notMeasured(target);
            return;
        }
        BenchmarkResult r = ours.get();
        double fraction = r.score() / ReportRenderer.SNOWFLAKE_CEILING;
        double error = r.error() / ReportRenderer.SNOWFLAKE_CEILING;
        String verdict = fraction >= wanted ? "met" : String.format(Locale.ROOT, "**missed** by %.1f points", 100 * (wanted - fraction));
        if (!Double.isNaN(error) && (fraction - error < wanted) != (fraction + error < wanted)) {
            verdict += " (the target is inside the error)";
        }
        rows.add(new String[] {target, Numbers.percent(fraction, error), verdict});
    }

    private void overheadAgainstFloor() {
        String target = "Snowflake overhead within 10 % of `System.currentTimeMillis()`, 1 thread";
        Optional<BenchmarkResult> ours = find(OVERHEAD, "ours", "1t");
        Optional<BenchmarkResult> floor = find(OVERHEAD, "currentTimeMillis", "1t");
        if (ours.isEmpty() || floor.isEmpty()) {
            notMeasured(target);
            return;
        }
        double ratio = ours.get().score() / floor.get().score();
        String measured = String.format(Locale.ROOT, "%s vs %s ns/op: %+.1f %%",
                Numbers.withError(ours.get().score(), ours.get().error(), "ns/op"),
                Numbers.withError(floor.get().score(), floor.get().error(), "ns/op"), 100 * (ratio - 1));
        // ours / floor at the ends of both error bars
        double best = (ours.get().score() - ours.get().error()) / (floor.get().score() + floor.get().error());
        double worst = (ours.get().score() + ours.get().error()) / Math.max(0, floor.get().score() - floor.get().error());
        boolean undecided = best <= 1.10 && 1.10 < worst;
        String verdict = ratio <= 1.10 ? "met" + (undecided ? ", but inside error" : "")
                : String.format(Locale.ROOT, "**missed** by %.1f points (%.2f ns/op over the 10 %% allowance)%s",
                        100 * (ratio - 1.10), ours.get().score() - 1.10 * floor.get().score(),
                        undecided ? ", inside error" : "");
        rows.add(new String[] {target, measured, verdict});
    }

    private void overheadAgainstAgrona() {
        String target = "Snowflake overhead no slower than Agrona, 2 threads";
        Optional<BenchmarkResult> ours = find(OVERHEAD, "ours", "2t");
        Optional<BenchmarkResult> agrona = find(OVERHEAD, "agrona", "2t");
        if (ours.isEmpty() || agrona.isEmpty()) {
            notMeasured(target);
            return;
        }
        rows.add(new String[] {target, versus(ours.get(), agrona.get()), verdict(ours.get(), agrona.get(), 1.0)});
    }

    private void fasterBy(String topic, String caseName, String peer, double factor, String what) {
        String target = what + ", " + threads(caseName);
        Optional<BenchmarkResult> ours = find(topic, "ours", caseName);
        Optional<BenchmarkResult> other = find(topic, peer, caseName);
        if (ours.isEmpty() || other.isEmpty()) {
            notMeasured(target);
            return;
        }
        double s = Numbers.speedup(ours.get(), other.get());
        String measured = versus(ours.get(), other.get()) + String.format(Locale.ROOT, ": %.2f×", s);
        rows.add(new String[] {target, measured, verdict(ours.get(), other.get(), factor)});
    }

    private void fasterThanEveryPeer(String topic, String caseName, String implementation, String what) {
        fasterThanEveryPeer(topic, caseName, implementation, 1.0, what);
    }

    private void fasterThanEveryPeer(String topic, String caseName, String implementation, double factor, String what) {
        String target = what + ", " + threads(caseName);
        Optional<BenchmarkResult> ours = find(topic, implementation, caseName);
        List<BenchmarkResult> peers = results.stream().filter(r -> r.topic().equals(topic)
                && r.caseName().equals(caseName) && !r.isOurs()).toList();
        if (ours.isEmpty() || peers.isEmpty()) {
            notMeasured(target);
            return;
        }
        BenchmarkResult best = peers.get(0);
        for (BenchmarkResult p : peers) {
            if (Numbers.speedup(p, best) > 1) {
                best = p;
            }
        }
        String measured = versus(ours.get(), best) + " (fastest peer: "
                + ReportRenderer.LABELS.getOrDefault(best.implementation(), best.implementation()) + ")";
        if (factor != 1.0) {
            measured += String.format(Locale.ROOT, ": %.2f×", Numbers.speedup(ours.get(), best));
        }
        rows.add(new String[] {target, measured, verdict(ours.get(), best, factor)});
    }

    /** An absolute bound in ns/op, on the point estimate; "inside error" when the error bar spans it. */
    private void under(String topic, String caseName, String implementation, double nanos, String what) {
        String target = what + ", " + threads(caseName);
        Optional<BenchmarkResult> ours = find(topic, implementation, caseName);
        if (ours.isEmpty()) {
            notMeasured(target);
            return;
        }
        BenchmarkResult r = ours.get();
        boolean undecided = !Double.isNaN(r.error()) && r.score() - r.error() < nanos && nanos <= r.score() + r.error();
        String verdict = r.score() < nanos ? "met" : String.format(Locale.ROOT, "**missed** by %.2f ns", r.score() - nanos);
        rows.add(new String[] {target, Numbers.withError(r.score(), r.error(), r.unit()) + " " + r.unit(),
                verdict + (undecided ? ", inside error" : "")});
    }

    /**
     * Every idgen row of the topic (the default and its variants, every thread count), the bulk
     * rows ({@code ours...Bulk}) or the others: a bulk row allocates once per call, not per ID.
     */
    private void allocation(String topic, boolean bulk, double most, String target) {
        List<BenchmarkResult> ours = results.stream().filter(r -> r.topic().equals(topic)
                && r.isOurs() && r.implementation().endsWith("Bulk") == bulk && !Double.isNaN(r.bytesPerOp())).toList();
        if (ours.isEmpty()) {
            rows.add(new String[] {target, "no `-prof gc` figures in this run", "-"});
            return;
        }
        BenchmarkResult worst = ours.stream().max(Comparator.comparingDouble(BenchmarkResult::bytesPerOp)).orElseThrow();
        // -prof gc spreads the harness's own bytes per iteration over the ops (up to about half a byte
        // per op in 300 ms iterations); the smallest object is 16 bytes, so under 1 B/op over the
        // allowance is not an allocation per operation
        boolean met = worst.bytesPerOp() < most + 1.0;
        String measured = String.format(Locale.ROOT, "at most %.2f B/op over %d run(s) (%s, %s)", worst.bytesPerOp(),
                ours.size(), worst.implementation(), threads(worst.caseName()));
        rows.add(new String[] {target, measured,
                met ? "met" : String.format(Locale.ROOT, "**missed** by %.1f B/op", worst.bytesPerOp() - most)});
    }

    private static String versus(BenchmarkResult ours, BenchmarkResult other) {
        return Numbers.withError(ours.score(), ours.error(), ours.unit()) + " vs "
                + Numbers.withError(other.score(), other.error(), other.unit()) + " " + ours.unit();
    }

    /**
     * Met when ours is at least {@code factor} times as fast as {@code other} on the point
     * estimates; "inside error" when the worst and best cases the error bars allow fall on both
     * sides of {@code factor}.
     */
    private static String verdict(BenchmarkResult ours, BenchmarkResult other, double factor) {
        double s = Numbers.speedup(ours, other);
        double[] bounds = Numbers.speedupBounds(ours, other);
        boolean undecided = bounds[0] < factor && factor <= bounds[1];
        String ask = factor == 1.0 ? "" : String.format(Locale.ROOT, " of the %.0f× asked", factor);
        if (s >= factor) {
            return String.format(Locale.ROOT, "met (%.2f×)", s) + (undecided ? ", but inside error" : "");
        }
        String missed = factor == 1.0
                ? String.format(Locale.ROOT, "**missed**: %.2f× (ours %.0f %% slower)", s, 100 * (1 / s - 1))
                : String.format(Locale.ROOT, "**missed**: %.2f×%s", s, ask);
        return missed + (undecided ? ", inside error" : "");
    }
}
