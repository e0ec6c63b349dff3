package dev.idgen.testkit.index;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.gen.IdStreams;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The same table loaded with keys of each {@link KeySource}: one {@link IndexModel} per source, fed
 * a seeded stream of {@code rows} keys, so the numbers can be compared side by side.
 *
 * <p>Rows arrive from {@code generators} writers (services) at {@code idsPerMilli} rows per
 * millisecond of simulated time, each row from a writer picked at random
 * ({@link IdStreams}); writers' clocks agree. Snowflake writers use machine ids 1 to
 * {@code generators}. The same seed gives the same numbers on every run.
 *
 * <pre>{@code
 * Map<KeySource, IndexStats> board = IndexScoreboard.builder().rows(1_000_000).build().runAll();
 * System.out.println(IndexScoreboard.markdownTable(board));
 * }</pre>
 */
public final class IndexScoreboard {

    /** Shared time starts here in every run: 2026-01-01T00:00:00Z. */
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final long rows;
    private final PageFormat format;
    private final int rowBytes;
    private final int poolPages;
    private final int generators;
    private final int idsPerMilli;
    private final long seed;
    private final RightmostSplit rightmostSplit;

    private IndexScoreboard(Builder b) {
        this.rows = b.rows;
        this.format = b.format;
        this.rowBytes = b.rowBytes;
        this.poolPages = b.poolPages;
        this.generators = b.generators;
        this.idsPerMilli = b.idsPerMilli;
        this.seed = b.seed;
        this.rightmostSplit = b.rightmostSplit;
    }

    /**
     * A builder: 1,000,000 rows, InnoDB 16 KiB pages, key-only rows, no buffer pool, 4 writers at 4
     * rows per millisecond, seed 42, {@link RightmostSplit#APPEND_ONLY}.
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
        IndexModel model = IndexModel.builder(source.keyType()).pageFormat(format).rowBytes(rowBytes)
                .bufferPoolPages(poolPages).rightmostSplit(rightmostSplit).build();
        SplittableRandom random = new SplittableRandom(seed);
        switch (source) {
            case AUTO_INCREMENT -> {
                for (long k = 1; k <= rows; k++) {
                    model.insert(k);
                }
            }
            case SNOWFLAKE -> {
                long[] machines = new long[generators];
                for (int g = 0; g < generators; g++) {
                    machines[g] = g + 1;
                }
                LongSupplier ids = IdStreams.snowflake(random, SnowflakeLayout.TWITTER, machines, START, idsPerMilli, 0);
                for (long r = 0; r < rows; r++) {
                    model.insert(ids.getAsLong());
                }
            }
            case UUID_V7 -> feed(model, IdStreams.uuidV7(random, generators, START, idsPerMilli, 0));
            case UUID_V4, UUID_V4_TEXT -> feed(model, IdStreams.uuidV4(random));
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

    private void feed(IndexModel model, Supplier<UUID> keys) {
        for (long r = 0; r < rows; r++) {
            model.insert(keys.get());
        }
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
        return "IndexScoreboard[" + rows + " rows, " + format + ", row " + rowBytes + " bytes, pool " + poolPages
                + " pages, " + generators + " writers at " + idsPerMilli + " rows/ms, seed " + seed + ", rightmost split "
                + rightmostSplit + "]";
    }

    /** Configures an {@link IndexScoreboard}. */
    public static final class Builder {
        private long rows = 1_000_000;
        private PageFormat format = PageFormat.INNODB;
        private int rowBytes;
        private int poolPages;
        private int generators = 4;
        private int idsPerMilli = 4;
        private long seed = 42;
        private RightmostSplit rightmostSplit = RightmostSplit.APPEND_ONLY;

        private Builder() {
        }

        /**
         * @param rule how the full rightmost leaf splits; default {@link RightmostSplit#APPEND_ONLY}
         * @return this builder
         */
        public Builder rightmostSplit(RightmostSplit rule) {
            this.rightmostSplit = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /**
         * @param count rows to insert per source, 1 or more; default 1,000,000
         * @return this builder
         * @throws IllegalArgumentException if below 1
         */
        public Builder rows(long count) {
            this.rows = atLeastOne("rows", count);
            return this;
        }

        /**
         * @param pages the engine's page layout; default {@link PageFormat#INNODB}
         * @return this builder
         */
        public Builder pageFormat(PageFormat pages) {
            this.format = Objects.requireNonNull(pages, "pages");
            return this;
        }

        /**
         * @param bytes bytes of each row besides its key, 0 or more; default 0
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder rowBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("row bytes " + bytes + " is negative; allowed 0 or more");
            }
            this.rowBytes = bytes;
            return this;
        }

        /**
         * @param pages LRU buffer-pool pages to model, 0 (none, the default) or more
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder bufferPoolPages(int pages) {
            if (pages < 0) {
                throw new IllegalArgumentException("buffer pool of " + pages + " pages; allowed 0 or more");
            }
            this.poolPages = pages;
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

        /** @return a new scoreboard */
        public IndexScoreboard build() {
            return new IndexScoreboard(this);
        }

        private static long atLeastOne(String what, long value) {
            if (value < 1) {
                throw new IllegalArgumentException(what + " " + value + " is out of range; allowed 1 or more");
            }
            return value;
        }
    }
}
