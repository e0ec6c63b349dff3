package dev.idgen.jcstress.lincheck;

/**
 * The Lincheck checks small enough for {@code mvn verify}: 4 scenarios x at most 200 interleavings
 * (2 x 100 for the segment generator). This shows the wiring works (the agent, the targets against
 * their specs, the broken generator caught); {@link LinearizabilityTest} is the evidence.
 */
class LinearizabilityQuickTest extends LinearizabilityChecks {

    @Override
    int scenarios() {
        return 4;
    }

    @Override
    int invocations() {
        return 200;
    }
}
