package dev.idgen.jcstress.uuid;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.sequence.CounterStart;
import dev.idgen.sequence.TickSequence;
import dev.idgen.sequence.TickSpace;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.uuid.UuidV7Generator;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Calls racing a UUIDv7 counter rollover, with the clock standing still.
 *
 * <p>Through its public builder a monotonic {@link UuidV7Generator} starts each millisecond's
 * counter below 2^15, so a rollover needs at least 32,768 IDs in one millisecond first: too many to
 * set up for every jcstress sample. This test therefore drives the {@link TickSequence} (internal
 * to core, reachable here on the class path) exactly as {@code UuidV7Generator} builds it (Unix
 * milliseconds, 16 counter bits, the last monotonic instant, {@code runAhead(10 s)}), except that
 * each millisecond's first counter is drawn below 2^16 from a source that always gives 65,533.
 *
 * <p>The state takes (T, 65533); the actors' four calls take (T, 65534), (T, 65535), then the
 * rollover runs ahead of the still clock to (T+1, 65533) and (T+1, 65534); the arbiter takes
 * (T+1, 65535). Ordinal: {@code 3 * (ms - T) + counter - 65533}.
 */
@JCStressTest
@Description("UUIDv7 tick sequence, frozen clock, counter at 65533: two actors x two next() across the rollover")
@Outcome(id = {"1, 2, 3, 4, 5", "1, 3, 2, 4, 5", "1, 4, 2, 3, 5", "2, 3, 1, 4, 5", "2, 4, 1, 3, 5",
        "3, 4, 1, 2, 5"}, expect = ACCEPTABLE, desc = "a linearizable interleaving; the rollover runs ahead")
@Outcome(expect = FORBIDDEN, desc = "duplicate, counter wrapped in place, an actor's values not increasing, or a gap")
@State
public class V7CounterRolloverTest {

    static final long START = 65_533;

    private final TickSequence sequence = TickSequence.builder(
            new TickSpace(0L, 1L, UuidV7Generator.LAST_MONOTONIC_INSTANT.toEpochMilli(), UuidV7Generator.COUNTER_BITS),
            ManualClock.atMillis(BenchLayouts.START_MILLIS))
            .counterStart(CounterStart.randomBelow(1L << UuidV7Generator.COUNTER_BITS, () -> START))
            .policy(ClockBackwardsPolicy.runAhead(UuidV7Generator.DEFAULT_RUN_AHEAD))
            .logAs(UuidV7Generator.class)
            .build();
    private final long firstTick = sequence.tickOf(sequence.next());
    private long a1;
    private long a2;
    private long b1;
    private long b2;

    /** Two values in a row. */
    @Actor
    public void actor1() {
        a1 = sequence.next();
        a2 = sequence.next();
    }

    /** Two values in a row. */
    @Actor
    public void actor2() {
        b1 = sequence.next();
        b2 = sequence.next();
    }

    /**
     * @param r ordinals of {@code a1, a2, b1, b2, after}
     */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        long after = sequence.next();
        r.r1 = ordinal(a1);
        r.r2 = ordinal(a2);
        r.r3 = ordinal(b1);
        r.r4 = ordinal(b2);
        r.r5 = ordinal(after);
    }

    private int ordinal(long value) {
        long counter = sequence.counterOf(value);
        if (counter < START) {
            return -1; // wrapped to a counter below the start instead of moving to the next ms
        }
        return (int) (3 * (sequence.tickOf(value) - firstTick) + counter - START);
    }
}
