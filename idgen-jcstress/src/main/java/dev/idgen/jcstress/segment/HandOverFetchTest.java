package dev.idgen.jcstress.segment;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.SegmentGenerator;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A caller crosses from range [1, 2] to the ready range [3, 4] while the fetch that the crossing
 * asked for runs on the other actor, the generator's fetch thread, and appends [5, 6]. Step 2,
 * one range kept ready; the state took number 1.
 *
 * <p>Reported: 1 if the caller got 2, 3, 4 in that order; 1 if the arbiter's next two numbers are
 * 5 and 6 (none skipped, none repeated across the append); the grants the store made (3: the state's
 * two and the one the crossing asked for; the arbiter's own crossing is fetched after it reads);
 * 1 if every number lies in a granted range. Anything else is FORBIDDEN.
 */
@JCStressTest
@Description("SegmentGenerator: a caller crosses to the next range while the fetch thread appends one")
@Outcome(id = "1, 1, 3, 1", expect = ACCEPTABLE, desc = "dense, in order, every number granted once")
@Outcome(expect = FORBIDDEN, desc = "a number repeated, skipped, out of order or never granted")
@State
public class HandOverFetchTest {

    /** Hands the fetch task to the fetch actor instead of running it; inline until {@link #defer()}. */
    static final class FetchThread implements Executor {
        private final AtomicReference<Runnable> pending = new AtomicReference<>();
        private volatile boolean deferred;

        @Override
        public void execute(Runnable task) {
            if (deferred) {
                pending.set(task);
            } else {
                task.run();
            }
        }

        void defer() {
            deferred = true;
        }

        /** {@return whether a task was waiting and has now run} */
        boolean runPending() {
            Runnable task = pending.getAndSet(null);
            if (task == null) {
                return false;
            }
            task.run();
            return true;
        }
    }

    private final InMemorySegmentSource source = new InMemorySegmentSource();
    private final FetchThread fetchThread = new FetchThread();
    private final SegmentGenerator ids = SegmentGenerator.builder().source(source).name("handover").step(2)
            .prefetch(1, 1).executor(fetchThread).build();
    private volatile boolean callerDone;
    private long a1;
    private long a2;
    private long a3;

    /** Takes number 1 ([1, 2] current, [3, 4] ready), then hands fetches to the fetch actor. */
    public HandOverFetchTest() {
        ids.nextLong();
        fetchThread.defer();
    }

    /** Three numbers across the boundary between [1, 2] and [3, 4]. */
    @Actor
    public void caller() {
        a1 = ids.nextLong();
        a2 = ids.nextLong();
        a3 = ids.nextLong();
        callerDone = true;
    }

    /** The fetch thread: runs the fetch the crossing asks for, whenever it comes. */
    @Actor
    public void fetch() {
        for (;;) {
            boolean done = callerDone;
            if (fetchThread.runPending() || done) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** @param r the caller's order; the arbiter's numbers; grants; all within granted ranges */
    @Arbiter
    public void arbiter(IIII_Result r) {
        fetchThread.runPending();
        long grants = source.grants();
        long b1 = ids.nextLong();
        long b2 = ids.nextLong();
        r.r1 = a1 == 2 && a2 == 3 && a3 == 4 ? 1 : 0;
        r.r2 = b1 == 5 && b2 == 6 ? 1 : 0;
        r.r3 = (int) grants;
        long granted = source.lastGranted("handover");
        r.r4 = Math.max(Math.max(a1, a2), Math.max(a3, Math.max(b1, b2))) <= granted
                && Math.min(Math.min(a1, a2), Math.min(a3, Math.min(b1, b2))) >= 1 ? 1 : 0;
        ids.close();
    }
}
