package dev.idgen.jcstress.snowflake;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.snowflake.SnowflakeGenerator;
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
 * Four {@code nextLong()} calls from two threads within one tick (the clock stands still): they get
 * sequences 1 to 4 of the tick, in an order that each thread sees increasing.
 */
@JCStressTest
@Description("Snowflake, Twitter layout, frozen clock: two actors x two nextLong() in one tick, arbiter after")
@Outcome(id = {"1, 2, 3, 4, 5", "1, 3, 2, 4, 5", "1, 4, 2, 3, 5", "2, 3, 1, 4, 5", "2, 4, 1, 3, 5",
        "3, 4, 1, 2, 5"}, expect = ACCEPTABLE, desc = "a linearizable interleaving of the four calls")
@Outcome(expect = FORBIDDEN, desc = "duplicate, gap, an actor's IDs not increasing, or the arbiter's ID not last")
@State
public class SnowflakeSameTickTest {

    private final SnowflakeGenerator ids = SnowflakeGenerator.builder()
            .layout(SnowflakeLayout.TWITTER)
            .machineId(513)
            .clock(ManualClock.atMillis(BenchLayouts.START_MILLIS))
            .skipMachineIdRegistry() // jcstress keeps many states, each with its own generator, alive at once
            .build();
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
     * The ordinals of the actors' IDs and of one taken after them.
     *
     * @param r {@code a1, a2, b1, b2, after}
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

    /** Same tick and machine as {@code first}: the IDs differ in the sequence alone. */
    private int ordinal(long id) {
        long d = id - first;
        return d >= 0 && d < 16 ? (int) d : -1;
    }
}
