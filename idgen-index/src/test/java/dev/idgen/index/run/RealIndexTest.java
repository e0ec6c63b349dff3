package dev.idgen.index.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.index.engine.Database;
import dev.idgen.index.engine.RealKey;
import dev.idgen.index.engine.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@code --real} run over PostgreSQL and MariaDB at two writer counts: every engine, writer
 * count and key gets a line of engine beside prediction, each engine a sentence of advice, each run
 * a JSON line with the prediction's error, and the page a section per engine. Skipped when a server
 * does not answer, failed under {@code CI=true}.
 */
class RealIndexTest {

    private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
    private static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @Test
    void twoEnginesAndTwoWriterCountsGoIntoOneReport(@TempDir Path dir) throws Exception {
        answers(Database.POSTGRESQL, POSTGRES);
        answers(Database.MARIADB, MARIADB);
        List<Workload> workloads = List.of(new Workload(2_000, 1, 100, 100, 0, 0, false, 3),
                new Workload(2_000, 4, 1, 10, 0, 0, false, 3));
        Path json = dir.resolve("runs.jsonl");
        Path html = dir.resolve("report.html");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new RealIndex(new PrintWriter(out), new PrintWriter(err), false).run(new RealIndex.Settings(
                List.of(POSTGRES, MARIADB), List.of(RealKey.SNOWFLAKE, RealKey.UUID_V4), workloads, json, html, null, null, false));
        assertEquals(0, exit, err.toString());
        assertFalse(err.toString().contains("\r"), "no carriage return off a terminal: " + err);

        String text = out.toString();
        List<String> lines = Arrays.asList(text.split("\n"));
        for (String engine : List.of("PostgreSQL 1\\d\\.\\d+", "InnoDB, MariaDB \\d+\\.\\d+\\.\\d+")) {
            for (String w : List.of("1", "4")) {
                for (String key : List.of("Snowflake", "UUIDv4")) {
                    String pattern = engine + "\\s+" + w + "\\s+" + key + "\\s+2,000\\s+" + (w.equals("1") ? "100" : "1-10")
                            + "\\s+" + (key.equals("Snowflake") ? "8" : "16") + "\\s+\\d+\\s+\\d+ \\(\\d+-\\d+\\)\\s+[-+]\\d+\\.\\d %"
                            + "\\s+\\d+\\.\\d %\\s+\\d+\\.\\d %\\s+(not )?calibrated";
                    assertEquals(1, lines.stream().filter(l -> l.matches(pattern)).count(), pattern + " in\n" + text);
                }
            }
            assertEquals(1, lines.stream().filter(l -> l.matches(engine + ": at 4 writers .*\\.")).count(),
                    "one sentence of advice for " + engine + " in\n" + text);
        }

        List<String> runs = Files.readAllLines(json, StandardCharsets.UTF_8);
        assertEquals(8, runs.size(), String.join("\n", runs));
        for (String run : runs) {
            assertTrue(run.contains("\"predictionError\":") && run.contains("\"predictedLeafPages\":"), run);
            assertTrue(run.matches(".*\"workloadClass\":\"(postgresql|innodb)/(1/any/any/any|2-4/single/free/1-10)\",\"calibrated\":(true|false).*")
                    && run.contains("\"loadAverageStart\":") && run.contains("\"client\":\"single\""), run);
        }
        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertTrue(page.matches("(?s).*<h2>PostgreSQL 1\\d\\.\\d+</h2>.*<h2>InnoDB, MariaDB [0-9.]+</h2>.*"), page);
        assertEquals(2, page.split("<p class=\"advice\">", -1).length - 1, "one advice per engine");
        assertTrue(page.contains("<p>2,000 rows, 4 writers, 1-10 rows per transaction, 16-byte rows, one INSERT per row</p>"), page);
    }

    private static void answers(Database database, String url) {
        try (Connection c = database.connect(url)) {
            assertFalse(c.isClosed());
        } catch (SQLException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(database + " at " + url + " does not answer under CI=true: " + e.getMessage());
            }
            Assumptions.abort(database + " at " + url + " does not answer: " + e.getMessage());
        }
    }
}
