package dev.idgen.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns JMH's JSON ({@code -rf json}) into a Markdown report: idgen's targets, met or missed,
 * then one table per benchmark class with each peer's score next to ours, the ratio peer/ours, the
 * error bars, bytes per operation and, for saturated Snowflake, the fraction of the ceiling.
 *
 * <pre>
 * java -cp benchmarks.jar dev.idgen.jmh.report.ReportRenderer results-1t.json [results-2t.json ...] report.md \
 *     [--title "quick run"] [--machine "2-core shared VM"] [--date 2026-12-03T06:00:00Z]
 * </pre>
 *
 * Several JSON files (one JMH run per thread count) make one report; {@code --merged-json PATH}
 * also writes their results as one JSON array, as one JMH run would have written them.
 */
public final class ReportRenderer {

    /** What a benchmark class measures, in the order the report shows them. */
    record Topic(String className, String title, String about) {
    }

    static final List<Topic> TOPICS = List.of(
            new Topic("SnowflakeSaturatedBenchmark", "Snowflake, saturated (41/10/12)",
                    "IDs per second from one shared generator, summed over the threads. A 12-bit sequence"
                    + " allows at most 4,096,000 IDs/s; tsid-creator moves its time ahead instead of"
                    + " waiting when its counter runs out, so it is not held to that ceiling."),
            new Topic("SnowflakeOverheadBenchmark", "Snowflake overhead (41/0/22: the sequence never runs out)",
                    "Time per ID when the cap does not bind, next to the clock read alone."),
            new Topic("UuidV7Benchmark", "UUIDv7 (CSPRNG randomness)",
                    "Time per UUID from one shared generator; ours is monotonic unless named otherwise."),
            new Topic("UuidV4Benchmark", "UUIDv4 (CSPRNG randomness)",
                    "Time per UUID from one shared generator."),
            new Topic("UuidCodecBenchmark", "Text and fields",
                    "Strict parse and lower-case text against the JDK, and the decoder (no JDK counterpart)."),
            new Topic("RandomSourceBenchmark", "Randomness candidates (16 bytes a call)",
                    "What one UUID's random bits cost from each source; ThreadLocalRandom is guessable"
                    + " and there for scale only."));

    static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("ours", "**idgen**"),
            Map.entry("oursNonMonotonic", "**idgen**, non-monotonic"),
            Map.entry("oursBulk", "**idgen**, bulk `fill` (256 a call), per ID"),
            Map.entry("agrona", "Agrona `SnowflakeIdGenerator`"),
            Map.entry("hutool", "Hutool `Snowflake`"),
            Map.entry("tsid", "tsid-creator `TsidFactory`"),
            Map.entry("currentTimeMillis", "`System.currentTimeMillis()` (floor)"),
            Map.entry("clockAndCas", "clock read + one `AtomicLong` CAS (control)"),
            Map.entry("uuidCreator", "uuid-creator"),
            Map.entry("jug", "java-uuid-generator"),
            Map.entry("jdkRandomUUID", "`UUID.randomUUID()`"),
            Map.entry("jdk", "JDK `UUID`"),
            Map.entry("stripedDrbg", "core's stripes, refilled from a DRBG"),
            Map.entry("sharedSecureRandom", "shared `new SecureRandom()`"),
            Map.entry("sharedDrbg", "shared DRBG"),
            Map.entry("threadDrbg", "a DRBG per thread"),
            Map.entry("threadLocalRandom", "`ThreadLocalRandom` (guessable)"),
            Map.entry("wallClockRead", "one `System.currentTimeMillis()` (scale: a look for a copy)"),
            Map.entry("monotonicClockRead", "one `System.nanoTime()` (scale: a block's stamp)"));

    /** 4,096 IDs per millisecond. */
    static final double SNOWFLAKE_CEILING = 4_096_000d;

    private ReportRenderer() {
    }

    /**
     * @param args {@code in.json [more.json ...] out.md [--title T] [--machine M] [--date D]}
     * @throws IOException if a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i], args[++i]);
            } else {
                files.add(args[i]);
            }
        }
        if (files.size() < 2) {
            System.err.println("usage: ReportRenderer results.json [more.json ...] report.md [--title T] [--machine M] [--date D]");
            System.exit(2);
        }
        List<String> jsons = new ArrayList<>();
        for (String file : files.subList(0, files.size() - 1)) {
            jsons.add(Files.readString(Path.of(file), StandardCharsets.UTF_8));
        }
        String out = files.get(files.size() - 1);
        if (options.containsKey("--merged-json")) {
            Files.writeString(Path.of(options.get("--merged-json")), concatenate(jsons), StandardCharsets.UTF_8);
        }
        String markdown = render(jsons, options.getOrDefault("--title", "JMH run"),
                options.getOrDefault("--machine", "unnamed machine"),
                options.getOrDefault("--date", Instant.now().toString()));
        Files.writeString(Path.of(out), markdown, StandardCharsets.UTF_8);
        System.out.println("wrote " + out);
    }

    /**
     * @param jsons JSON arrays as JMH writes them
     * @return one array holding their elements in order, each element's text as it was
     */
    static String concatenate(List<String> jsons) {
        List<String> inner = new ArrayList<>();
        for (String json : jsons) {
            String t = json.strip();
            if (!t.startsWith("[") || !t.endsWith("]")) {
                throw new IllegalArgumentException("JMH JSON is an array of results; this starts with "
                        + t.substring(0, Math.min(20, t.length())));
            }
            String body = t.substring(1, t.length() - 1).strip();
            if (!body.isEmpty()) {
                inner.add(body);
            }
        }
        return inner.isEmpty() ? "[]\n" : "[\n" + String.join(",\n", inner) + "\n]\n";
    }

    /**
     * @param json JMH's JSON
     * @param title what run this is
     * @param machine where it ran
     * @param date when it ran
     * @return the Markdown report
     */
    public static String render(String json, String title, String machine, String date) {
        return render(List.of(json), title, machine, date);
    }

    /**
     * @param jsons JMH's JSON of each run (for example one per thread count), in order
     * @param title what run this is
     * @param machine where it ran
     * @param date when it ran
     * @return the Markdown report of all the runs' results together
     */
    @SuppressWarnings("unchecked")
    public static String render(List<String> jsons, String title, String machine, String date) {
        List<Object> raw = new ArrayList<>();
        List<BenchmarkResult> results = new ArrayList<>();
        for (String json : jsons) {
            raw.addAll((List<Object>) Json.parse(json));
            results.addAll(BenchmarkResult.listFromJson(json));
        }
        StringBuilder md = new StringBuilder();
        md.append("# idgen benchmarks: ").append(title).append("\n\n");
        if (!raw.isEmpty()) {
            Map<String, Object> first = (Map<String, Object>) raw.get(0);
            md.append("- Machine: ").append(machine).append("; date: ").append(date).append('\n');
            md.append("- JDK ").append(first.get("jdkVersion")).append(" (").append(first.get("vmName"))
                    .append(' ').append(first.get("vmVersion")).append("), JMH ").append(first.get("jmhVersion"))
                    .append('\n');
            md.append("- Per benchmark: ").append(intOf(first.get("forks"))).append(" fork(s), ")
                    .append(intOf(first.get("warmupIterations"))).append(" × ").append(first.get("warmupTime"))
                    .append(" warmup, ").append(intOf(first.get("measurementIterations"))).append(" × ")
                    .append(first.get("measurementTime")).append(" measured\n");
        }
        md.append("- `±` is JMH's 99.9 % confidence half-width. *peer/ours* divides the peer's score by"
                + " ours (ops/s: above 1 is faster than ours; ns/op: above 1 is slower). *inside error*:"
                + " the two intervals overlap, so the run does not tell them apart.\n");
        md.append("- B/op: bytes allocated per operation (`-prof gc`, `gc.alloc.rate.norm`); a UUID"
                + " object is 32 bytes.\n\n");

        md.append("## Targets\n\n");
        md.append("| target | measured | result |\n| --- | --- | --- |\n");
        for (String[] row : Targets.check(results)) {
            md.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        md.append('\n');

        md.append("## Summary\n\n");
        md.append("| benchmark | case | idgen | peers: score (peer/ours) |\n| --- | --- | ---: | --- |\n");
        for (Topic topic : TOPICS) {
            summarize(md, topic, results);
        }
        md.append('\n');

        List<String> shown = new ArrayList<>();
        for (Topic topic : TOPICS) {
            renderTopic(md, topic, results);
            shown.add(topic.className());
        }
        results.stream().map(BenchmarkResult::topic).distinct().filter(t -> !shown.contains(t))
                .forEach(t -> renderTopic(md, new Topic(t, t, ""), results));
        return md.toString();
    }

    private static void renderTopic(StringBuilder md, Topic topic, List<BenchmarkResult> all) {
        List<BenchmarkResult> rows = all.stream().filter(r -> r.topic().equals(topic.className())).toList();
        if (rows.isEmpty()) {
            return;
        }
        boolean saturated = topic.className().equals("SnowflakeSaturatedBenchmark");
        md.append("## ").append(topic.title()).append("\n\n");
        if (!topic.about().isEmpty()) {
            md.append(topic.about()).append("\n\n");
        }
        md.append("| case | implementation | score ± error | ");
        if (saturated) {
            md.append("% of ceiling | ");
        }
        md.append("peer/ours | compared with ours | B/op |\n| --- | --- | ---: | ");
        if (saturated) {
            md.append("---: | ");
        }
        md.append("---: | --- | ---: |\n");
        List<String> cases = rows.stream().map(BenchmarkResult::caseName).distinct().toList();
        for (String c : cases) {
            List<BenchmarkResult> inCase = ordered(rows, c);
            Optional<BenchmarkResult> ours = inCase.stream().filter(r -> r.implementation().equals("ours")).findFirst();
            for (BenchmarkResult r : inCase) {
                md.append("| ").append(caseLabel(r)).append(" | ")
                        .append(LABELS.getOrDefault(r.implementation(), r.implementation())).append(" | ")
                        .append(Numbers.withError(r.score(), r.error(), r.unit())).append(' ').append(r.unit())
                        .append(" | ");
                if (saturated) {
                    md.append(Numbers.percent(r.score() / SNOWFLAKE_CEILING, r.error() / SNOWFLAKE_CEILING))
                            .append(" | ");
                }
                if (ours.isPresent() && r != ours.get()) {
                    md.append(Numbers.ratio(r.score() / ours.get().score())).append(" | ")
                            .append(Numbers.comparison(r, ours.get())).append(" | ");
                } else {
                    md.append("1 | (reference) | ");
                }
                md.append(Numbers.bytes(r.bytesPerOp())).append(" |\n");
            }
        }
        md.append('\n');
    }

    /** One row per case of the topic: ours, then every other row with its ratio to ours. */
    private static void summarize(StringBuilder md, Topic topic, List<BenchmarkResult> all) {
        boolean saturated = topic.className().equals("SnowflakeSaturatedBenchmark");
        List<BenchmarkResult> rows = all.stream().filter(r -> r.topic().equals(topic.className())).toList();
        for (String c : rows.stream().map(BenchmarkResult::caseName).distinct().toList()) {
            List<BenchmarkResult> inCase = ordered(rows, c);
            Optional<BenchmarkResult> ours = inCase.stream().filter(r -> r.implementation().equals("ours")).findFirst();
            if (ours.isEmpty()) {
                continue;
            }
            List<String> others = new ArrayList<>();
            for (BenchmarkResult r : inCase) {
                if (r == ours.get()) {
                    continue;
                }
                String note = Numbers.insideError(r, ours.get()) ? ", inside error" : "";
                others.add(LABELS.getOrDefault(r.implementation(), r.implementation()) + " "
                        + score(r, saturated) + " (" + Numbers.ratio(r.score() / ours.get().score()) + note + ")");
            }
            md.append("| ").append(topic.title()).append(" | ").append(caseLabel(ours.get())).append(" | ")
                    .append(score(ours.get(), saturated)).append(" | ").append(others.isEmpty() ? "(no peer)" : String.join("; ", others))
                    .append(" |\n");
        }
    }

    /** The rows of one case: ours, then our variants, then the peers in file order. */
    private static List<BenchmarkResult> ordered(List<BenchmarkResult> rows, String caseName) {
        List<BenchmarkResult> inCase = new ArrayList<>(rows.stream().filter(r -> r.caseName().equals(caseName)).toList());
        inCase.sort(Comparator.comparing((BenchmarkResult r) -> !r.implementation().equals("ours"))
                .thenComparing(r -> !r.isOurs()));
        return inCase;
    }

    private static String score(BenchmarkResult r, boolean asCeilingFraction) {
        if (asCeilingFraction) {
            return Numbers.percent(r.score() / SNOWFLAKE_CEILING, r.error() / SNOWFLAKE_CEILING);
        }
        return Numbers.withError(r.score(), r.error(), r.unit()) + " " + r.unit();
    }

    private static String caseLabel(BenchmarkResult r) {
        String c = r.caseName();
        if (c.matches("\\d+t")) {
            int n = Integer.parseInt(c.substring(0, c.length() - 1));
            return n == 1 ? "1 thread" : n + " threads";
        }
        return c.isEmpty() ? "-" : "`" + c + "`";
    }

    private static String intOf(Object number) {
        return number instanceof Double d ? Long.toString(Math.round(d)) : String.valueOf(number);
    }

    /** Formatting shared by the tables and the targets. */
    static final class Numbers {
        private Numbers() {
        }

        static String withError(double score, double error, String unit) {
            String s = number(score, unit);
            return Double.isNaN(error) ? s + " ± ?" : s + " ± " + number(error, unit);
        }

        static String number(double value, String unit) {
            if (unit.startsWith("ops/")) {
                return String.format(Locale.ROOT, "%,.0f", value);
            }
            return Math.abs(value) < 100 ? String.format(Locale.ROOT, "%.2f", value)
                    : String.format(Locale.ROOT, "%,.1f", value);
        }

        static String percent(double fraction, double error) {
            String s = String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
            return Double.isNaN(error) ? s : s + String.format(Locale.ROOT, " ± %.1f", 100 * error);
        }

        static String ratio(double ratio) {
            return String.format(Locale.ROOT, "%.2f", ratio);
        }

        static String bytes(double bytes) {
            if (Double.isNaN(bytes)) {
                return "-";
            }
            // -prof gc counts a few bytes of the harness's own per iteration, spread over millions of ops
            return bytes < 0.5 ? "0" : String.format(Locale.ROOT, "%.0f", bytes);
        }

        /** Whether the two 99.9 % intervals overlap; false when either has no error bar. */
        static boolean insideError(BenchmarkResult a, BenchmarkResult b) {
            if (Double.isNaN(a.error()) || Double.isNaN(b.error())) {
                return false;
            }
            return Math.abs(a.score() - b.score()) <= a.error() + b.error();
        }

        /** How many times faster {@code a} is than {@code b}: above 1 when {@code a} is faster. */
        static double speedup(BenchmarkResult a, BenchmarkResult b) {
            return a.higherIsBetter() ? a.score() / b.score() : b.score() / a.score();
        }

        /**
         * The least and most {@link #speedup} the two error bars allow; both the point estimate
         * when either has no error bar.
         */
        static double[] speedupBounds(BenchmarkResult a, BenchmarkResult b) {
            double s = speedup(a, b);
            if (Double.isNaN(a.error()) || Double.isNaN(b.error())) {
                return new double[] {s, s};
            }
            double aLow = Math.max(0, a.score() - a.error());
            double aHigh = a.score() + a.error();
            double bLow = Math.max(0, b.score() - b.error());
            double bHigh = b.score() + b.error();
            return a.higherIsBetter()
                    ? new double[] {aLow / bHigh, aHigh / bLow}
                    : new double[] {bLow / aHigh, bHigh / aLow};
        }

        /** The row's side: "2.10× slower than ours", "1.30× faster than ours" or "inside error". */
        static String comparison(BenchmarkResult row, BenchmarkResult ours) {
            if (insideError(row, ours)) {
                return "inside error";
            }
            double s = speedup(row, ours);
            return s >= 1 ? String.format(Locale.ROOT, "%.2f× faster than ours", s)
                    : String.format(Locale.ROOT, "%.2f× slower than ours", 1 / s);
        }
    }
}
