package dev.idgen.index.report;

import dev.idgen.index.model.IndexRun;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeyType;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The scoreboard of {@code idgen index} as a plain-text table, one row per key kind. */
public final class ScoreboardText {

    private ScoreboardText() {
    }

    /**
     * @param results one per key kind, in the order to print
     * @return the table, the key column named by {@link KeyType#toString()}
     */
    public static String table(List<IndexRun.Result> results) {
        return table(results, KeyType::toString);
    }

    /**
     * @param results one per key kind, in the order to print
     * @param column the key column's type as the modelled engine declares it (PostgreSQL: {@code uuid})
     * @return the table
     */
    public static String table(List<IndexRun.Result> results, Function<KeyType, String> column) {
        boolean pool = results.stream().anyMatch(r -> r.stats().poolPages() > 0);
        TextTable t = pool
                ? new TextTable("key", "column", ">leaf splits", ">page writes", ">pages", ">leaf pages", ">leaf fill",
                        ">height", ">index size", ">pool hit rate")
                : new TextTable("key", "column", ">leaf splits", ">page writes", ">pages", ">leaf pages", ">leaf fill",
                        ">height", ">index size");
        for (IndexRun.Result r : results) {
            IndexStats s = r.stats();
            String[] cells = {r.source().label(), column.apply(s.keyType()), count(s.leafSplits()), count(s.pageWrites()),
                    count(s.pages()), count(s.leafPages()), percent(s.averageLeafFill(), 1), Integer.toString(s.height()),
                    mib(s.indexBytes()), percent(s.bufferPoolHitRate(), 2)};
            t.row(pool ? cells : java.util.Arrays.copyOf(cells, cells.length - 1));
        }
        return t.render(0);
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String percent(double fraction, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f %%", 100 * fraction);
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
