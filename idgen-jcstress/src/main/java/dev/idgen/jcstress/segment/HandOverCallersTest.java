package dev.idgen.jcstress.segment;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.SegmentGenerator;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Two callers take two numbers each from ranges of one number, one range kept ready: every call
 * crosses a boundary, and the fetch runs on whichever caller asked first (the executor runs it
 * inline) while the other caller crosses, finds the next range missing, and waits for it. The
 * state took number 1, so the callers share 2 to 5.
 *
 * <p>Reported: 1 if the first caller's numbers increase; 1 if the second's do; how many of the
 * four are distinct numbers from 2 to 5 (4 when none repeats and none is skipped); 1 if the
 * arbiter's next number is 6 and lies in a granted range. Anything else is FORBIDDEN.
 */
@JCStressTest
@Description("SegmentGenerator: two callers cross ranges of one number while the fetch runs on one of them")
@Outcome(id = "1, 1, 4, 1", expect = ACCEPTABLE, desc = "each caller increasing, 2 to 5 handed out once each")
@Outcome(expect = FORBIDDEN, desc = "a number repeated, skipped, out of order or never granted")
@State
public class HandOverCallersTest {

    private final InMemorySegmentSource source = new InMemorySegmentSource();
    private final SegmentGenerator ids = SegmentGenerator.builder().source(source).name("handover").step(1)
            .prefetch(1, 1).executor(Runnable::run).build();
    private long a1;
    private long a2;
    private long b1;
    private long b2;

    /** Takes number 1: [1, 1] spent, [2, 2] ready. */
    public HandOverCallersTest() {
        ids.nextLong();
    }

    /** Two numbers. */
    @Actor
    public void first() {
        a1 = ids.nextLong();
        a2 = ids.nextLong();
    }

    /** Two numbers. */
    @Actor
    public void second() {
        b1 = ids.nextLong();
        b2 = ids.nextLong();
    }

    /** @param r each caller increasing; distinct numbers in 2..5; the next one 6 and granted */
    @Arbiter
    public void arbiter(IIII_Result r) {
        long next = ids.nextLong();
        r.r1 = a2 > a1 ? 1 : 0;
        r.r2 = b2 > b1 ? 1 : 0;
        long seen = 0;
        for (long n : new long[] {a1, a2, b1, b2}) {
            if (n >= 2 && n <= 5) {
                seen |= 1L << n;
            }
        }
        r.r3 = Long.bitCount(seen);
        r.r4 = next == 6 && next <= source.lastGranted("handover") ? 1 : 0;
        ids.close();
    }
}
