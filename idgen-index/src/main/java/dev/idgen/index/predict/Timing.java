package dev.idgen.index.predict;

/**
 * How long a writer's steps take in the interleaving simulation, in microseconds: each INSERT
 * statement and each commit takes a time drawn from a log-normal distribution of the given median
 * and spread ({@code sigma}, the standard deviation of its logarithm), and a writer waits
 * {@code thinkMicros} (exponentially distributed about that mean) between transactions.
 *
 * @param statementMicros median time of one INSERT statement, 1 to 10,000,000
 * @param commitMicros median time of a commit, 0 to 10,000,000
 * @param sigma spread of both, 0 to 4 (0: every statement takes the median)
 * @param thinkMicros mean wait between a writer's transactions, 0 to 100,000,000
 */
public record Timing(double statementMicros, double commitMicros, double sigma, double thinkMicros) {

    /**
     * @throws IllegalArgumentException if a value is out of range, naming it and the range
     */
    public Timing {
        check(statementMicros >= 1 && statementMicros <= 1e7, "statement time " + statementMicros + " µs", "1..10000000");
        check(commitMicros >= 0 && commitMicros <= 1e7, "commit time " + commitMicros + " µs", "0..10000000");
        check(sigma >= 0 && sigma <= 4, "spread sigma " + sigma, "0..4");
        check(thinkMicros >= 0 && thinkMicros <= 1e8, "think time " + thinkMicros + " µs", "0..100000000");
    }

    private static void check(boolean ok, String what, String range) {
        if (!ok) {
            throw new IllegalArgumentException(what + " is out of range; expected " + range);
        }
    }

    /**
     * @param micros the mean wait between a writer's transactions
     * @return this timing with that think time
     */
    public Timing withThink(double micros) {
        return new Timing(statementMicros, commitMicros, sigma, micros);
    }

    /**
     * @param s the spread
     * @return this timing with that spread
     */
    public Timing withSigma(double s) {
        return new Timing(statementMicros, commitMicros, s, thinkMicros);
    }
}
