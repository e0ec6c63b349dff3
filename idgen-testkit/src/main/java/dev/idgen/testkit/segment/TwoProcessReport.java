package dev.idgen.testkit.segment;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link TwoProcessRun} saw. The run has already checked that every number is distinct and
 * each thread's increase; these are the figures for the test's own assertions and its log.
 *
 * @param numbers how many numbers the children took in all
 * @param distinct how many of them are distinct (equal to {@code numbers}, or the run failed)
 * @param lowest the smallest number taken
 * @param highest the largest number taken
 * @param failures per child, the calls that failed with {@code SegmentUnavailableException}
 * @param failuresWhileHolding per child, those of them made while its generator still held numbers
 * @param firstFailures per child, the message of its first failure, or {@code none}
 * @param wallMillis from starting the children to the last one's {@code done}
 */
public record TwoProcessReport(long numbers, long distinct, long lowest, long highest, List<Long> failures,
        List<Long> failuresWhileHolding, List<String> firstFailures, long wallMillis) {

    /**
     * @param numbers numbers taken
     * @param distinct distinct numbers
     * @param lowest smallest
     * @param highest largest
     * @param failures failures per child (copied)
     * @param failuresWhileHolding failures while holding numbers, per child (copied)
     * @param firstFailures first failure message per child (copied)
     * @param wallMillis wall time
     * @throws NullPointerException if a list is null
     */
    public TwoProcessReport {
        failures = List.copyOf(Objects.requireNonNull(failures, "failures"));
        failuresWhileHolding = List.copyOf(Objects.requireNonNull(failuresWhileHolding, "failuresWhileHolding"));
        firstFailures = List.copyOf(Objects.requireNonNull(firstFailures, "firstFailures"));
    }

    /**
     * Checks the promise about errors: every child was told the store was unavailable (the outage
     * outlasted its buffers), never while its generator still held numbers, and its first error
     * names each of {@code mentions} (the store, the counter, the step).
     *
     * @param mentions texts the first error of each child must hold
     * @throws AssertionError naming the child and the message otherwise
     */
    public void checkErrorsOnlyOnceSpent(String... mentions) {
        for (int p = 0; p < failures.size(); p++) {
            if (failuresWhileHolding.get(p) != 0) {
                throw new AssertionError("child " + p + " was told of an outage " + failuresWhileHolding.get(p)
                        + " times while it still held numbers");
            }
            if (failures.get(p) == 0) {
                throw new AssertionError("child " + p + " ran through the outage and was never told: the outage"
                        + " was shorter than its buffers, so the run proves nothing about errors");
            }
            for (String m : mentions) {
                if (!firstFailures.get(p).contains(m)) {
                    throw new AssertionError("child " + p + "'s error does not name " + m + ": " + firstFailures.get(p));
                }
            }
        }
    }

    /** {@return one line for the test log: counts, range, failures and wall time} */
    public String summary() {
        return String.format("%,d numbers, %,d distinct, %d..%d, wall %,d ms; SegmentUnavailableException per child %s,"
                + " while holding numbers %s", numbers, distinct, lowest, highest, wallMillis, failures,
                failuresWhileHolding);
    }
}
