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
 * Two calls racing a tick change. After the state's first ID (tick T, sequence 0) every clock read
 * moves the clock 1 ms on, so whichever actor reads first sees T and the other T+1: the two race a
 * CAS across the tick boundary, and the one holding the older reading may lose to the newer tick.
 *
 * <p>Reported per actor: tick minus T, then sequence. Acceptable, for either actor being the one
 * that read T:
 * <ul>
 *   <li>{@code (0,1)} and {@code (1,0)}: the older reading won its CAS first;</li>
 *   <li>{@code (2,0)} and {@code (1,0)}: the newer tick won; the older caller, finding the state
 *       ahead of its reading, re-read the clock (now T+2) and took a new tick.</li>
 * </ul>
 * The fifth value is 1 when an ID taken after both is larger than both. A duplicate, an ID behind
 * the state's first, or an older-tick ID issued after a newer one is FORBIDDEN.
 */
@JCStressTest
@Description("Snowflake, Twitter layout, clock moves 1 ms per read: two actors race a tick change")
@Outcome(id = {"0, 1, 1, 0, 1", "1, 0, 0, 1, 1"}, expect = ACCEPTABLE,
        desc = "the caller with the older reading won its CAS first")
@Outcome(id = {"2, 0, 1, 0, 1", "1, 0, 2, 0, 1"}, expect = ACCEPTABLE,
        desc = "the newer tick won; the older caller re-read the clock and took a newer tick")
@Outcome(expect = FORBIDDEN, desc = "duplicate, an ID going back in time, or an arbiter ID not after both")
@State
public class SnowflakeTickChangeTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;

    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder()
            .layout(LAYOUT)
            .machineId(1)
            .clock(clock)
            .skipMachineIdRegistry() // jcstress keeps many states, each with its own generator, alive at once
            .build();
    private final long firstTick = ids.nextLong() >>> LAYOUT.timestampShift();
    private long a;
    private long b;

    /** Sets the clock moving: every read from here on advances it by 1 ms. */
    public SnowflakeTickChangeTest() {
        clock.autoAdvance(Duration.ofMillis(1));
    }

    /** One ID. */
    @Actor
    public void actor1() {
        a = ids.nextLong();
    }

    /** One ID. */
    @Actor
    public void actor2() {
        b = ids.nextLong();
    }

    /**
     * @param r {@code tick(a) - T, seq(a), tick(b) - T, seq(b), after > max(a, b) ? 1 : 0}
     */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        long after = ids.nextLong();
        r.r1 = (int) ((a >>> LAYOUT.timestampShift()) - firstTick);
        r.r2 = (int) (a & LAYOUT.maxSequence());
        r.r3 = (int) ((b >>> LAYOUT.timestampShift()) - firstTick);
        r.r4 = (int) (b & LAYOUT.maxSequence());
        r.r5 = after > Math.max(a, b) ? 1 : 0;
    }
}
