package dev.idgen.jcstress.broken;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * {@link dev.idgen.jcstress.snowflake.SnowflakeSameTickTest}'s outcome spec applied to
 * {@link RacySnowflakeGenerator}. This test is EXPECTED TO FAIL: the duplicate outcomes are marked
 * FORBIDDEN like everywhere else, and the build runs this test on its own and requires jcstress to
 * report them (exit code 1). If it ever passes, the suite has lost the power to catch a missing CAS.
 */
@JCStressTest
@Description("BROKEN ON PURPOSE: read-then-write generator; jcstress must report a FORBIDDEN duplicate")
@Outcome(id = {"1, 2, 3, 4, 5", "1, 3, 2, 4, 5", "1, 4, 2, 3, 5", "2, 3, 1, 4, 5", "2, 4, 1, 3, 5",
        "3, 4, 1, 2, 5"}, expect = ACCEPTABLE, desc = "this interleaving happened not to lose an update")
@Outcome(expect = FORBIDDEN, desc = "lost update: a duplicate ID (the outcome this test exists to see)")
@State
public class RacySnowflakeTest {

    private final RacySnowflakeGenerator ids = new RacySnowflakeGenerator(SnowflakeLayout.TWITTER, 513,
            ManualClock.atMillis(BenchLayouts.START_MILLIS));
    private final long first = ids.nextLong();
    private long a1;
    private long a2;
    private long b1;
    private long b2;

    /** Two IDs in a row. */
    @Actor
    public void actor1() {
        a1 = ids.nextLong();
        a2 = ids.nextLong();
    }

    /** Two IDs in a row. */
    @Actor
    public void actor2() {
        b1 = ids.nextLong();
        b2 = ids.nextLong();
    }

    /**
     * @param r ordinals of {@code a1, a2, b1, b2, after}
     */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        long after = ids.nextLong();
        r.r1 = ordinal(a1);
        r.r2 = ordinal(a2);
        r.r3 = ordinal(b1);
        r.r4 = ordinal(b2);
        r.r5 = ordinal(after);
    }

    private int ordinal(long id) {
        long d = id - first;
        return d >= 0 && d < 16 ? (int) d : -1;
    }
}
