package dev.idgen.jcstress.uuid;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.jcstress.fixture.V7Fields;
import dev.idgen.random.RandomSource;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.uuid.UuidV7Generator;
import java.util.UUID;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * Four {@code next()} calls from two threads within one millisecond: the counters of their UUIDs
 * are the four after the state's UUID, each thread's pair increasing. The counter's first value
 * comes from a seeded source, so ordinals count from the state's UUID.
 */
@JCStressTest
@Description("UUIDv7 monotonic, frozen clock: two actors x two next() in one millisecond, arbiter after")
@Outcome(id = {"1, 2, 3, 4, 5", "1, 3, 2, 4, 5", "1, 4, 2, 3, 5", "2, 3, 1, 4, 5", "2, 4, 1, 3, 5",
        "3, 4, 1, 2, 5"}, expect = ACCEPTABLE, desc = "a linearizable interleaving of the four calls")
@Outcome(expect = FORBIDDEN, desc = "duplicate counter, gap, an actor's UUIDs not increasing, or the arbiter's not last")
@State
public class V7SameMillisecondTest {

    private final UuidV7Generator ids = UuidV7Generator.builder()
            .clock(ManualClock.atMillis(BenchLayouts.START_MILLIS))
            .randomness(RandomSource.seeded(7))
            .build();
    private final long first = V7Fields.orderKey(ids.next());
    private UUID a1;
    private UUID a2;
    private UUID b1;
    private UUID b2;

    /** Two UUIDs in a row. */
    @Actor
    public void actor1() {
        a1 = ids.next();
        a2 = ids.next();
    }

    /** Two UUIDs in a row. */
    @Actor
    public void actor2() {
        b1 = ids.next();
        b2 = ids.next();
    }

    /**
     * @param r ordinals of {@code a1, a2, b1, b2, after}
     */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        UUID after = ids.next();
        r.r1 = ordinal(a1);
        r.r2 = ordinal(a2);
        r.r3 = ordinal(b1);
        r.r4 = ordinal(b2);
        r.r5 = ordinal(after);
    }

    /** Same millisecond as the first: the order keys differ in the counter alone. */
    private int ordinal(UUID uuid) {
        long d = V7Fields.orderKey(uuid) - first;
        return d >= 0 && d < 16 ? (int) d : -1;
    }
}
