package dev.idgen.index.predict;

import dev.idgen.index.engine.RealKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How well the prediction did on the recorded runs, per {@link WorkloadClass} and per key within a
 * class: runs, how many within 10 % of the engine's leaf pages, the mean error, the same on the runs
 * it was not fitted on, the band of engine ÷ predicted that holds 9 runs in 10, and whether the class
 * is calibrated.
 *
 * <p>The figures are computed from the recorded runs ({@link #compute}); the table shipped in
 * {@code accuracy.tsv} beside this class is that computation's output, and a test recomputes it from
 * the runs and fails when the two differ, so it cannot go stale when the model or the runs change.
 *
 * <p><b>Calibrated</b> means: at least {@value #MIN_NOT_FITTED} runs of the class the prediction was
 * not fitted on, and at least 9 in 10 of them within 10 %. A key whose own runs in a class are
 * {@value #MIN_KEY_RUNS} or more and mostly (more than half) beyond 10 % is a known miss: it is not
 * calibrated in that class, whatever the class is, and its runs are left out of the class's figures
 * (they are in its own). A key with a miss or two among its runs stays in its class's figures, the
 * misses with it.
 */
public final class PredictionAccuracy {

    /** Within this fraction of the engine's leaf pages a run counts as predicted. */
    public static final double TARGET = 0.10;
    /** The share of runs that must be within {@link #TARGET}, and that the range must hold. */
    public static final double SHARE = 0.90;
    /** Runs of a class not fitted on it needs to be called calibrated. */
    public static final int MIN_NOT_FITTED = 10;
    /** Runs of one key in a class that can make it a known miss. */
    public static final int MIN_KEY_RUNS = 3;

    private static final String ALL_KEYS = "*";
    private static final String RESOURCE = "accuracy.tsv";

    private final Map<String, Tally> byClass;
    private final Map<String, Tally> byKey;

    private PredictionAccuracy(Map<String, Tally> byClass, Map<String, Tally> byKey) {
        this.byClass = byClass;
        this.byKey = byKey;
    }

    /**
     * A recorded run as the accuracy sees it.
     *
     * @param workloadClass its class
     * @param key its key kind
     * @param fitted whether the prediction was fitted on it
     * @param predicted the predicted leaf pages
     * @param engine the engine's leaf pages
     */
    public record Sample(WorkloadClass workloadClass, RealKey key, boolean fitted, long predicted, long engine) {

        /** @return predicted ÷ engine − 1 */
        public double error() {
            return predicted / (double) engine - 1;
        }

        boolean within() {
            return Math.abs(error()) <= TARGET;
        }
    }

    /**
     * What the recorded runs say of one class, or of one key in it.
     *
     * @param runs recorded runs
     * @param within runs within {@link #TARGET}
     * @param meanError mean of the errors' sizes, a fraction
     * @param notFitted runs the prediction was not fitted on
     * @param notFittedWithin of those, within {@link #TARGET}
     * @param low the band's low end, engine ÷ predicted
     * @param high the band's high end: {@link #SHARE} of the runs had engine ÷ predicted in [low, high]
     * @param knownMiss for a key: its runs in the class make it a known miss
     */
    public record Tally(int runs, int within, double meanError, int notFitted, int notFittedWithin, double low, double high,
            boolean knownMiss) {

        /** @return whether these runs make a calibrated class */
        public boolean calibrated() {
            return !knownMiss && notFitted >= MIN_NOT_FITTED && notFittedWithin >= SHARE * notFitted;
        }

        static Tally of(List<Sample> samples, boolean key) {
            int n = samples.size();
            int within = 0;
            int notFitted = 0;
            int notFittedWithin = 0;
            double sum = 0;
            double[] ratios = new double[n];
            for (int i = 0; i < n; i++) {
                Sample s = samples.get(i);
                within += s.within() ? 1 : 0;
                sum += Math.abs(s.error());
                if (!s.fitted()) {
                    notFitted++;
                    notFittedWithin += s.within() ? 1 : 0;
                }
                ratios[i] = s.engine() / (double) s.predicted();
            }
            double[] band = band(ratios);
            boolean miss = key && n >= MIN_KEY_RUNS && within < n / 2.0;
            return new Tally(n, within, round(sum / n), notFitted, notFittedWithin, band[0], band[1], miss);
        }
    }

    /**
     * The narrowest range of engine ÷ predicted that holds {@link #SHARE} of one run more than were
     * recorded (the rank a run not yet recorded needs to fall inside 9 times in 10, were the runs
     * alike; all of them below 19 runs), rounded outward to 4 decimals.
     */
    static double[] band(double[] ratios) {
        double[] r = ratios.clone();
        Arrays.sort(r);
        int n = r.length;
        int k = Math.min(n, (int) Math.ceil(SHARE * (n + 1) - 1e-9));
        int best = 0;
        for (int i = 1; i + k <= n; i++) {
            if (r[i + k - 1] - r[i] < r[best + k - 1] - r[best]) {
                best = i;
            }
        }
        return new double[] {Math.floor(r[best] * 10_000) / 10_000, Math.ceil(r[best + k - 1] * 10_000) / 10_000};
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    /**
     * Works out the accuracy from recorded runs.
     *
     * @param samples every recorded run, predicted
     * @return the accuracy per class and per key in a class
     */
    public static PredictionAccuracy compute(Collection<Sample> samples) {
        Map<String, List<Sample>> perKey = new TreeMap<>();
        for (Sample s : samples) {
            perKey.computeIfAbsent(s.workloadClass().id() + "\t" + s.key().cliName(), k -> new ArrayList<>()).add(s);
        }
        Map<String, Tally> byKey = new TreeMap<>();
        perKey.forEach((k, list) -> byKey.put(k, Tally.of(list, true)));
        Map<String, List<Sample>> perClass = new TreeMap<>();
        for (Sample s : samples) {
            if (!byKey.get(s.workloadClass().id() + "\t" + s.key().cliName()).knownMiss()) {
                perClass.computeIfAbsent(s.workloadClass().id(), k -> new ArrayList<>()).add(s);
            }
        }
        Map<String, Tally> byClass = new TreeMap<>();
        perClass.forEach((k, list) -> byClass.put(k, Tally.of(list, false)));
        return new PredictionAccuracy(byClass, byKey);
    }

    /** @return the accuracy shipped with the library, computed from the recorded runs */
    public static PredictionAccuracy recorded() {
        try (InputStream in = PredictionAccuracy.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing beside " + PredictionAccuracy.class.getName());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param text the table as {@link #table()} writes it
     * @return the accuracy it holds
     */
    static PredictionAccuracy parse(String text) {
        Map<String, Tally> byClass = new TreeMap<>();
        Map<String, Tally> byKey = new TreeMap<>();
        try (BufferedReader r = new BufferedReader(new java.io.StringReader(text))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("class\t")) {
                    continue;
                }
                String[] f = line.split("\t");
                Tally t = new Tally(Integer.parseInt(f[2]), Integer.parseInt(f[3]), Double.parseDouble(f[4]),
                        Integer.parseInt(f[5]), Integer.parseInt(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                        f[9].equals("known miss"));
                if (f[1].equals(ALL_KEYS)) {
                    byClass.put(f[0], t);
                } else {
                    byKey.put(f[0] + "\t" + f[1], t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PredictionAccuracy(byClass, byKey);
    }

    /** @return the table, one line per class ({@code *} for its keys together) and per key in a class */
    public String table() {
        StringBuilder b = new StringBuilder();
        b.append("# The index prediction's accuracy on the recorded runs (idgen-index/src/test/resources/index/real),\n")
                .append("# per workload class and per key in a class. Computed by PredictionAccuracyTest; do not edit by hand.\n")
                .append("# error = predicted / engine leaf pages - 1; low, high: engine / predicted for 9 runs in 10.\n")
                .append("class\tkey\truns\twithin 10 %\tmean error\tnot fitted\tnot fitted within 10 %\tlow\thigh\tstatus\n");
        for (Map.Entry<String, Tally> e : byClass.entrySet()) {
            line(b, e.getKey() + "\t" + ALL_KEYS, e.getValue(), e.getValue().calibrated() ? "calibrated" : "not calibrated");
            for (Map.Entry<String, Tally> k : byKey.entrySet()) {
                if (k.getKey().startsWith(e.getKey() + "\t")) {
                    line(b, k.getKey(), k.getValue(), k.getValue().knownMiss() ? "known miss" : "-");
                }
            }
        }
        for (Map.Entry<String, Tally> k : byKey.entrySet()) {
            if (!byClass.containsKey(k.getKey().substring(0, k.getKey().indexOf('\t')))) {
                line(b, k.getKey(), k.getValue(), k.getValue().knownMiss() ? "known miss" : "-");
            }
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String head, Tally t, String status) {
        b.append(head).append('\t').append(t.runs()).append('\t').append(t.within()).append('\t')
                .append(String.format(Locale.ROOT, "%.4f", t.meanError())).append('\t').append(t.notFitted()).append('\t')
                .append(t.notFittedWithin()).append('\t').append(String.format(Locale.ROOT, "%.4f\t%.4f", t.low(), t.high()))
                .append('\t').append(status).append('\n');
    }

    /** @return every class that has recorded runs, by id */
    public Map<String, Tally> classes() {
        return new LinkedHashMap<>(byClass);
    }

    /**
     * What the recorded runs say of a prediction of this class and key.
     *
     * @param c the workload's class
     * @param key the key kind
     * @return the verdict
     */
    public Verdict verdict(WorkloadClass c, RealKey key) {
        Objects.requireNonNull(c, "class");
        Objects.requireNonNull(key, "key");
        Tally k = byKey.get(c.id() + "\t" + key.cliName());
        Tally cls = byClass.get(c.id());
        return new Verdict(c, key, cls, k);
    }

    /**
     * A prediction's standing: its class, what the class's recorded runs (and the key's in it) say,
     * and the range that held the engine's figure on 9 runs in 10 of them.
     *
     * @param workloadClass the class
     * @param key the key kind
     * @param ofClass the class's figures (its known-miss keys left out), or null if no run of the class is recorded
     * @param ofKey the key's figures in the class, or null if none of its runs is recorded
     */
    public record Verdict(WorkloadClass workloadClass, RealKey key, Tally ofClass, Tally ofKey) {

        /** @return whether the class is calibrated and the key is no known miss in it */
        public boolean calibrated() {
            return ofClass != null && ofClass.calibrated() && (ofKey == null || !ofKey.knownMiss());
        }

        /** @return the figures the range comes from: the key's own when it is a known miss, else the class's */
        Tally basis() {
            return ofKey != null && ofKey.knownMiss() ? ofKey : ofClass;
        }

        /**
         * The range that held the engine's leaf pages on 9 in 10 of the recorded runs of this class
         * (of this key, for a known miss); with no recorded run, the simulations' own spread.
         *
         * @param p the prediction
         * @return the fewest and the most leaf pages
         */
        public long[] range(Prediction p) {
            Tally t = basis();
            if (t == null) {
                return new long[] {p.minPages(), p.maxPages()};
            }
            return new long[] {(long) Math.floor(p.pages() * t.low()), (long) Math.ceil(p.pages() * t.high())};
        }

        /**
         * @return one sentence: the class, whether it is calibrated, and what its recorded runs said,
         *     e.g. {@code InnoDB, 5-16 writers, ...: calibrated; on its 30 recorded runs 28 within 10 % (mean error 4.1 %; 24 of 25 not fitted on)}
         */
        public String classSentence() {
            String head = workloadClass.label() + ": ";
            if (ofClass == null) {
                return head + "not calibrated: no recorded run of this class; the range is the simulations' spread, not a measured accuracy";
            }
            return head + (ofClass.calibrated() ? "calibrated" : "not calibrated") + "; " + figures(ofClass)
                    + (ofClass.calibrated() ? "" : ofClass.notFitted() < MIN_NOT_FITTED
                            ? " (calibrated needs " + MIN_NOT_FITTED + " runs it was not fitted on)" : " (calibrated needs 9 in 10 within 10 %)");
        }

        /** @return what the key's own runs in the class said, or an empty string when there were none or nothing to add */
        public String keySentence() {
            if (ofKey == null) {
                return ofClass == null ? "" : "no recorded run of this key in its class";
            }
            return (ofKey.knownMiss() ? "a known miss, not calibrated: " : "") + "this key " + figures(ofKey);
        }

        private static String figures(Tally t) {
            return String.format(Locale.ROOT, "on %d recorded run%s %d within 10 %% (mean error %.1f %%; %d of %d not fitted on)",
                    t.runs(), t.runs() == 1 ? "" : "s", t.within(), 100 * t.meanError(), t.notFittedWithin(), t.notFitted());
        }
    }
}
