package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.index.model.IndexScoreboard;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeySource;
import dev.idgen.index.model.PageFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexCommandTest {

    /** The row of {@code label} in the scoreboard, split into cells. */
    static String[] row(String out, String label) {
        return Arrays.stream(out.split("\n")).filter(l -> l.startsWith(label + "  "))
                .findFirst().map(l -> l.substring(label.length()).strip().split("\\s{2,}"))
                .orElseThrow(() -> new AssertionError("no row " + label + " in\n" + out));
    }

    static void assertRowIs(String out, KeySource source, IndexStats s, boolean pool) {
        assertRowIs(out, source, s, pool, s.keyType().toString());
    }

    static void assertRowIs(String out, KeySource source, IndexStats s, boolean pool, String column) {
        String[] cells = row(out, source.label());
        String where = source + " in\n" + out;
        assertEquals(column, cells[0], where);
        assertEquals(String.format(Locale.ROOT, "%,d", s.leafSplits()), cells[1], where);
        assertEquals(String.format(Locale.ROOT, "%,d", s.pageWrites()), cells[2], where);
        assertEquals(String.format(Locale.ROOT, "%,d", s.pages()), cells[3], where);
        assertEquals(String.format(Locale.ROOT, "%,d", s.leafPages()), cells[4], where);
        assertEquals(String.format(Locale.ROOT, "%.1f %%", 100 * s.averageLeafFill()), cells[5], where);
        assertEquals(Integer.toString(s.height()), cells[6], where);
        assertEquals(String.format(Locale.ROOT, "%.1f MiB", s.indexBytes() / 1048576.0), cells[7], where);
        assertEquals(pool ? 9 : 8, cells.length, where);
        if (pool) {
            assertEquals(String.format(Locale.ROOT, "%.2f %%", 100 * s.bufferPoolHitRate()), cells[8], where);
        }
    }

    @Test
    void numbersAreTheTestkitScoreboardsForTheSameSettings() {
        Cli.Run r = Cli.run("index", "--keys", "uuid7,uuid4,uuid4-text,snowflake,autoinc", "--rows", "20000",
                "--page-size", "8k", "--buffer-pool", "8", "--writers", "3", "--rows-per-ms", "2", "--seed", "7");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err(), "no progress bar when stderr is not a terminal");
        IndexScoreboard expected = IndexScoreboard.builder().rows(20000).generators(3).idsPerMilli(2).seed(7)
                .index(b -> b.pageFormat(PageFormat.INNODB.withPageBytes(8192)).bufferPoolPages(8)).build();
        for (KeySource source : KeySource.values()) {
            assertRowIs(r.out(), source, expected.run(source), true);
        }
        assertTrue(r.out().startsWith("Predicted for InnoDB from the workload: 20,000 rows, 3 writers, 1-10 rows per transaction"),
                r.out());
        assertTrue(r.out().contains("\n\n20,000 rows, InnoDB 8 KiB pages, 8-page buffer pool, key-only rows, 3 writers at 2 rows/ms, seed 7\n"),
                r.out());
    }

    @Test
    void withoutRealTheCalibratedPredictionForTheEngineComesFirst() {
        Cli.Run inno = Cli.run("index", "--keys", "snowflake,uuid4", "--rows", "20000", "--writers", "4", "--seed", "5");
        Cli.Run pg = Cli.run("index", "--keys", "snowflake,uuid4", "--rows", "20000", "--writers", "4", "--seed", "5",
                "--engine", "postgresql");
        assertEquals(0, inno.exit(), inno.err());
        assertEquals(0, pg.exit(), pg.err());
        dev.idgen.index.engine.Workload w = new dev.idgen.index.engine.Workload(20_000, 4, 1, 10, 0, 0, false, 5);
        for (var engine : List.of(dev.idgen.index.model.IndexEngine.INNODB, dev.idgen.index.model.IndexEngine.POSTGRESQL)) {
            String out = engine == dev.idgen.index.model.IndexEngine.INNODB ? inno.out() : pg.out();
            var p = dev.idgen.index.predict.StatedPrediction.of(dev.idgen.index.predict.WorkloadPredictor.builder(engine,
                    dev.idgen.index.engine.RealKey.SNOWFLAKE).workload(w).seeds(2).build().predict(),
                    dev.idgen.index.predict.PredictionAccuracy.recorded(), dev.idgen.index.predict.WorkloadClass.of(engine, w),
                    dev.idgen.index.engine.RealKey.SNOWFLAKE);
            assertTrue(out.contains("  Snowflake                          " + p + "\n"), p + " in\n" + out);
            // the class is named, with what its recorded runs said
            assertTrue(out.contains("\nWorkload class " + p.verdict().classSentence() + ".\n"), out);
            if (engine == dev.idgen.index.model.IndexEngine.INNODB) {
                assertTrue(p.verdict().calibrated(), "four free-running writers of 1-10 rows per transaction: "
                        + p.verdict().classSentence());
            }
        }
        // the engines' own rules, not the textbook's: four interleaved writers of Snowflake keys leave
        // InnoDB's pages about half full, while PostgreSQL's rightmost split keeps them at its fillfactor
        Matcher innoFill = Pattern.compile("  Snowflake .*?, ([0-9.]+) % full").matcher(inno.out());
        Matcher pgFill = Pattern.compile("  Snowflake .*?, ([0-9.]+) % full").matcher(pg.out());
        assertTrue(innoFill.find() && pgFill.find(), inno.out() + pg.out());
        assertTrue(Double.parseDouble(innoFill.group(1)) < 65, inno.out());
        assertTrue(Double.parseDouble(pgFill.group(1)) > 85, pg.out());
    }

    /** The commands of docs/index-real.md's "Prediction from a workload", run at 5,000 rows. */
    @Test
    void theDocsPredictionCommandsRun() throws java.io.IOException {
        String doc = Files.readString(Path.of("..", "docs", "index-real.md"), StandardCharsets.UTF_8);
        String section = doc.substring(doc.indexOf("## Prediction from a workload"));
        String block = section.substring(section.indexOf("```sh\n") + 6, section.indexOf("```", section.indexOf("```sh\n") + 6));
        List<String> commands = Arrays.stream(block.split("\n")).filter(l -> l.startsWith("./idgen index ")).toList();
        assertEquals(2, commands.size(), block);
        for (String command : commands) {
            String[] args = command.substring("./idgen ".length()).replaceAll("--rows \\d+", "--rows 5000").split(" ");
            Cli.Run r = Cli.run(args);
            assertEquals(0, r.exit(), command + ": " + r.err());
            assertTrue(r.out().startsWith("Predicted for "), command + ":\n" + r.out());
            assertTrue(r.out().contains("leaf pages ("), command + ":\n" + r.out());
        }
    }

    @Test
    void predictionKnobsAreChecked() {
        assertUsage("--client: 'bulk' is not a client style", "index", "--client", "bulk", "--rows", "100");
        assertUsage("--multi-row and --client batch name two client styles", "index", "--client", "batch", "--multi-row");
        assertUsage("insert rate -5.0 rows/s is out of range", "index", "--rows-per-second", "-5", "--rows", "100");
    }

    /** Every key the tool measures is predicted without an engine; the layouts the scoreboard lacks are the prediction's alone. */
    @Test
    void everyKeyIsPredictedOffline() {
        String keys = "snowflake-seq-first,snowflake-machine-first,uuid7-submilli,blocks,segment-100,segment-1000,segment-10000,"
                + "segment-100000";
        Cli.Run r = Cli.run("index", "--keys", keys, "--rows", "20000", "--writers", "8");
        assertEquals(0, r.exit(), r.err());
        for (String k : keys.split(",")) {
            String label = dev.idgen.index.engine.RealKey.parse(k).label();
            assertTrue(Pattern.compile("\n  " + Pattern.quote(label) + " +[0-9,]+ leaf pages \\([0-9,]+-[0-9,]+\\), [0-9.]+ % full")
                    .matcher(r.out()).find(), label + " in\n" + r.out());
        }
        assertTrue(!r.out().contains("leaf splits"), "no textbook scoreboard for layouts it lacks:\n" + r.out());
        // the sequence-first layout misses on InnoDB at 5-16 writers: the line says so
        assertTrue(r.out().contains("Snowflake, sequence above machine") && r.out().contains("a known miss, not calibrated"), r.out());
        Cli.Run chart = Cli.run("index", "--keys", "blocks", "--rows", "100", "--svg", "x.svg");
        assertEquals(IdgenCommand.EXIT_USAGE, chart.exit());
        assertTrue(chart.err().contains("--keys blocks names none of them"), chart.err());
    }

    /** {@code --public-id} without an engine predicts the secondary index at N writers, each kind with its class. */
    @Test
    void aPublicIdIndexIsPredictedAtSeveralWritersWithoutAnEngine() {
        Cli.Run r = Cli.run("index", "--public-id", "uuid7,uuid4", "--writers", "16", "--rows", "20000", "--primary-key", "snowflake");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("Predicted for InnoDB from the workload: a UUID public_id secondary index beside a BIGINT"
                + " primary key of Snowflake ids; 20,000 rows, 16 writers, 1-10 rows per transaction"), r.out());
        assertTrue(r.out().contains("\nWorkload class InnoDB, a UUID public_id secondary index, 5-16 writers, one INSERT per row,"
                + " free-running, 1-10 rows per transaction: "), r.out());
        var w = new dev.idgen.index.engine.Workload(20_000, 16, 1, 10, 0, 0, false, 42);
        for (var kind : List.of(dev.idgen.index.engine.RealKey.UUID_V7, dev.idgen.index.engine.RealKey.UUID_V4)) {
            var p = dev.idgen.index.predict.WorkloadPredictor.builder(dev.idgen.index.model.IndexEngine.INNODB, kind).secondary(true)
                    .primaryKey(dev.idgen.index.engine.RealKey.SNOWFLAKE).workload(w).seeds(2).build().predict();
            assertTrue(Pattern.compile("\n  " + Pattern.quote(kind.label()) + " +" + String.format(Locale.ROOT, "%,d", p.pages())
                    + " leaf pages \\(").matcher(r.out()).find(), p + " in\n" + r.out());
        }
        assertUsage("--writers [4] with --real --public-id", "index", "--real", "--public-id", "uuid7", "--writers", "4");
    }

    /** Outside the classes of recorded runs the prediction says it is not calibrated, and what its range is. */
    @Test
    void aWorkloadOutsideTheRecordedClassesIsFlagged() {
        Cli.Run r = Cli.run("index", "--keys", "snowflake", "--rows", "20000", "--writers", "64");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\nWorkload class InnoDB, 33-1023 writers, one INSERT per row, free-running, 1-10 rows per"
                + " transaction: not calibrated: no recorded run of this class"), r.out());
        assertTrue(r.out().contains("The range is the simulations' spread"), r.out());
    }

    @Test
    void postgresqlPagesAndNoPool() {
        Cli.Run r = Cli.run("index", "--keys", "uuid4,snowflake", "--rows", "5000", "--engine", "postgresql", "--buffer-pool", "0");
        assertEquals(0, r.exit(), r.err());
        IndexScoreboard expected = IndexScoreboard.builder().rows(5000).generators(4).idsPerMilli(1).seed(42)
                .index(b -> b.pageFormat(PageFormat.POSTGRESQL)).build();
        assertRowIs(r.out(), KeySource.UUID_V4, expected.run(KeySource.UUID_V4), false, "uuid");
        assertRowIs(r.out(), KeySource.SNOWFLAKE, expected.run(KeySource.SNOWFLAKE), false, "BIGINT");
        List<String> rows = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("UUIDv4") || l.startsWith("Snowflake")).toList();
        assertTrue(rows.get(0).startsWith("UUIDv4"), "rows in the order asked for: " + rows);
    }

    @Test
    void svgChartIsWritten(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("chart.svg");
        Cli.Run r = Cli.run("index", "--keys", "uuid7,uuid4", "--rows", "2000", "--svg", svg.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().endsWith("chart written to " + svg + "\n"), r.out());
        String text = Files.readString(svg, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("<?xml") && text.contains("<svg") && text.strip().endsWith("</svg>"), text.substring(0, 200));
    }

    @Test
    void htmlPageHoldsTheScoreboardAndTheChart(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("index.html");
        Cli.Run r = Cli.run("index", "--keys", "uuid7,uuid4", "--rows", "2000", "--html", html.toString());
        assertEquals(0, r.exit(), r.err());
        String text = Files.readString(html, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("<!DOCTYPE html>") && text.contains("<svg") && text.contains("</html>"), text.substring(0, 200));
        assertTrue(text.contains(row(r.out(), "UUIDv4")[1]), "the page has the scoreboard");
    }

    @Test
    void aRealRunNamesItsOwnTablesAndKeepsThemOnlyWithKeepTables(@TempDir Path dir) throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("k.db");
        Cli.Run kept = Cli.run("index", "--url", url, "--keys", "snowflake", "--rows", "300", "--keep-tables");
        assertEquals(0, kept.exit(), kept.err());
        Matcher m = Pattern.compile("tables (idgen_ix_r[a-z0-9]{11,12}_)<key>, this run's own, kept after the run").matcher(kept.out());
        assertTrue(m.find(), kept.out());
        Cli.Run dropped = Cli.run("index", "--url", url, "--keys", "snowflake", "--rows", "300");
        assertEquals(0, dropped.exit(), dropped.err());
        assertTrue(dropped.out().contains("this run's own, each dropped after its key's run"), dropped.out());
        assertTrue(!dropped.out().contains(m.group(1)), "a second run tags its tables anew:\n" + dropped.out());
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet r = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'idgen_ix_%'")) {
            assertTrue(r.next());
            assertEquals(m.group(1) + "snowflake", r.getString(1), "only the kept table is left");
            assertTrue(!r.next(), "the second run's table was dropped");
        }
    }

    @Test
    void aPublicIdRunMeasuresTheSecondaryIndexBesideThePredictionAndLeavesNoTable(@TempDir Path dir) throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("p.db");
        Path json = dir.resolve("p.jsonl");
        Cli.Run r = Cli.run("index", "--url", url, "--public-id", "uuid7,uuid4", "--rows", "5000", "--tx-rows", "500",
                "--json", json.toString());
        assertEquals(0, r.exit(), r.err());
        // 5,000 ascending UUIDv7 entries of a SQLite index: a 16-byte blob and the rowid, 2 bytes
        Matcher v7 = Pattern.compile("SQLite [0-9.]+ +UUIDv7 +5,000 +500 +(\\d+) +(\\d+) \\(").matcher(r.out());
        assertTrue(v7.find(), r.out());
        assertEquals(v7.group(1), v7.group(2), "ascending keys: the engine's leaf pages are the predicted ones\n" + r.out());
        assertTrue(r.out().contains("UUIDv4"), r.out());
        List<String> lines = Files.readAllLines(json);
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("\"publicId\":\"uuid7\"") && lines.get(0).contains("\"secondaryLeafPages\":"
                + v7.group(1)), lines.get(0));
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet t = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'idgen_pid_%'")) {
            assertTrue(t.next());
            assertEquals(0, t.getInt(1), "the run drops its tables");
        }
        Cli.Run refused = Cli.run("index", "--url", url, "--public-id", "snowflake");
        assertEquals(2, refused.exit());
        assertTrue(refused.err().contains("--public-id 'snowflake' is not a UUID kind"), refused.err());
        Cli.Run badKey = Cli.run("index", "--url", url, "--public-id", "uuid7", "--primary-key", "uuid4");
        assertEquals(2, badKey.exit());
        assertTrue(badKey.err().contains("--primary-key 'uuid4' is not offered"), badKey.err());
    }

    @Test
    void aRealRunTakesSeveralEnginesAndWriterCountsIntoOneReport(@TempDir Path dir) throws Exception {
        String a = "jdbc:sqlite:" + dir.resolve("a.db");
        String b = "jdbc:sqlite:" + dir.resolve("b.db");
        Path html = dir.resolve("report.html");
        Cli.Run r = Cli.run("index", "--url", a + "," + b, "--writers", "1,2", "--keys", "snowflake,uuid4", "--rows", "400",
                "--html", html.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(!r.err().contains("\r"), "no carriage return when standard error is not a terminal: " + r.err());
        // two engines (both SQLite files) x two writer counts x two keys, engine beside prediction, workload stated
        long lines = Arrays.stream(r.out().split("\n"))
                .filter(l -> l.matches("SQLite 3\\S*\\s+[12]\\s+(Snowflake|UUIDv4)\\s+400\\s+(100|1-10)\\s+\\d+\\s+\\d+\\s+\\d+ \\(\\d+-\\d+\\)"
                        + "\\s+[-+]\\d+\\.\\d %\\s+\\d+\\.\\d %\\s+\\d+\\.\\d %\\s+(not )?calibrated")).count();
        assertEquals(8, lines, r.out());
        assertEquals(2, Pattern.compile("SQLite: tables idgen_ix_r[a-z0-9]{11,12}_<key>, this run's own").matcher(r.out()).results().count(),
                r.out());
        assertTrue(Pattern.compile("\nSQLite 3\\S*: at 2 writers ").matcher(r.out()).find(), "the advice: " + r.out());
        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertTrue(page.contains("<p>400 rows, 2 writers, 1-10 rows per transaction, 8-byte rows, one INSERT per row</p>"), page);
        assertTrue(page.contains("<p>400 rows, 1 writer, 100 rows per transaction, 8-byte rows, one INSERT per row</p>"), page);
        assertTrue(page.contains("<p class=\"advice\">SQLite 3."), page);
        assertTrue(page.contains(">UUIDv4, 2 writers</text>"), page);
    }

    @Test
    void svgAndHtmlTogetherIsAUsageError(@TempDir Path dir) {
        Cli.Run r = Cli.run("index", "--rows", "10", "--svg", dir.resolve("a").toString(), "--html", dir.resolve("b").toString());
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("mutually exclusive"), r.err());
    }

    @Test
    void unwritableChartIsBadInputInOneLine(@TempDir Path dir) {
        Path missing = dir.resolve("no/such/dir/chart.svg");
        Cli.Run r = Cli.run("index", "--keys", "autoinc", "--rows", "10", "--svg", missing.toString());
        assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit());
        assertTrue(r.err().startsWith("idgen index: cannot write chart to '" + missing + "'"), r.err());
        assertEquals(1, r.err().split("\n").length, r.err());
    }

    @Test
    void badSettingsAreUsageErrors() {
        assertUsage("--keys: 'uuid9' is not a key kind; expected one of " + dev.idgen.index.engine.RealKey.names(),
                "index", "--keys", "uuid7,uuid9");
        assertUsage("--page-size '12k' is not a page size", "index", "--page-size", "12k");
        assertUsage("--engine 'oracle' is not an engine", "index", "--engine", "oracle");
        assertUsage("--rows 0 is out of range", "index", "--rows", "0");
        assertUsage("--writers 0 is out of range", "index", "--writers", "0");
        assertUsage("--writers [4, 16] names 2 counts; expected one without --real", "index", "--writers", "4,16", "--rows", "100");
    }

    private static void assertUsage(String message, String... args) {
        Cli.Run r = Cli.run(args);
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals(1, r.err().split("\n").length, r.err());
    }
}
