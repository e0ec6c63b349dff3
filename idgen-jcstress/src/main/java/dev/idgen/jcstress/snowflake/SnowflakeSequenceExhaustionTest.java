package dev.idgen.jcstress.snowflake;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Calls racing sequence exhaustion. The layout has 2 sequence bits (4 IDs a tick); the state takes
 * sequence 0 of tick T, so of the actors' four calls three get sequences 1 to 3 and the last one
 * finds the tick exhausted and waits (default policy) for the clock. The clock moves 1 ms after
 * every 4th read: the four calls' own reads all see T, the waiting call's next read sees T+1.
 *
 * <p>Ordinal of an ID: {@code 4 * (tick - T) + sequence}. Acceptable outcomes are the six
 * interleavings of two actors' two calls over ordinals 1 to 4 (the call that waited is necessarily
 * the last), and the arbiter's ID is ordinal 5 (tick T+1, sequence 1).
 */
@JCStressTest
@Description("Snowflake, 2 sequence bits: two actors x two nextLong() exhaust a tick, the last waits for the clock")
@Outcome(id = {"1, 2, 3, 4, 5", "1, 3, 2, 4, 5", "1, 4, 2, 3, 5", "2, 3, 1, 4, 5", "2, 4, 1, 3, 5",
        "3, 4, 1, 2, 5"}, expect = ACCEPTABLE, desc = "a linearizable interleaving; the call that waited is last")
@Outcome(expect = FORBIDDEN, desc = "duplicate, sequence overflow, an actor's IDs not increasing, or a gap")
@State
public class SnowflakeSequenceExhaustionTest {

    private static final SnowflakeLayout LAYOUT = BenchLayouts.TWO_SEQUENCE_BITS;

    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder()
            .layout(LAYOUT)
            .machineId(LAYOUT.maxMachineId())
            .clock(clock)
            .skipMachineIdRegistry() // jcstress keeps many states, each with its own generator, alive at once
            .build();
    private final long firstTick = ids.nextLong() >>> LAYOUT.timestampShift();
    private long a1;
    private long a2;
    private long b1;
    private long b2;

    /** From here on the clock moves 1 ms after every 4th read. */
    public SnowflakeSequenceExhaustionTest() {
        clock.autoAdvanceEvery(4, Duration.ofMillis(1));
    }

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
        long machine = id >>> LAYOUT.machineShift() & LAYOUT.maxMachineId();
        if (machine != LAYOUT.maxMachineId()) {
            return -1; // the sequence overflowed into the machine field
        }
        long tick = (id >>> LAYOUT.timestampShift()) - firstTick;
        return (int) (tick * (LAYOUT.maxSequence() + 1) + (id & LAYOUT.maxSequence()));
    }
}
