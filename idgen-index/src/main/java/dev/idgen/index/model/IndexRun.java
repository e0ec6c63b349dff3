package dev.idgen.index.model;

import dev.idgen.index.model.IndexModel;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeySource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * One key kind through the testkit's {@link IndexModel}, fed by the same seeded
 * {@link KeySource#feeder} stream {@link dev.idgen.index.model.IndexScoreboard} uses (so the
 * final counts are the scoreboard's for the same settings), with the model's stats taken at
 * {@link #POINTS} evenly spaced row counts along the way for the chart.
 *
 * @param rows rows to insert, 1 or more
 * @param index the index settings, as {@link dev.idgen.index.model.IndexScoreboard.Builder#index} takes them
 * @param writers writers making keys at once
 * @param rowsPerMilli rows per millisecond of simulated time
 * @param seed the key stream's seed
 */
public record IndexRun(long rows, UnaryOperator<IndexModel.Builder> index, int writers, int rowsPerMilli, long seed) {

    /** Points on each chart line (besides the origin). */
    public static final int POINTS = 100;

    /** How often, in rows, the progress bar hears about a run. */
    private static final long PROGRESS_EVERY = 1 << 14;

    /**
     * One point of a run.
     *
     * @param rows rows inserted so far
     * @param stats what the model counted by then
     */
    public record Point(long rows, IndexStats stats) {
    }

    /**
     * The result of one key kind.
     *
     * @param source the key kind
     * @param stats the counts after every row
     * @param points the counts along the way, rows ascending, the last at every row
     */
    public record Result(KeySource source, IndexStats stats, List<Point> points) {
    }

    /**
     * @throws IllegalArgumentException if {@code rows} is below 1
     */
    public IndexRun {
        Objects.requireNonNull(index, "index");
        if (rows < 1) {
            throw new IllegalArgumentException("rows " + rows + " is out of range; expected 1 or more");
        }
    }

    /**
     * @param source the key kind
     * @param progress told of every {@value #PROGRESS_EVERY} rows: rows done in this run
     * @return the counts
     */
    public Result run(KeySource source, java.util.function.LongConsumer progress) {
        IndexModel model = index.apply(IndexModel.builder(source.keyType())).build();
        Consumer<IndexModel> feeder = source.feeder(seed, writers, rowsPerMilli);
        List<Point> points = new ArrayList<>();
        int next = 1;
        for (long r = 1; r <= rows; r++) {
            feeder.accept(model);
            // point i of POINTS sits at row ceil(rows * i / POINTS); the last at row `rows`
            if (r * POINTS >= rows * next) {
                points.add(new Point(r, model.stats()));
                while (r * POINTS >= rows * next) {
                    next++;
                }
            }
            if (r % PROGRESS_EVERY == 0) {
                progress.accept(r);
            }
        }
        return new Result(source, model.stats(), List.copyOf(points));
    }
}
