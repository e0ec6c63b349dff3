package dev.idgen.index.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashSet;

/**
 * What a person choosing a key reads: per engine, each key and writer count with the leaf pages and
 * leaf fill the engine measured beside those the model predicted from the workload alone, the
 * workload stated (rows, writers, rows per transaction, row size), and one sentence of advice per
 * engine worked out from those figures ({@link #advice}). As a plain-text table ({@link #text}) and
 * as a self-contained HTML page ({@link #html}) whose bars share a fixed 0-100 % axis: a 38 %-full
 * index draws as 38 % of the axis, never as a full bar. Inline SVG, no script.
 */
public final class ComparisonReport {

    /** Pixels of the 0-100 % axis of every chart on the page. */
    public static final int BAR_WIDTH = 520;
    /** Pixels left of the axis for the bars' labels. */
    public static final int LABEL_WIDTH = 220;
    /** The colour of the engine's bars. */
    public static final String ENGINE_COLOUR = "#3b6ea5";
    /** The colour of the model's bars. */
    public static final String MODEL_COLOUR = "#d08a2c";

    private ComparisonReport() {
    }

    /**
     * One key at one writer count on one engine: the workload, what the engine measured and what the
     * model predicted from the workload alone.
     *
     * @param engine the engine, e.g. {@code InnoDB (MariaDB 10.11.6)}
     * @param key the key, e.g. {@code UUIDv7}
     * @param writers writers at once, 1 or more
     * @param rows rows inserted, 1 or more
     * @param txRows rows per transaction, e.g. {@code 100} or {@code 1-10}
     * @param rowBytes bytes of a row as stored: the key and the other columns, the engine's own per-row
     *     overhead left out; 1 or more
     * @param client how the rows were sent, e.g. {@code one INSERT per row}
     * @param engineLeafPages the engine's leaf pages, 1 or more
     * @param engineFill the engine's leaf fill, its own measure, 0 to 1
     * @param predictedLeafPages the model's predicted leaf pages (the simulations' median)
     * @param predictedMin the fewest leaf pages of any simulation
     * @param predictedMax the most leaf pages of any simulation
     * @param predictedFill the model's predicted leaf fill, 0 to 1
     */
    public record Row(String engine, String key, int writers, long rows, String txRows, int rowBytes, String client,
            long engineLeafPages, double engineFill, long predictedLeafPages, long predictedMin, long predictedMax,
            double predictedFill, boolean calibrated) {

        /**
         * @throws IllegalArgumentException if a value is out of range, naming it and the range
         */
        public Row {
            check(engine != null && !engine.isBlank() && key != null && !key.isBlank(),
                    "engine '" + engine + "' and key '" + key + "' must not be blank");
            check(writers >= 1, "writers " + writers + " is out of range; expected 1 or more");
            check(rows >= 1, "rows " + rows + " is out of range; expected 1 or more");
            check(rowBytes >= 1, "row bytes " + rowBytes + " is out of range; expected 1 or more");
            check(engineFill >= 0 && engineFill <= 1, "engine fill " + engineFill + " is out of range; expected 0..1");
            check(predictedFill >= 0 && predictedFill <= 1, "predicted fill " + predictedFill + " is out of range; expected 0..1");
            check(engineLeafPages >= 1, "engine leaf pages " + engineLeafPages + " is out of range; expected 1 or more");
            check(predictedMin >= 0 && predictedMin <= predictedLeafPages && predictedLeafPages <= predictedMax,
                    "predicted leaf pages " + predictedLeafPages + " (" + predictedMin + "-" + predictedMax
                            + ") is out of range; expected 0 <= min <= median <= max");
        }

        /** @return predicted over engine leaf pages, minus one ({@code 0.05}: 5 % more pages predicted) */
        public double error() {
            return predictedLeafPages / (double) engineLeafPages - 1;
        }

        /** @return the workload in words: rows, writers, rows per transaction, row size, client */
        public String workload() {
            return String.format(Locale.ROOT, "%,d rows, %d writer%s, %s row%s per transaction, %,d-byte rows, %s", rows,
                    writers, writers == 1 ? "" : "s", txRows, txRows.equals("1") ? "" : "s", rowBytes, client);
        }
    }

    /**
     * The rows as a table, engine and model side by side, one line per engine, writer count and key.
     *
     * @param rows the rows, in the order given
     * @return the table, each line ending in a newline
     */
    public static String text(List<Row> rows) {
        TextTable t = new TextTable("engine", ">writers", "key", ">rows", ">rows/tx", ">row bytes", ">leaf pages",
                ">predicted (range)", ">error", ">fill", ">predicted", "workload class");
        for (Row r : rows) {
            t.row(r.engine(), Integer.toString(r.writers()), r.key(), String.format(Locale.ROOT, "%,d", r.rows()), r.txRows(),
                    String.format(Locale.ROOT, "%,d", r.rowBytes()), String.format(Locale.ROOT, "%,d", r.engineLeafPages()),
                    String.format(Locale.ROOT, "%,d (%,d-%,d)", r.predictedLeafPages(), r.predictedMin(), r.predictedMax()),
                    String.format(Locale.ROOT, "%+.1f %%", 100 * r.error()), percent(r.engineFill()),
                    percent(r.predictedFill()), standing(r));
        }
        return t.render(0);
    }

    /**
     * The rows grouped by engine, in the order the engines first appear.
     *
     * @param rows the rows
     * @return engine to its rows
     */
    public static Map<String, List<Row>> byEngine(List<Row> rows) {
        Map<String, List<Row>> byEngine = new LinkedHashMap<>();
        for (Row r : rows) {
            byEngine.computeIfAbsent(r.engine(), e -> new ArrayList<>()).add(r);
        }
        return byEngine;
    }

    /**
     * One sentence of advice for one engine, worked out from its rows alone: at the most writers
     * measured, which key left the leaf pages fullest and how many more pages the emptiest key
     * took; which key lost most fill as writers were added (when more than one writer count was
     * measured and it lost 5 points or more); and whether the prediction can be trusted for this
     * engine (within 10 % on every row) or not.
     *
     * @param rows one engine's rows, 1 or more
     * @return the sentence
     * @throws IllegalArgumentException if there are no rows
     */
    public static String advice(List<Row> rows) {
        check(!rows.isEmpty(), "advice needs 1 or more rows; got none");
        String engine = rows.get(0).engine();
        int most = rows.stream().mapToInt(Row::writers).max().orElseThrow();
        List<Row> hardest = rows.stream().filter(r -> r.writers() == most).toList();
        Row best = hardest.stream().max(Comparator.comparingDouble(Row::engineFill)).orElseThrow();
        Row worst = hardest.stream().min(Comparator.comparingDouble(Row::engineFill)).orElseThrow();
        String w = most + " writer" + (most == 1 ? "" : "s");
        StringBuilder b = new StringBuilder(engine).append(": ");
        if (hardest.size() == 1) {
            b.append(String.format(Locale.ROOT, "at %s %s filled its leaf pages %.0f %% (%,d pages)", w, best.key(),
                    100 * best.engineFill(), best.engineLeafPages()));
        } else if (best.engineFill() - worst.engineFill() < 0.03) {
            b.append(String.format(Locale.ROOT, "at %s every key filled its leaf pages alike (%.0f-%.0f %%), so choose on"
                    + " other grounds", w, 100 * worst.engineFill(), 100 * best.engineFill()));
        } else {
            b.append(String.format(Locale.ROOT, "at %s %s left the leaf pages fullest (%.0f %%, %,d pages) and %s took"
                            + " %.1f times as many (%.0f %% full)", w, best.key(), 100 * best.engineFill(), best.engineLeafPages(),
                    worst.key(), worst.engineLeafPages() / (double) best.engineLeafPages(), 100 * worst.engineFill()));
        }
        int fewest = rows.stream().mapToInt(Row::writers).min().orElseThrow();
        if (fewest < most) {
            Row lost = null;
            double drop = 0;
            for (Row r : hardest) {
                for (Row f : rows) {
                    if (f.writers() == fewest && f.key().equals(r.key()) && f.engineFill() - r.engineFill() > drop) {
                        drop = f.engineFill() - r.engineFill();
                        lost = f;
                    }
                }
            }
            if (lost != null && drop >= 0.05) {
                double at = lost.engineFill() - drop;
                b.append(String.format(Locale.ROOT, "; %s fell from %.0f %% at %d writer%s to %.0f %% at %d", lost.key(),
                        100 * lost.engineFill(), fewest, fewest == 1 ? "" : "s", 100 * at, most));
            }
        }
        Row off = rows.stream().max(Comparator.comparingDouble(r -> Math.abs(r.error()))).orElseThrow();
        if (Math.abs(off.error()) <= 0.10) {
            b.append(String.format(Locale.ROOT, "; the prediction from the workload was within %.0f %% of the engine"
                    + " on every row", Math.ceil(100 * Math.abs(off.error()) - 1e-9)));
        } else {
            b.append(String.format(Locale.ROOT, "; the prediction missed by %+.0f %% (%s, %d writer%s%s), so measure"
                    + " this engine rather than trust the prediction", 100 * off.error(), off.key(), off.writers(),
                    off.writers() == 1 ? "" : "s", off.calibrated() ? "" : ", a workload class it is not calibrated on"));
        }
        long outside = rows.stream().filter(r -> !r.calibrated()).count();
        if (outside > 0) {
            b.append(String.format(Locale.ROOT, "; %d of %d rows are of workload classes the prediction is not calibrated on",
                    outside, rows.size()));
        }
        return b.append('.').toString();
    }

    /**
     * The page: per engine its workloads, its advice, a chart of leaf fill (engine and model bars per
     * key and writer count on a fixed 0-100 % axis) and a table of the figures; then, if given, each
     * run's details as preformatted text.
     *
     * @param title the page's title
     * @param rows the rows, grouped by engine in the order given
     * @param details preformatted text for the end of the page, or empty for none
     * @return the HTML page
     */
    public static String html(String title, List<Row> rows, String details) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(escape(title))
                .append("</title>\n<style>body{font:14px sans-serif;margin:24px;max-width:960px}h2{margin:28px 0 4px}")
                .append("p{margin:4px 0}.advice{background:#f3f6fa;border-left:4px solid #3b6ea5;padding:6px 10px}")
                .append("table{border-collapse:collapse;margin-top:6px}td,th{padding:2px 8px;text-align:right}")
                .append("td:nth-child(-n+2),th:nth-child(-n+2){text-align:left}pre{font-size:12px}</style>\n</head>\n<body>\n<h1>")
                .append(escape(title)).append("</h1>\n<p>Leaf fill of the primary-key index: <b style=\"color:")
                .append(ENGINE_COLOUR).append("\">engine, measured</b> and <b style=\"color:").append(MODEL_COLOUR)
                .append("\">model, predicted from the workload alone</b>; every chart's axis runs from 0 to 100 %.</p>\n");
        for (Map.Entry<String, List<Row>> e : byEngine(rows).entrySet()) {
            List<Row> list = e.getValue();
            b.append("<h2>").append(escape(e.getKey())).append("</h2>\n");
            for (String workload : new LinkedHashSet<>(list.stream().map(Row::workload).toList())) {
                b.append("<p>").append(escape(workload)).append("</p>\n");
            }
            b.append("<p class=\"advice\">").append(escape(advice(list))).append("</p>\n");
            b.append(svg(list));
            b.append("<table><tr><th>key</th><th>writers</th><th>rows</th><th>rows/tx</th><th>row bytes</th>")
                    .append("<th>engine leaf pages</th><th>predicted (range)</th><th>error</th><th>engine fill</th>")
                    .append("<th>predicted fill</th><th>workload class</th></tr>\n");
            for (Row r : list) {
                b.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%,d</td><td>%s</td><td>%,d</td><td>%,d</td>"
                                + "<td>%,d (%,d-%,d)</td><td>%+.1f %%</td><td>%s</td><td>%s</td><td>%s</td></tr>%n",
                        escape(r.key()), r.writers(), r.rows(), escape(r.txRows()), r.rowBytes(), r.engineLeafPages(),
                        r.predictedLeafPages(), r.predictedMin(), r.predictedMax(), 100 * r.error(), percent(r.engineFill()),
                        percent(r.predictedFill()), standing(r)));
            }
            b.append("</table>\n");
        }
        if (!details.isEmpty()) {
            b.append("<h2>Each run</h2>\n<pre>").append(escape(details)).append("</pre>\n");
        }
        return b.append("</body>\n</html>\n").toString();
    }

    /** Two bars per key and writer count, the engine's above the model's, on a fixed 0-100 % axis. */
    static String svg(List<Row> rows) {
        int rowHeight = 34;
        int top = 8;
        int height = top + rows.size() * rowHeight + 24;
        int width = LABEL_WIDTH + BAR_WIDTH + 70;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        for (int pct = 0; pct <= 100; pct += 25) {
            int x = LABEL_WIDTH + BAR_WIDTH * pct / 100;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>%n", x, top,
                    x, height - 20));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d %%</text>%n", x,
                    height - 6, pct));
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            int y = top + i * rowHeight;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s, %d writer%s</text>%n",
                    LABEL_WIDTH - 8, y + 19, escape(r.key()), r.writers(), r.writers() == 1 ? "" : "s"));
            bar(s, y + 3, r.engineFill(), ENGINE_COLOUR);
            bar(s, y + 17, r.predictedFill(), MODEL_COLOUR);
        }
        return s.append("</svg>\n").toString();
    }

    private static void bar(StringBuilder s, int y, double fill, String colour) {
        // whole pixels, so a browser draws the bar with sharp ends
        long w = Math.round(BAR_WIDTH * fill);
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"12\" fill=\"%s\"/>%n",
                LABEL_WIDTH, y, w, colour));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.1f %%</text>%n", LABEL_WIDTH + w + 4, y + 10,
                100 * fill));
    }

    private static String standing(Row r) {
        return r.calibrated() ? "calibrated" : "not calibrated";
    }

    private static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
