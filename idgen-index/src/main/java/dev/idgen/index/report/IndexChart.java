package dev.idgen.index.report;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import dev.idgen.index.model.IndexRun;
import java.awt.Color;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The chart of {@code idgen index --svg/--html}: average leaf fill and page count as rows grow, one
 * line per key kind, drawn by XChart, two charts stacked in one SVG through XChart's own vector
 * back end (VectorGraphics2D).
 */
public final class IndexChart {

    private static final int WIDTH = 860;
    private static final int HEIGHT = 380;
    private static final Pattern LONG_DECIMAL = Pattern.compile("-?\\d+\\.\\d{2,}");

    private IndexChart() {
    }

    /**
     * @param results the runs, each with its points
     * @param subtitle the settings, shown under each chart
     * @return an SVG document
     */
    public static String svg(List<IndexRun.Result> results, String subtitle) {
        XYChart fill = chart("Average leaf fill as rows grow", "average leaf fill (%)", subtitle);
        XYChart pages = chart("Index pages as rows grow", "pages (leaf + internal)", subtitle);
        for (IndexRun.Result r : results) {
            int n = r.points().size();
            double[] x = new double[n];
            double[] f = new double[n];
            double[] p = new double[n];
            for (int i = 0; i < n; i++) {
                IndexRun.Point point = r.points().get(i);
                x[i] = point.rows();
                f[i] = 100 * point.stats().averageLeafFill();
                p[i] = point.stats().pages();
            }
            String name = r.source().label() + " (" + r.source().keyType() + ")";
            line(fill.addSeries(name, x, f));
            line(pages.addSeries(name, x, p));
        }
        VectorGraphics2D g = new VectorGraphics2D();
        fill.paint(g, WIDTH, HEIGHT);
        g.translate(0, HEIGHT);
        pages.paint(g, WIDTH, HEIGHT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, WIDTH, 2.0 * HEIGHT)).writeTo(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return compact(bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * XChart draws text as glyph outlines, with coordinates to many decimals; a tenth of a pixel is
     * plenty and makes the file less than half the size. Only numbers with two or more decimals are
     * touched, so attribute values such as {@code version="1.0"} stay as they are.
     */
    static String compact(String svg) {
        return compactSvg(svg);
    }

    /**
     * Rounds an SVG's long decimals to a tenth, as {@link #svg} does to its own output.
     *
     * @param svg an SVG document
     * @return the same drawing, smaller
     */
    public static String compactSvg(String svg) {
        Matcher m = LONG_DECIMAL.matcher(svg);
        StringBuilder out = new StringBuilder(svg.length() / 2);
        while (m.find()) {
            String rounded = BigDecimal.valueOf(Double.parseDouble(m.group())).setScale(1, RoundingMode.HALF_EVEN)
                    .stripTrailingZeros().toPlainString();
            m.appendReplacement(out, rounded.equals("-0") ? "0" : rounded);
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * @param svg the chart, as {@link #svg} makes it
     * @param title the page title
     * @param table the scoreboard, preformatted text
     * @return a self-contained HTML page: title, the scoreboard and the chart inline
     */
    public static String html(String svg, String title, String table) {
        String inline = svg.substring(Math.max(0, svg.indexOf("<svg")));
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title)
                + "</title>\n<style>body{font-family:sans-serif;margin:2em}pre{font-size:13px}</style>\n</head>\n<body>\n<h1>"
                + escape(title) + "</h1>\n<pre>" + escape(table) + "</pre>\n" + inline + "\n</body>\n</html>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static XYChart chart(String title, String yTitle, String subtitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("rows inserted (" + subtitle + ")").yAxisTitle(yTitle).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setXAxisMin(0.0);   // round ticks from 0, not from the first point's row count
        chart.getStyler().setYAxisDecimalPattern("#,###");
        return chart;
    }

    private static void line(XYSeries series) {
        series.setMarker(SeriesMarkers.NONE);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    }
}
