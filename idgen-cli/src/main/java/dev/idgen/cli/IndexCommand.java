package dev.idgen.cli;

import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import dev.idgen.index.predict.PredictionAccuracy;
import dev.idgen.index.predict.StatedPrediction;
import dev.idgen.index.predict.WorkloadClass;
import dev.idgen.index.predict.WorkloadPredictor;
import dev.idgen.index.report.IndexChart;
import dev.idgen.index.model.IndexRun;
import dev.idgen.index.model.KeyName;
import dev.idgen.index.report.Progress;
import dev.idgen.index.report.ScoreboardText;
import dev.idgen.index.model.IndexModel;
import dev.idgen.index.model.KeySource;
import dev.idgen.index.model.KeyType;
import dev.idgen.index.model.PageFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code idgen index}: the testkit's B+ tree index model, one run per key kind on the same row
 * count, as a scoreboard; optionally a chart of leaf fill and pages as rows grow.
 */
@Command(name = "index", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Compare what each key kind does to a B+ tree primary-key index (model).",
                "Inserts the same number of rows keyed by each kind and counts what the database would do: "
                + "splits, page writes, pages, leaf fill, index size, buffer-pool hit rate.",
                "The defaults reproduce the README's one-million-row table."})
final class IndexCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    private CommandSpec spec;

    @Option(names = "--keys", paramLabel = "KINDS", split = ",", defaultValue = "autoinc,snowflake,uuid7,uuid4,uuid4-text",
            description = {"Key kinds, comma-separated: " + KeyName.NAMES + " (default: all), and the many-writer layouts:"
                    + " snowflake-seq-first, snowflake-machine-first, uuid7-submilli, blocks, segment-100, segment-1000,"
                    + " segment-10000, segment-100000 (predicted and measured; the textbook scoreboard has the first five)."})
    private List<String> keys;

    @Option(names = "--rows", paramLabel = "N",
            description = "Rows per key kind (default: 1000000 for the model, 100000 with --real).")
    private Long rows;

    @Option(names = "--real", description = {"Run the workload on a real engine and print its figures beside the"
            + " model's (fed the same keys in the same order).",
            "Default engine: an embedded SQLite file in the temp directory, deleted after."})
    private boolean real;

    @Option(names = "--url", paramLabel = "JDBC-URL", split = ",(?=jdbc:)", description = {"The engine for --real (implies it):"
            + " jdbc:sqlite:FILE, jdbc:postgresql://HOST/DB?user=U, jdbc:mariadb://HOST/DB?user=U (jdbc:mysql: too).",
            "Repeat it, or give a comma-separated list, to run several engines into one report.",
            "Only tables named idgen_ix_<run tag>_* are made, and dropped after; a table of that name is refused."})
    private List<String> urls;

    @Option(names = "--tx-rows", paramLabel = "N[-M]",
            description = "--real and the prediction: rows per transaction, or a range each transaction draws from (default: 100 for one writer, 1-10 for more).")
    private String txRows;

    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "0",
            description = "--real and the prediction: bytes of payload per row besides the key, 0..16000 (default: ${DEFAULT-VALUE}).")
    private int payload;

    @Option(names = "--secondary", paramLabel = "N", defaultValue = "0",
            description = "--real: secondary indexes, each on its own random BIGINT column, 0..8 (default: ${DEFAULT-VALUE}).")
    private int secondary;

    @Option(names = "--public-id", paramLabel = "KINDS", split = ",", description = {"Instead of the key runs, a secondary"
            + " index on a UUID public_id column (uuid7, uuid7-submilli, uuid4; a ULID orders as uuid7) beside a BIGINT primary"
            + " key: predicted for --writers writers, or with --real measured on the engine from one writer, --rows rows"
            + " (default 100000) in JDBC batches of --tx-rows' largest count (default 1000), beside the prediction."})
    private List<String> publicIds;

    @Option(names = "--primary-key", paramLabel = "KIND", defaultValue = "autoinc",
            description = "--public-id: the primary key beside it, autoinc (the engine numbers rows) or snowflake (default: ${DEFAULT-VALUE}).")
    private String primaryKey;

    @Option(names = "--multi-row", description = "--real: each transaction is one multi-row INSERT of its keys, sorted.")
    private boolean multiRow;

    @Option(names = "--server-order", description = "--real on InnoDB: an AUTO_INCREMENT column numbers rows as the server"
            + " takes them, and the model takes the keys in that order (the row grows by 8 bytes and gains an index).")
    private boolean serverOrder;

    @Option(names = "--turnstile", description = "--real: the writers take turns, one INSERT at a time, in an order drawn"
            + " from --seed, so the model gets the exact order rows reached the tree (slower: one statement at a time).")
    private boolean turnstile;

    @Option(names = "--server-time", description = "--real on InnoDB: each row gets a DATETIME(6) column set to SYSDATE(6)"
            + " as the server builds it, and the model takes the keys in that order (the row grows by 8 bytes).")
    private boolean serverTime;

    @Option(names = "--keep-tables", description = "--real: leave each run's table (named idgen_ix_<run tag>_<key>) in place"
            + " instead of dropping it, to look at it afterwards.")
    private boolean keepTables;

    @Option(names = "--json", paramLabel = "FILE", description = "--real: also append each run to this file, one JSON object a line.")
    private Path json;

    @Option(names = "--trace-dir", paramLabel = "DIR", hidden = true,
            description = "--real: also write the arrival trace of each Snowflake and UUIDv7 run (for the model's calibration tests).")
    private Path traceDir;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "innodb",
            description = {"Engine: innodb, postgresql or sqlite (default: ${DEFAULT-VALUE}). Without --real the"
                    + " calibrated prediction follows its split rules; the textbook scoreboard takes its page layout."})
    private String engine;

    @Option(names = "--page-size", paramLabel = "SIZE",
            description = "Page size: 4k, 8k, 16k, 32k or 64k (default: 16k for innodb, 8k for postgresql).")
    private String pageSize;

    @Option(names = "--buffer-pool", paramLabel = "PAGES", defaultValue = "1024",
            description = "Pages the LRU buffer pool holds; 0 for none (default: ${DEFAULT-VALUE}).")
    private int bufferPool;

    @Option(names = "--writers", paramLabel = "N[,N...]", split = ",", defaultValue = "4",
            description = {"Writers making keys at once, 1..1023 (default: ${DEFAULT-VALUE}).",
                    "With --real a comma-separated list runs each count, e.g. 4,16; without it one count."})
    private List<Integer> writerCounts;

    @Option(names = "--rows-per-ms", paramLabel = "N", defaultValue = "1",
            description = "Rows per millisecond of simulated time, 1..4096 (default: ${DEFAULT-VALUE}).")
    private int rowsPerMilli;

    @Option(names = "--client", paramLabel = "STYLE", defaultValue = "single",
            description = "How writers send a transaction's rows: single (one INSERT each), batch (one JDBC batch) or"
                    + " multi-row (one sorted multi-row INSERT) (default: ${DEFAULT-VALUE}; --multi-row sets multi-row).")
    private String client;

    @Option(names = "--rows-per-second", paramLabel = "R", defaultValue = "0",
            description = "All writers' insert rate together, rows/s: each writer's transactions arrive at random at its share"
                    + " of it (with --real the writers keep to it); 0 for writers as fast as the engine goes (default: ${DEFAULT-VALUE}).")
    private double rowsPerSecond;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "42",
            description = "Seed of the key streams (default: ${DEFAULT-VALUE}).")
    private long seed;

    @ArgGroup(exclusive = true)
    private ChartFile chart;

    /** Where the chart goes: SVG or HTML, not both. */
    static final class ChartFile {
        @Option(names = "--svg", paramLabel = "FILE", description = "Also write a chart of leaf fill and pages as rows grow, as SVG.")
        Path svg;

        @Option(names = "--html", paramLabel = "FILE", description = "Also write the scoreboard and the chart as one HTML page.")
        Path html;
    }

    IndexCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (publicIds != null && !publicIds.isEmpty()) {
            return real || (urls != null && !urls.isEmpty()) ? publicIds() : publicIdPrediction();
        }
        if (real || (urls != null && !urls.isEmpty())) {
            return new dev.idgen.index.run.RealIndex(spec.commandLine().getOut(), spec.commandLine().getErr(),
                    context.stderrIsTerminal()).run(realSettings());
        }
        check(writerCounts.size() == 1, "--writers " + writerCounts + " names " + writerCounts.size()
                + " counts; expected one without --real (a list such as 4,16 runs each count with --real)");
        int writers = writerCounts.get(0);
        long rows = this.rows == null ? 1_000_000 : this.rows;
        List<KeySource> sources = sources();
        PageFormat format = pageFormat();
        check(rows >= 1, "--rows " + rows + " is out of range; expected 1 or more");
        check(bufferPool >= 0, "--buffer-pool " + bufferPool + " is out of range; expected 0 or more pages");
        check(writers >= 1 && writers <= 1023, "--writers " + writers + " is out of range; expected 1..1023");
        check(rowsPerMilli >= 1 && rowsPerMilli <= 4096, "--rows-per-ms " + rowsPerMilli + " is out of range; expected 1..4096");
        UnaryOperator<IndexModel.Builder> settings = b -> b.pageFormat(format).bufferPoolPages(bufferPool);
        IndexRun run = new IndexRun(rows, settings, writers, rowsPerMilli, seed);

        PrintWriter out = spec.commandLine().getOut();
        predict(out, this.rows == null ? 100_000 : rows, writers);
        if (sources.isEmpty()) {
            check(chart == null, "--svg and --html draw the textbook scoreboard's keys (" + KeyName.NAMES
                    + "); --keys " + String.join(",", keys) + " names none of them");
            out.flush();
            return IdgenCommand.EXIT_OK;
        }
        String subtitle = String.format(Locale.ROOT, "%,d rows, %s %d KiB pages, %s",
                rows, format.name(), format.pageBytes() / 1024, bufferPool == 0 ? "no buffer pool"
                        : String.format(Locale.ROOT, "%,d-page buffer pool", bufferPool));
        String header = String.format(Locale.ROOT, "%s, key-only rows, %d writer%s at %d row%s/ms, seed %d",
                subtitle, writers, writers == 1 ? "" : "s", rowsPerMilli, rowsPerMilli == 1 ? "" : "s", seed);
        Progress progress = new Progress(spec.commandLine().getErr(), context.stderrIsTerminal(),
                rows * sources.size(), System::nanoTime);
        List<IndexRun.Result> results = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            KeySource source = sources.get(i);
            long before = rows * i;
            progress.update(before, source.label());
            results.add(run.run(source, done -> progress.update(before + done, source.label())));
        }
        progress.finish();
        // the model's 16-byte key is a uuid column on PostgreSQL, BINARY(16) on InnoDB
        String table = ScoreboardText.table(results, format.name().equals(PageFormat.POSTGRESQL.name())
                ? t -> t == KeyType.BINARY16 ? "uuid" : t.toString() : KeyType::toString);
        out.println(header);
        out.println();
        out.print(table);
        if (chart != null) {
            String svg = IndexChart.svg(results, subtitle);
            Path file = chart.svg != null ? chart.svg : chart.html;
            String content = chart.svg != null ? svg : IndexChart.html(svg, "idgen index: " + header, table);
            try {
                Files.writeString(file, content, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new BadInputException("cannot write chart to '" + file + "': " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : " " + e.getMessage()) + "; expected a writable file path");
            }
            out.println();
            out.println("chart written to " + file);
        }
        out.flush();
        return IdgenCommand.EXIT_OK;
    }

    /**
     * The calibrated prediction for the chosen engine: the writers' interleaving simulated from the
     * workload, the engine's own split rules (those the --real replay matches page for page).
     */
    private void predict(PrintWriter out, long rows, int writers) {
        IndexEngine model = indexEngine();
        if (rows > 5_000_000) {
            out.printf(Locale.ROOT, "(no prediction above 5,000,000 rows: --rows %,d; the textbook scoreboard follows)%n%n", rows);
            return;
        }
        Workload w;
        try {
            w = workload(rows, writers, 0, false).withClient(clientStyle()).withRate(rowsPerSecond);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        out.printf(Locale.ROOT, "Predicted for %s from the workload: %s%n", engineName(model), describe(w));
        PredictionAccuracy accuracy = PredictionAccuracy.recorded();
        WorkloadClass workloadClass = WorkloadClass.of(model, w);
        List<String> lines = new ArrayList<>();
        StatedPrediction first = null;
        for (RealKey key : realKeys()) {
            StatedPrediction p = StatedPrediction.of(WorkloadPredictor.builder(model, key).workload(w).seeds(2).build().predict(),
                    accuracy, workloadClass, key);
            first = first == null ? p : first;
            String note = p.verdict().ofKey() != null && p.verdict().ofKey().knownMiss() ? "; " + p.verdict().keySentence() : "";
            lines.add(String.format(Locale.ROOT, "  %-34s %s%s", key.label(), p, note));
        }
        if (first != null) {
            out.println("Workload class " + first.verdict().classSentence() + ".");
            out.println("(the writers' interleaving simulated, seeded; " + first.rangeSentence() + ")");
            lines.forEach(out::println);
        }
        out.println();
    }

    /** @return e.g. {@code 100,000 rows, 4 writers, 1-10 rows per transaction, key-only rows, one INSERT per row, free-running} */
    private static String describe(Workload w) {
        return String.format(Locale.ROOT, "%,d rows, %d writer%s, %s rows per transaction, %s, %s, %s", w.rows(), w.writers(),
                w.writers() == 1 ? "" : "s", w.txRows(), w.payloadBytes() == 0 ? "key-only rows" : w.payloadBytes() + "-byte rows",
                switch (w.client()) {
                    case SINGLE -> "one INSERT per row";
                    case BATCH -> "one JDBC batch per transaction";
                    case MULTI_ROW -> "one sorted multi-row INSERT per transaction";
                }, w.rateLimited() ? String.format(Locale.ROOT, "%,.0f rows/s together", w.rowsPerSecond()) : "free-running");
    }

    private static String engineName(IndexEngine e) {
        return e == IndexEngine.INNODB ? "InnoDB" : e == IndexEngine.POSTGRESQL ? "PostgreSQL" : "SQLite";
    }

    private IndexEngine indexEngine() {
        return switch (engine.strip().toLowerCase(Locale.ROOT)) {
            case "postgresql", "postgres" -> IndexEngine.POSTGRESQL;
            case "sqlite" -> IndexEngine.SQLITE;
            case "innodb" -> IndexEngine.INNODB;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--engine '" + engine + "' is not an engine; expected innodb, postgresql or sqlite");
        };
    }

    /** Every key of {@code --keys}, each once, in order: the prediction takes them all. */
    private List<RealKey> realKeys() {
        List<RealKey> chosen = new ArrayList<>();
        for (String k : keys) {
            try {
                RealKey key = RealKey.parse(k);
                if (!chosen.contains(key)) {
                    chosen.add(key);
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--keys: " + e.getMessage());
            }
        }
        return chosen;
    }

    /** {@code --client}, or multi-row when {@code --multi-row} is given. */
    private dev.idgen.index.engine.ClientStyle clientStyle() {
        dev.idgen.index.engine.ClientStyle style;
        try {
            style = dev.idgen.index.engine.ClientStyle.parse(client);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--client: " + e.getMessage());
        }
        check(!multiRow || style != dev.idgen.index.engine.ClientStyle.BATCH,
                "--multi-row and --client batch name two client styles; expected one");
        return multiRow ? dev.idgen.index.engine.ClientStyle.MULTI_ROW : style;
    }

    private dev.idgen.index.engine.Workload workload(long rows, int writers, int secondaryIndexes, boolean multi) {
        String tx = txRows != null ? txRows.strip() : writers == 1 ? "100" : "1-10";
        int min;
        int max;
        try {
            int dash = tx.indexOf('-');
            min = Integer.parseInt(dash < 0 ? tx : tx.substring(0, dash).strip());
            max = dash < 0 ? min : Integer.parseInt(tx.substring(dash + 1).strip());
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tx-rows '" + tx
                    + "' is not a count; expected N or N-M, such as 100 or 1-10");
        }
        return new dev.idgen.index.engine.Workload(rows, writers, min, max, payload, secondaryIndexes, multi, seed);
    }

    private dev.idgen.index.run.RealIndex.Settings realSettings() {
        List<dev.idgen.index.engine.RealKey> chosen = new ArrayList<>();
        for (String k : keys) {
            try {
                dev.idgen.index.engine.RealKey key = dev.idgen.index.engine.RealKey.parse(k);
                if (!chosen.contains(key)) {
                    chosen.add(key);
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--keys: " + e.getMessage());
            }
        }
        check(rows == null || (rows >= 1 && rows <= 50_000_000), "--rows " + rows + " is out of range; expected 1..50000000 with --real");
        List<dev.idgen.index.engine.Workload> workloads = new ArrayList<>();
        for (int writers : new LinkedHashSet<>(writerCounts)) {
            check(writers >= 1 && writers <= 1023, "--writers " + writers + " is out of range; expected 1..1023");
            String tx = txRows != null ? txRows.strip() : writers == 1 ? "100" : "1-10";
            int min;
            int max;
            try {
                int dash = tx.indexOf('-');
                min = Integer.parseInt(dash < 0 ? tx : tx.substring(0, dash).strip());
                max = dash < 0 ? min : Integer.parseInt(tx.substring(dash + 1).strip());
            } catch (NumberFormatException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--tx-rows '" + tx
                        + "' is not a count; expected N or N-M, such as 100 or 1-10");
            }
            try {
                workloads.add(new dev.idgen.index.engine.Workload(rows == null ? 100_000 : rows, writers, min, max, payload,
                        secondary, clientStyle(), seed, serverOrder, turnstile, serverTime, rowsPerSecond));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return new dev.idgen.index.run.RealIndex.Settings(urls == null ? List.of() : urls, chosen, workloads, json,
                chart == null ? null : chart.html, chart == null ? null : chart.svg, traceDir, keepTables);
    }

    /** {@code --public-id}: the secondary-index runs, one writer each. */
    private int publicIds() {
        List<RealKey> kinds = publicIdKinds();
        long n = rows == null ? 100_000 : rows;
        check(n >= 1 && n <= 10_000_000, "--rows " + n + " is out of range; expected 1..10000000 with --public-id");
        boolean writersGiven = spec.commandLine().getParseResult().hasMatchedOption("--writers");
        check(!writersGiven || writerCounts.equals(List.of(1)), "--writers " + writerCounts + " with --real --public-id;"
                + " the measurement loads from one writer (without --real, --public-id predicts N writers)");
        int tx;
        try {
            String t = txRows == null ? "1000" : txRows.strip();
            tx = Integer.parseInt(t.substring(t.indexOf('-') + 1).strip());
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tx-rows '" + txRows
                    + "' is not a count; expected N or N-M, such as 1000");
        }
        check(tx >= 1 && tx <= 100_000, "--tx-rows " + tx + " is out of range; expected 1..100000 with --public-id");
        return new dev.idgen.index.run.PublicIdReport(spec.commandLine().getOut(), spec.commandLine().getErr())
                .run(urls == null ? List.of() : urls, publicIdPrimaryKey(), kinds, n, tx, json);
    }

    /**
     * {@code --public-id} without an engine: the secondary index's prediction at the workload's
     * writers, each with its class's standing.
     */
    private int publicIdPrediction() {
        List<RealKey> kinds = publicIdKinds();
        RealKey pk = publicIdPrimaryKey();
        check(writerCounts.size() == 1, "--writers " + writerCounts + " names " + writerCounts.size()
                + " counts; expected one without --real");
        int writers = writerCounts.get(0);
        long n = rows == null ? 100_000 : rows;
        check(n >= 1 && n <= 5_000_000, "--rows " + n + " is out of range; expected 1..5000000 for a prediction");
        check(writers >= 1 && writers <= 1023, "--writers " + writers + " is out of range; expected 1..1023");
        IndexEngine model = indexEngine();
        Workload w;
        try {
            w = workload(n, writers, 0, false).withClient(clientStyle()).withRate(rowsPerSecond);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "Predicted for %s from the workload: a UUID public_id secondary index beside a BIGINT primary key"
                + " of %s ids; %s%n", engineName(model), pk.label(), describe(w));
        WorkloadClass workloadClass = WorkloadClass.of(model, w, true);
        PredictionAccuracy accuracy = PredictionAccuracy.recorded();
        boolean first = true;
        for (RealKey kind : kinds) {
            StatedPrediction p = StatedPrediction.of(WorkloadPredictor.builder(model, kind).secondary(true).primaryKey(pk)
                    .workload(w).seeds(2).build().predict(), accuracy, workloadClass, kind);
            if (first) {
                out.println("Workload class " + p.verdict().classSentence() + ".");
                out.println("(the writers' interleaving simulated, seeded; " + p.rangeSentence() + ")");
                first = false;
            }
            out.printf(Locale.ROOT, "  %-34s %s%n", kind.label(), p);
        }
        out.flush();
        return IdgenCommand.EXIT_OK;
    }

    /** The UUID kinds of {@code --public-id}, each once, in order. */
    private List<RealKey> publicIdKinds() {
        List<RealKey> kinds = new ArrayList<>();
        for (String k : new LinkedHashSet<>(publicIds)) {
            RealKey kind;
            try {
                kind = RealKey.parse(k);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--public-id: " + e.getMessage());
            }
            check(kind.keyType() == KeyType.BINARY16, "--public-id '" + k + "' is not a UUID kind; expected uuid7, uuid7-submilli or uuid4");
            kinds.add(kind);
        }
        return kinds;
    }

    /** {@code --primary-key}: the engine's counter or Snowflake ids. */
    private RealKey publicIdPrimaryKey() {
        RealKey pk;
        try {
            pk = RealKey.parse(primaryKey);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--primary-key: " + e.getMessage());
        }
        check(pk == RealKey.AUTO_INCREMENT || pk == RealKey.SNOWFLAKE,
                "--primary-key '" + primaryKey + "' is not offered beside --public-id; expected autoinc or snowflake");
        return pk;
    }

    /** The keys of {@code --keys} the textbook scoreboard has (the many-writer layouts are the prediction's alone). */
    private List<KeySource> sources() {
        Set<KeySource> chosen = new LinkedHashSet<>();
        for (RealKey k : realKeys()) {
            try {
                chosen.add(KeyName.parse(k.cliName()));
            } catch (IllegalArgumentException e) {
                // a many-writer layout: predicted above, not in the scoreboard
            }
        }
        return List.copyOf(chosen);
    }

    private PageFormat pageFormat() {
        PageFormat base = switch (engine.strip().toLowerCase(Locale.ROOT)) {
            case "innodb" -> PageFormat.INNODB;
            case "postgresql", "postgres" -> PageFormat.POSTGRESQL;
            case "sqlite" -> PageFormat.SQLITE;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--engine '" + engine + "' is not an engine; expected innodb, postgresql or sqlite");
        };
        if (pageSize == null) {
            return base;
        }
        int bytes = switch (pageSize.strip().toLowerCase(Locale.ROOT)) {
            case "4k", "4096" -> 4096;
            case "8k", "8192" -> 8192;
            case "16k", "16384" -> 16384;
            case "32k", "32768" -> 32768;
            case "64k", "65536" -> 65536;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--page-size '" + pageSize + "' is not a page size; expected 4k, 8k, 16k, 32k or 64k");
        };
        return base.withPageBytes(bytes);
    }

    private void check(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }
}
