package dev.idgen.index.predict;

import java.util.Arrays;
import java.util.Locale;

/**
 * What the workload is predicted to do to the engine's primary-key index: the leaf pages and leaf
 * fill of each simulated interleaving (one per seed and timing assumption), and their range.
 *
 * @param leafPages each simulation's leaf pages
 * @param leafFill each simulation's leaf fill, in the engine's own measure, 0 to 1
 */
public record Prediction(long[] leafPages, double[] leafFill) {

    /**
     * @throws IllegalArgumentException if there is no simulation or the arrays differ in length
     */
    public Prediction {
        if (leafPages.length == 0 || leafPages.length != leafFill.length) {
            throw new IllegalArgumentException("a prediction needs 1 or more simulations, as many fills as page counts; got "
                    + leafPages.length + " and " + leafFill.length);
        }
        leafPages = leafPages.clone();
        leafFill = leafFill.clone();
    }

    /** @return the median of the simulations' leaf pages (of an even count, the mean of the middle two, rounded) */
    public long pages() {
        long[] s = leafPages.clone();
        Arrays.sort(s);
        return Math.round((s[(s.length - 1) / 2] + s[s.length / 2]) / 2.0);
    }

    /** @return the fewest leaf pages of any simulation */
    public long minPages() {
        return Arrays.stream(leafPages).min().orElseThrow();
    }

    /** @return the most leaf pages of any simulation */
    public long maxPages() {
        return Arrays.stream(leafPages).max().orElseThrow();
    }

    /** @return the median leaf fill (of an even count, the mean of the middle two) */
    public double fill() {
        double[] s = leafFill.clone();
        Arrays.sort(s);
        return (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
    }

    /** @return the lowest leaf fill of any simulation */
    public double minFill() {
        return Arrays.stream(leafFill).min().orElseThrow();
    }

    /** @return the highest leaf fill of any simulation */
    public double maxFill() {
        return Arrays.stream(leafFill).max().orElseThrow();
    }

    /**
     * How far the prediction was from what the engine did.
     *
     * @param engineLeafPages the engine's leaf pages
     * @return the median's error, a fraction ({@code +0.05}: 5 % more pages predicted than the engine had)
     */
    public double error(long engineLeafPages) {
        return pages() / (double) engineLeafPages - 1;
    }

    /** @return e.g. {@code 325 leaf pages (310-340), 48.8 % full (46.6-51.1 %)} */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d leaf pages (%,d-%,d), %.1f %% full (%.1f-%.1f %%)", pages(), minPages(),
                maxPages(), 100 * fill(), 100 * minFill(), 100 * maxFill());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Prediction p && Arrays.equals(leafPages, p.leafPages) && Arrays.equals(leafFill, p.leafFill);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(leafPages) + Arrays.hashCode(leafFill);
    }
}
