package dev.idgen.index.run;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import dev.idgen.index.engine.RealResult;
import dev.idgen.index.report.IndexChart;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The HTML report of real runs, self-contained: the table, each run's instruments, and two bar
 * charts drawn by XChart as inline SVG: leaf fill and index size by key, one bar per engine and
 * writer count.
 */
public final class RealReport {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 400;

    private RealReport() {
    }

    /**
     * @param results the runs
     * @param title the page title
     * @return the HTML page
     */
    public static String html(List<RealResult> results, String title) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(escape(title)).append("</title>\n<style>body{font-family:sans-serif;margin:2em}pre{font-size:13px}</style>\n"
                        + "</head>\n<body>\n<h1>").append(escape(title)).append("</h1>\n<pre>")
                .append(escape(RealText.table(results))).append("</pre>\n");
        b.append(inline(svg(results, "Leaf fill (engine's own measure, %)", r -> 100 * r.real().leafFill())));
        b.append(inline(svg(results, "Primary-key index size (MiB)", r -> r.real().indexBytes() / (1024.0 * 1024.0))));
        b.append("<h2>Each run</h2>\n<pre>");
        for (RealResult r : results) {
            b.append(escape(RealText.details(r))).append('\n');
        }
        return b.append("</pre>\n</body>\n</html>\n").toString();
    }

    /** A bar chart: keys along the axis, one series per engine and writer count. */
    static String svg(List<RealResult> results, String title, java.util.function.ToDoubleFunction<RealResult> value) {
        Set<String> keys = new LinkedHashSet<>();
        Map<String, Map<String, Double>> series = new LinkedHashMap<>();
        for (RealResult r : results) {
            keys.add(r.key().label());
            String name = String.format(Locale.ROOT, "%s, %d writer%s, %s", r.database().label(), r.workload().writers(),
                    r.workload().writers() == 1 ? "" : "s",
                    r.workload().payloadBytes() == 0 ? "key only" : r.workload().payloadBytes() + " B rows");
            series.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(r.key().label(), value.applyAsDouble(r));
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisDecimalPattern("#,###.#");
        List<String> xs = new ArrayList<>(keys);
        for (Map.Entry<String, Map<String, Double>> e : series.entrySet()) {
            List<Double> ys = new ArrayList<>();
            for (String k : xs) {
                ys.add(e.getValue().getOrDefault(k, 0.0));
            }
            chart.addSeries(e.getKey(), xs, ys);
        }
        VectorGraphics2D g = new VectorGraphics2D();
        chart.paint(g, WIDTH, HEIGHT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, WIDTH, HEIGHT)).writeTo(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return IndexChart.compactSvg(bytes.toString(StandardCharsets.UTF_8));
    }

    private static String inline(String svg) {
        return svg.substring(Math.max(0, svg.indexOf("<svg"))) + "\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
