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
 * The {@code --svg} chart of real runs: a bar chart drawn by XChart, keys along the axis, one bar
 * per engine and writer count. (The {@code --html} page is {@link dev.idgen.index.report.ComparisonReport}'s.)
 */
public final class RealReport {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 400;

    private RealReport() {
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
}
