package dev.idgen.index.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The report a person reads, from a fixed, hand-built set of figures (no engine runs here): the
 * workload stated, engine beside model, the fixed 0-100 % axis and advice worked out from the
 * figures. {@link ComparisonReportBrowserTest} looks at the same page in Chromium.
 */
class ComparisonReportTest {

    static final String PG = "PostgreSQL 16.4";
    static final String INNODB = "InnoDB, MariaDB 10.11.6";
    static final String SQLITE = "SQLite 3.46.0";

    static ComparisonReport.Row row(String engine, String key, int writers, double fill, long pages, double predictedFill,
            long predicted) {
        return new ComparisonReport.Row(engine, key, writers, 20_000, writers == 1 ? "100" : "1-10", 16, "one INSERT per row",
                pages, fill, predicted, predicted - 3, predicted + 3, predictedFill, writers != 16);
    }

    /** Two engines at 4 and 16 writers, and SQLite at one, with figures chosen to tell the advice apart. */
    static List<ComparisonReport.Row> rows() {
        return List.of(
                row(PG, "Snowflake", 4, 0.90, 100, 0.89, 101),
                row(PG, "UUIDv4", 4, 0.64, 141, 0.65, 140),
                row(PG, "Snowflake", 16, 0.88, 102, 0.87, 103),
                row(PG, "UUIDv4", 16, 0.63, 143, 0.62, 145),
                row(INNODB, "Snowflake", 4, 0.92, 200, 0.88, 210),
                row(INNODB, "UUIDv7", 4, 0.90, 205, 0.90, 206),
                row(INNODB, "Snowflake", 16, 0.50, 370, 0.41, 450),
                row(INNODB, "UUIDv7", 16, 0.38, 480, 0.39, 470),
                row(SQLITE, "Snowflake", 1, 0.88, 90, 0.88, 90),
                row(SQLITE, "UUIDv4", 1, 0.87, 91, 0.87, 92));
    }

    @Test
    void adviceIsWorkedOutFromTheFigures() {
        var byEngine = ComparisonReport.byEngine(rows());
        // 143 / 102 = 1.40 times the pages; errors +1.0, -0.7, +1.0, +1.4 %: within 2 %
        assertEquals("PostgreSQL 16.4: at 16 writers Snowflake left the leaf pages fullest (88 %, 102 pages) and UUIDv4 took"
                + " 1.4 times as many (63 % full); the prediction from the workload was within 2 % of the engine on every row;"
                + " 2 of 4 rows are of workload classes the prediction is not calibrated on.",
                ComparisonReport.advice(byEngine.get(PG)));
        // 480 / 370 = 1.30; UUIDv7 lost 52 points from 4 to 16 writers, Snowflake 42; 450 / 370 = +21.6 %
        assertEquals("InnoDB, MariaDB 10.11.6: at 16 writers Snowflake left the leaf pages fullest (50 %, 370 pages) and UUIDv7"
                + " took 1.3 times as many (38 % full); UUIDv7 fell from 90 % at 4 writers to 38 % at 16; the prediction missed"
                + " by +22 % (Snowflake, 16 writers, a workload class it is not calibrated on), so measure this engine rather"
                + " than trust the prediction; 2 of 4 rows are of workload classes the prediction is not calibrated on.",
                ComparisonReport.advice(byEngine.get(INNODB)));
        // 88 and 87 %: under 3 points apart; 92 / 91 = +1.1 %
        assertEquals("SQLite 3.46.0: at 1 writer every key filled its leaf pages alike (87-88 %), so choose on other grounds;"
                + " the prediction from the workload was within 2 % of the engine on every row.",
                ComparisonReport.advice(byEngine.get(SQLITE)));
        // the same engine with other figures gets another sentence, not a canned one
        String swapped = ComparisonReport.advice(List.of(row(PG, "Snowflake", 4, 0.60, 150, 0.60, 150),
                row(PG, "UUIDv4", 4, 0.90, 100, 0.90, 100)));
        assertTrue(swapped.startsWith("PostgreSQL 16.4: at 4 writers UUIDv4 left the leaf pages fullest (90 %, 100 pages)"
                + " and Snowflake took 1.5 times as many (60 % full)"), swapped);
    }

    @Test
    void theTableAndThePageStateTheWorkloadBesideEngineAndModel() {
        String text = ComparisonReport.text(rows());
        String[] lines = text.split("\n");
        assertEquals(11, lines.length, text);
        assertTrue(lines[0].matches("engine\\s+writers\\s+key\\s+rows\\s+rows/tx\\s+row bytes\\s+leaf pages\\s+predicted \\(range\\)"
                + "\\s+error\\s+fill\\s+predicted\\s+workload class"), lines[0]);
        assertTrue(lines[7].matches("InnoDB, MariaDB 10\\.11\\.6\\s+16\\s+Snowflake\\s+20,000\\s+1-10\\s+16\\s+370\\s+450 \\(447-453\\)"
                + "\\s+\\+21\\.6 %\\s+50\\.0 %\\s+41\\.0 %\\s+not calibrated"), lines[7]);
        assertTrue(lines[5].endsWith("  calibrated"), lines[5]);

        String html = ComparisonReport.html("Which key", rows(), "");
        for (String engine : List.of(PG, INNODB, SQLITE)) {
            assertTrue(html.contains("<h2>" + engine + "</h2>"), engine);
        }
        assertTrue(html.contains("<p>20,000 rows, 16 writers, 1-10 rows per transaction, 16-byte rows, one INSERT per row</p>"), html);
        assertTrue(html.contains("<p>20,000 rows, 1 writer, 100 rows per transaction, 16-byte rows, one INSERT per row</p>"), html);
        assertTrue(html.contains("<p class=\"advice\">InnoDB, MariaDB 10.11.6: at 16 writers Snowflake"), html);
        assertEquals(3, count(html, ">100 %</text>"), "one axis per engine");
        // a fixed axis: 520 px is 100 %, so the 38 %-full bar is 198 px wide though it is its chart's emptiest
        assertTrue(html.contains("width=\"198\" height=\"12\" fill=\"#3b6ea5\""), html);
        assertTrue(html.contains("width=\"260\" height=\"12\" fill=\"#3b6ea5\""), "50 % is 260 px");
        assertTrue(html.contains(">UUIDv7, 16 writers</text>"), html);
        assertTrue(!html.contains("Each run"), "no details section when none is given");
        assertTrue(ComparisonReport.html("t", rows(), "run one\n<x>").contains("<pre>run one\n&lt;x&gt;</pre>"));
    }

    @Test
    void badRowsAreRefusedNamingTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> row(PG, "UUIDv4", 4, 1.2, 100, 0.5, 100));
        assertEquals("engine fill 1.2 is out of range; expected 0..1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> row(PG, "UUIDv4", 0, 0.5, 100, 0.5, 100));
        assertEquals("writers 0 is out of range; expected 1 or more", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ComparisonReport.advice(List.of()));
        assertEquals("advice needs 1 or more rows; got none", e.getMessage());
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
