package dev.idgen.jcstress.uuid;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.jcstress.fixture.FixedRandom;
import dev.idgen.jcstress.fixture.V7Fields;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.util.UUID;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Two {@code next()} calls racing a millisecond change; the same race as
 * {@link dev.idgen.jcstress.snowflake.SnowflakeTickChangeTest}, under UUIDv7's default
 * {@code runAhead(10 s)} policy. The random source is fixed, so every new millisecond's counter
 * starts at {@value #START}.
 *
 * <p>Reported per actor: millisecond minus the first, then counter minus {@value #START}.
 */
@JCStressTest
@Description("UUIDv7 monotonic, clock moves 1 ms per read: two actors race a millisecond change")
@Outcome(id = {"0, 1, 1, 0, 1", "1, 0, 0, 1, 1"}, expect = ACCEPTABLE,
        desc = "the caller with the older reading won its CAS first")
@Outcome(id = {"2, 0, 1, 0, 1", "1, 0, 2, 0, 1"}, expect = ACCEPTABLE,
        desc = "the newer millisecond won; the older caller re-read the clock and took a newer one")
@Outcome(expect = FORBIDDEN, desc = "duplicate, a UUID going back in time, or an arbiter UUID not after both")
@State
public class V7MillisecondChangeTest {

    static final int START = 1000;

    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final UuidV7Generator ids = UuidV7Generator.builder()
            .clock(clock)
            .randomness(new FixedRandom(START))
            .build();
    private final long firstMillis = V7Fields.millis(ids.next());
    private UUID a;
    private UUID b;

    /** Sets the clock moving: every read from here on advances it by 1 ms. */
    public V7MillisecondChangeTest() {
        clock.autoAdvance(Duration.ofMillis(1));
    }

    /** One UUID. */
    @Actor
    public void actor1() {
        a = ids.next();
    }

    /** One UUID. */
    @Actor
    public void actor2() {
        b = ids.next();
    }

    /**
     * @param r {@code ms(a) - T, counter(a) - START, ms(b) - T, counter(b) - START, after > both ? 1 : 0}
     */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        long after = V7Fields.orderKey(ids.next());
        r.r1 = (int) (V7Fields.millis(a) - firstMillis);
        r.r2 = (int) (V7Fields.counter(a) - START);
        r.r3 = (int) (V7Fields.millis(b) - firstMillis);
        r.r4 = (int) (V7Fields.counter(b) - START);
        r.r5 = after > Math.max(V7Fields.orderKey(a), V7Fields.orderKey(b)) ? 1 : 0;
    }
}
