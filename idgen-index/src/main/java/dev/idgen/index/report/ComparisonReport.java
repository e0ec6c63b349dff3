package dev.idgen.index.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An HTML page a person choosing a key reads: per engine, each key's leaf fill as the engine
 * measured it and as the model predicted it from the workload, side by side on a fixed 0-100 %
 * axis (a 38 %-full index draws as 38 % of the bar, never as a full one), with the rows, writers,
 * rows per transaction and row size stated, and a sentence of advice per engine. Self-contained:
 * inline SVG, no script.
 */
public final class ComparisonReport {

    private static final int BAR_WIDTH = 520;
    private static final int LABEL_WIDTH = 220;

    private ComparisonReport() {
    }

    /**
     * One key on one engine.
     *
     * @param engine the engine, e.g. {@code InnoDB (MariaDB 10.11)}
     * @param key the key, e.g. {@code UUIDv7}
     * @param workload rows, writers, rows per transaction and row size, as a sentence
     * @param engineFill the engine's leaf fill, 0 to 1
     * @param engineLeafPages the engine's leaf pages
     * @param modelFill the model's predicted leaf fill, 0 to 1
     * @param modelLeafPages the model's predicted leaf pages
     * @param modelRange the model's range of leaf pages, e.g. {@code 309-350}
     */
    public record Row(String engine, String key, String workload, double engineFill, long engineLeafPages, double modelFill,
            long modelLeafPages, String modelRange) {

        /**
         * @throws IllegalArgumentException if a fill is outside 0..1 or a count is negative
         */
        public Row {
            if (!(engineFill >= 0 && engineFill <= 1 && modelFill >= 0 && modelFill <= 1)) {
                throw new IllegalArgumentException("fill " + engineFill + " / " + modelFill + " is out of range; expected 0..1");
            }
            if (engineLeafPages < 0 || modelLeafPages < 0) {
                throw new IllegalArgumentException("leaf pages " + engineLeafPages + " / " + modelLeafPages
                        + " is out of range; expected 0 or more");
            }
        }
    }

    /**
     * @param title the page's title
     * @param rows the keys, grouped by engine in the order given
     * @param advice a sentence of advice per engine (engines without one get none)
     * @return the HTML page
     */
    public static String html(String title, List<Row> rows, Map<String, String> advice) {
        Map<String, List<Row>> byEngine = new LinkedHashMap<>();
        for (Row r : rows) {
            byEngine.computeIfAbsent(r.engine(), e -> new ArrayList<>()).add(r);
        }
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(escape(title))
                .append("</title>\n<style>body{font:14px sans-serif;margin:24px;max-width:900px}h2{margin:28px 0 4px}")
                .append("p{margin:4px 0}.advice{background:#f3f6fa;border-left:4px solid #3b6ea5;padding:6px 10px}")
                .append("table{border-collapse:collapse;margin-top:6px}td,th{padding:2px 10px;text-align:right}")
                .append("td:first-child,th:first-child{text-align:left}</style>\n</head>\n<body>\n<h1>")
                .append(escape(title)).append("</h1>\n<p>Leaf fill of the primary-key index: <b style=\"color:#3b6ea5\">")
                .append("engine, measured</b> and <b style=\"color:#d08a2c\">model, predicted from the workload alone</b>;")
                .append(" the axis runs from 0 to 100 % on every chart.</p>\n");
        for (Map.Entry<String, List<Row>> e : byEngine.entrySet()) {
            List<Row> list = e.getValue();
            b.append("<h2>").append(escape(e.getKey())).append("</h2>\n<p>").append(escape(list.get(0).workload()))
                    .append("</p>\n");
            if (advice.containsKey(e.getKey())) {
                b.append("<p class=\"advice\">").append(escape(advice.get(e.getKey()))).append("</p>\n");
            }
            b.append(svg(list));
            b.append("<table><tr><th>key</th><th>engine leaf pages</th><th>predicted (range)</th><th>engine fill</th>")
                    .append("<th>predicted fill</th></tr>\n");
            for (Row r : list) {
                b.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%,d</td><td>%,d (%s)</td><td>%.1f %%</td><td>%.1f %%</td></tr>%n",
                        escape(r.key()), r.engineLeafPages(), r.modelLeafPages(), escape(r.modelRange()),
                        100 * r.engineFill(), 100 * r.modelFill()));
            }
            b.append("</table>\n");
        }
        return b.append("</body>\n</html>\n").toString();
    }

    /** Two bars per key on a fixed 0-100 % axis. */
    static String svg(List<Row> rows) {
        int rowHeight = 34;
        int top = 8;
        int height = top + rows.size() * rowHeight + 24;
        int width = LABEL_WIDTH + BAR_WIDTH + 70;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        for (int pct = 0; pct <= 100; pct += 25) {
            double x = LABEL_WIDTH + BAR_WIDTH * pct / 100.0;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>%n", x, top,
                    x, height - 20));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d %%</text>%n", x,
                    height - 6, pct));
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            int y = top + i * rowHeight;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LABEL_WIDTH - 8,
                    y + 19, escape(r.key())));
            bar(s, y + 3, r.engineFill(), "#3b6ea5");
            bar(s, y + 17, r.modelFill(), "#d08a2c");
        }
        return s.append("</svg>\n").toString();
    }

    private static void bar(StringBuilder s, int y, double fill, String colour) {
        double w = BAR_WIDTH * fill;
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\"/>%n",
                LABEL_WIDTH, y, w, colour));
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%.1f %%</text>%n", LABEL_WIDTH + w + 4, y + 10,
                100 * fill));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
