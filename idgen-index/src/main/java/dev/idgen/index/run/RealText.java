package dev.idgen.index.run;

import dev.idgen.index.engine.RealResult;
import dev.idgen.index.report.TextTable;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text of {@code idgen index --real}: the real figures beside the model's, then each run's own instruments. */
public final class RealText {

    private RealText() {
    }

    /**
     * @param results the runs, in order
     * @return one row per run
     */
    public static String table(List<RealResult> results) {
        TextTable t = new TextTable("engine", "key", ">writers", ">rows/s", ">p50 µs", ">p99 µs", ">leaf pages",
                ">model", ">leaf fill", ">model", ">index size");
        for (RealResult r : results) {
            t.row(r.database().label(), r.key().label(), Integer.toString(r.workload().writers()),
                    String.format(Locale.ROOT, "%,.0f", r.rowsPerSecond()),
                    String.format(Locale.ROOT, "%,.0f", r.latencyP50Micros()),
                    String.format(Locale.ROOT, "%,.0f", r.latencyP99Micros()),
                    String.format(Locale.ROOT, "%,d", r.real().leafPages()),
                    String.format(Locale.ROOT, "%,d (%+.1f %%)", r.model().leafPages(), 100 * r.leafPagesError()),
                    percent(r.real().leafFill()),
                    percent(r.modelLeafFill()),
                    String.format(Locale.ROOT, "%.1f MiB", r.real().indexBytes() / (1024.0 * 1024.0)));
        }
        return t.render(0);
    }

    /**
     * @param r a run
     * @return its engine's own figures and counters, one per line
     */
    public static String details(RealResult r) {
        StringBuilder b = new StringBuilder();
        b.append(r.version()).append(", ").append(r.key().label()).append(" (").append(r.database().columnType(r.key().keyType()))
                .append("):");
        for (Map.Entry<String, Object> e : r.real().extra().entrySet()) {
            b.append("\n  ").append(e.getKey()).append(": ").append(value(e.getValue()));
        }
        for (Map.Entry<String, Long> e : r.counters().entrySet()) {
            b.append("\n  ").append(e.getKey()).append(": ").append(value(e.getValue()));
        }
        b.append(String.format(Locale.ROOT, "%n  model: %,d leaf splits (%,d at the insert point or fillfactor,"
                        + " %,d in the middle), %,d internal pages",
                r.model().leafSplits(), r.model().leafPointSplits() + r.model().leafAppendSplits(),
                r.model().leafHalfSplits(), r.model().internalPages()));
        return b.append('\n').toString();
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
    }

    static String value(Object v) {
        if (v instanceof Double d) {
            return String.format(Locale.ROOT, "%.4f", d);
        }
        if (v instanceof Long || v instanceof Integer) {
            return String.format(Locale.ROOT, "%,d", ((Number) v).longValue());
        }
        return String.valueOf(v);
    }
}
