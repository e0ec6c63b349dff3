package dev.idgen.index.predict;

import java.util.Locale;

/**
 * A prediction as it is printed: the median of the simulations, the range the recorded runs of its
 * class say it holds (9 runs in 10), and its class's standing.
 *
 * @param prediction the simulations' figures
 * @param verdict what the recorded runs of its class, and of its key in the class, said
 */
public record StatedPrediction(Prediction prediction, PredictionAccuracy.Verdict verdict) {

    /**
     * @param p the simulations' figures
     * @param accuracy the recorded accuracy
     * @param c the workload's class
     * @param key the key kind
     * @return the prediction with its class's verdict
     */
    public static StatedPrediction of(Prediction p, PredictionAccuracy accuracy, WorkloadClass c, dev.idgen.index.engine.RealKey key) {
        return new StatedPrediction(p, accuracy.verdict(c, key));
    }

    /** @return the predicted leaf pages (the simulations' median) */
    public long pages() {
        return prediction.pages();
    }

    /** @return the fewest leaf pages of the range */
    public long low() {
        return verdict.range(prediction)[0];
    }

    /** @return the most leaf pages of the range */
    public long high() {
        return verdict.range(prediction)[1];
    }

    /** @return e.g. {@code 334 leaf pages (320-360), 48.8 % full} */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d leaf pages (%,d-%,d), %.1f %% full", pages(), low(), high(), 100 * prediction.fill());
    }

    /** @return what to say of the range: measured on the class's runs, or the simulations' spread */
    public String rangeSentence() {
        PredictionAccuracy.Tally t = verdict.basis();
        return t == null ? "The range is the simulations' spread (no recorded run of the class to measure it on)."
                : "The range is where the engine's leaf pages fell, around the prediction, on 9 in 10 recorded runs of the class"
                        + " (all of them below 19 runs).";
    }
}
