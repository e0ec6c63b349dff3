package dev.idgen.jcstress.soak;

/**
 * What the threads of one soak run got, one {@code long[]} per thread (two for UUIDs: high and low
 * halves), and the checks on it. No boxing: 10^8 IDs take 800 MB as longs.
 *
 * <p>Order is unsigned over (high, low), the order of Snowflake IDs (never negative) and of UUIDs as
 * bytes. Each thread's IDs must strictly increase (a thread's calls follow one another); since they
 * are then sorted, a k-way merge of the threads finds every value that two threads share.
 */
final class IdLedger {

    private final long[][] high;
    private final long[][] low;

    /**
     * @param threads threads
     * @param perThread IDs per thread
     * @param pairs whether IDs are 128-bit
     */
    IdLedger(int threads, int perThread, boolean pairs) {
        this.high = new long[threads][perThread];
        this.low = pairs ? new long[threads][perThread] : null;
    }

    long[] high(int thread) {
        return high[thread];
    }

    long[] low(int thread) {
        return low[thread];
    }

    /** Result of the checks. */
    record Verdict(long ids, long duplicates, long orderViolations, String firstProblem) {
        boolean clean() {
            return duplicates == 0 && orderViolations == 0;
        }
    }

    /**
     * @param filled IDs each thread actually made
     * @return duplicates across all threads and order violations within each
     */
    Verdict check(int[] filled) {
        long violations = 0;
        long total = 0;
        String first = null;
        for (int t = 0; t < high.length; t++) {
            total += filled[t];
            for (int i = 1; i < filled[t]; i++) {
                if (compare(t, i - 1, t, i) >= 0) {
                    violations++;
                    if (first == null) {
                        first = "thread " + t + ": id[" + (i - 1) + "] = " + show(t, i - 1) + " then id[" + i
                                + "] = " + show(t, i);
                    }
                }
            }
        }
        if (violations > 0) {
            // a merge needs sorted runs; with an order violation, duplicates are not counted
            return new Verdict(total, 0, violations, first);
        }
        long duplicates = 0;
        int[] at = new int[high.length];
        int lastThread = -1;
        int lastIndex = -1;
        for (long n = 0; n < total; n++) {
            int min = -1;
            for (int t = 0; t < high.length; t++) {
                if (at[t] < filled[t] && (min < 0 || compare(t, at[t], min, at[min]) < 0)) {
                    min = t;
                }
            }
            if (lastThread >= 0 && compare(lastThread, lastIndex, min, at[min]) == 0) {
                duplicates++;
                if (first == null) {
                    first = "duplicate " + show(min, at[min]) + " in thread " + lastThread + " and thread " + min;
                }
            }
            lastThread = min;
            lastIndex = at[min]++;
        }
        return new Verdict(total, duplicates, 0, first);
    }

    private int compare(int t1, int i1, int t2, int i2) {
        int c = Long.compareUnsigned(high[t1][i1], high[t2][i2]);
        return c != 0 || low == null ? c : Long.compareUnsigned(low[t1][i1], low[t2][i2]);
    }

    private String show(int t, int i) {
        return low == null ? Long.toUnsignedString(high[t][i])
                : new java.util.UUID(high[t][i], low[t][i]).toString();
    }
}
