package dev.idgen.jcstress.lincheck;

import org.junit.jupiter.api.Tag;

/**
 * The Lincheck checks at full size: 20 scenarios x at most 1,000 interleavings a check (half of each
 * for the segment generator). Minutes on two cores, so in the slow tier: tag {@code slow}, run by
 * {@code .ci/run}.
 */
@Tag("slow")
class LinearizabilityTest extends LinearizabilityChecks {

    @Override
    int scenarios() {
        return 20;
    }

    @Override
    int invocations() {
        return 1_000;
    }
}
