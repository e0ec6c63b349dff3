package dev.idgen.jcstress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck's model checker explores thread interleavings of random scenarios (2 threads, a few
 * {@code next()} and {@code tick()} calls each, plus calls before and after) and requires every
 * outcome to match some sequential order of {@link TickCounterSpec} (of a plain counter for the
 * segment generator), consistent with real time. Run at two sizes: {@link LinearizabilityTest}
 * (the evidence, slow tier) and {@link LinearizabilityQuickTest} ({@code mvn verify}).
 */
abstract class LinearizabilityChecks {

    /** Scenarios per check. */
    abstract int scenarios();

    /** Interleavings explored per scenario, at most. */
    abstract int invocations();

    private ModelCheckingOptions options(Class<?> spec) {
        return new ModelCheckingOptions()
                .iterations(scenarios())
                .invocationsPerIteration(invocations())
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(spec);
    }

    @Test
    void snowflakeTwitterLayoutIsLinearizable() {
        options(Targets.TwitterSpec.class).check(Targets.SnowflakeTwitter.class);
    }

    @Test
    void snowflakeWithSequenceExhaustionIsLinearizable() {
        options(Targets.TwoBitSpec.class).check(Targets.SnowflakeTwoBit.class);
    }

    @Test
    void monotonicUuidV7IsLinearizable() {
        options(Targets.V7Spec.class).check(Targets.V7.class);
    }

    @Test
    void uuidV7CounterRolloverIsLinearizable() {
        options(Targets.V7RolloverSpec.class).check(Targets.V7Rollover.class);
    }

    /**
     * The segment generator's waits go through a lock and a condition, whose interleavings cost the
     * model checker far more than a CAS loop: half the scenarios, half the interleavings each.
     */
    private ModelCheckingOptions segmentOptions() {
        return options(Targets.CountingSpec.class).iterations(Math.max(1, scenarios() / 2))
                .invocationsPerIteration(invocations() / 2);
    }

    @Test
    void segmentGeneratorIsLinearizable() {
        segmentOptions().check(Targets.Segments.class);
    }

    @Test
    void segmentGeneratorWithoutPrefetchIsLinearizable() {
        segmentOptions().check(Targets.SegmentsNoPrefetch.class);
    }

    @Test
    void theBrokenGeneratorIsCaught() {
        LincheckAssertionError failure = assertThrows(LincheckAssertionError.class,
                () -> options(Targets.TwoBitSpec.class).check(Targets.RacyTwoBit.class),
                "Lincheck must find the lost update in the read-then-write generator");
        assertTrue(failure.getMessage().contains("Invalid execution results"),
                "the failure must be a wrong result, not a crash: " + failure.getMessage());
    }
}
