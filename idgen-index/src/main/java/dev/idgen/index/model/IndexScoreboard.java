package dev.idgen.index.model;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The same table loaded with keys of each {@link KeySource}: one {@link IndexModel} per source, fed
 * a seeded stream of {@code rows} keys, so the numbers can be compared side by side.
 *
 * <p>Rows arrive from {@code generators} writers (services) at {@code idsPerMilli} rows per
 * millisecond of simulated time, each row from a writer picked at random
 * ({@link KeySource#feeder}); writers' clocks agree. The same seed gives the same numbers on every
 * run. How each index is built (page format, row size, buffer pool, split rule) is set with
 * {@link Builder#index(UnaryOperator)}.
 *
 * <pre>{@code
 * Map<KeySource, IndexStats> board = IndexScoreboard.builder().rows(1_000_000).build().runAll();
 * System.out.println(IndexScoreboard.markdownTable(board));
 * }</pre>
 */
public final class IndexScoreboard {

    private final long rows;
    private final UnaryOperator<IndexModel.Builder> index;
    private final int generators;
    private final int idsPerMilli;
    private final long seed;

    private IndexScoreboard(Builder b) {
        this.rows = b.rows;
        this.index = b.index;
        this.generators = b.generators;
        this.idsPerMilli = b.idsPerMilli;
        this.seed = b.seed;
    }

    /**
     * A builder: 1,000,000 rows, 4 writers at 4 rows per millisecond, seed 42, and indexes as
     * {@link IndexModel#builder(KeyType)} makes them (InnoDB 16 KiB pages, key-only rows, no buffer
     * pool, {@link RightmostSplit#APPEND_ONLY}).
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Loads one index with keys from one source.
     *
     * @param source where the keys come from
     * @return what the model counted
     */
    public IndexStats run(KeySource source) {
        IndexModel model = index.apply(IndexModel.builder(source.keyType())).build();
        if (model.keyType() != source.keyType()) {
            throw new IllegalStateException("index settings made an index on " + model.keyType() + " keys; "
                    + source + " keys are " + source.keyType());
        }
        Consumer<IndexModel> feeder = source.feeder(seed, generators, idsPerMilli);
        for (long r = 0; r < rows; r++) {
            feeder.accept(model);
        }
        return model.stats();
    }

    /**
     * Loads one index per source.
     *
     * @return each source's counts, in {@link KeySource} order
     */
    public Map<KeySource, IndexStats> runAll() {
        Map<KeySource, IndexStats> board = new EnumMap<>(KeySource.class);
        for (KeySource source : KeySource.values()) {
            board.put(source, run(source));
        }
        return board;
    }

    /**
     * The counts as a Markdown table, one row per source.
     *
     * @param board counts per source, as {@link #runAll()} returns them
     * @return the table, with a header row
     */
    public static String markdownTable(Map<KeySource, IndexStats> board) {
        StringBuilder out = new StringBuilder();
        out.append("| key | column | leaf splits | page writes | leaf pages | avg leaf fill | height | index size |");
        boolean pool = board.values().stream().anyMatch(s -> s.poolPages() > 0);
        out.append(pool ? " pool hit rate |\n" : "\n");
        out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |").append(pool ? " ---: |\n" : "\n");
        for (Map.Entry<KeySource, IndexStats> e : board.entrySet()) {
            IndexStats s = e.getValue();
            out.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %.1f %% | %d | %.1f MiB |",
                    e.getKey().label(), s.keyType(), s.leafSplits(), s.pageWrites(), s.leafPages(),
                    100 * s.averageLeafFill(), s.height(), s.indexBytes() / (1024.0 * 1024.0)));
            out.append(pool ? String.format(Locale.ROOT, " %.2f %% |%n", 100 * s.bufferPoolHitRate()) : "\n");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "IndexScoreboard[" + rows + " rows, " + generators + " writers at " + idsPerMilli + " rows/ms, seed "
                + seed + ", " + index.apply(IndexModel.builder(KeyType.BINARY16)).build() + "]";
    }

    /** Configures an {@link IndexScoreboard}. */
    public static final class Builder {
        private long rows = 1_000_000;
        private UnaryOperator<IndexModel.Builder> index = UnaryOperator.identity();
        private int generators = 4;
        private int idsPerMilli = 4;
        private long seed = 42;

        private Builder() {
        }

        /**
         * @param count rows to insert per source, 1 or more; default 1,000,000
         * @return this builder
         * @throws IllegalArgumentException if below 1
         */
        public Builder rows(long count) {
            if (count < 1) {
                throw new IllegalArgumentException("rows " + count + " is out of range; allowed 1 or more");
            }
            this.rows = count;
            return this;
        }

        /**
         * How to build each source's index, for example
         * {@code index(b -> b.pageFormat(PageFormat.POSTGRESQL).bufferPoolPages(1024))}. Applied to
         * {@link IndexModel#builder(KeyType)} for the source's key type.
         *
         * @param settings sets the builder's options and returns it
         * @return this builder
         */
        public Builder index(UnaryOperator<IndexModel.Builder> settings) {
            this.index = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * @param count writers making keys at once, 1 to 1023; default 4
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder generators(int count) {
            if (count < 1 || count > 1023) {
                throw new IllegalArgumentException("generators " + count + " is out of range; allowed 1..1023");
            }
            this.generators = count;
            return this;
        }

        /**
         * @param count rows per millisecond of simulated time, 1 to 4096; default 4
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder idsPerMilli(int count) {
            if (count < 1 || count > 4096) {
                throw new IllegalArgumentException("ids per ms " + count + " is out of range; allowed 1..4096");
            }
            this.idsPerMilli = count;
            return this;
        }

        /**
         * @param value the seed of every stream; default 42
         * @return this builder
         */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** {@return a new scoreboard} */
        public IndexScoreboard build() {
            return new IndexScoreboard(this);
        }

    }
}
