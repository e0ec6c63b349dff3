package dev.idgen.jcstress.lease;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.jcstress.fixture.ViewLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * The holding swap of a re-claim, driven through the {@link MachineIdUser} seam itself, raced by
 * {@code nextLong()} callers. The generator holds machine id 7 and has made one ID in tick T (the
 * clock stands at T). The lease's thread then re-claims as every lease does: {@code switchTo(3)},
 * which shuts the fence and starts id 3 at the tick after the last one taken (T + 1: the clock
 * reaches T + 1 only after the switch); {@code fenceFrom} confirms the claim up to the end of T + 1
 * while the clock still reads T; the clock moves to T + 1; that thread makes one ID itself (a second
 * caller, after the swap); the clock moves to T + 2, past the fence.
 *
 * <p>So every pair in tick T was taken before the switch and must never carry id 3 (its tick may be
 * the id's previous holder's, and it would sort below IDs of id 7 already returned in T); every pair
 * in T + 1 was taken after it and must never carry id 7; nothing in T + 2 may be returned at all. The
 * caller may have read the holding before the switch (its fence then open for ever) and take its
 * pair after it: the holding read after the pair decides. Between the confirmation and the clock's
 * move a caller keeps taking pairs of T and must drop every one, so the window in which the new id
 * could be stamped on an old pair is as wide as the lease thread makes it.
 *
 * <p>Reported: for the caller's two calls and the lease thread's one, 0 refused, 1 an ID of id 7 in
 * T, 2 an ID of id 3 in T + 1; 3 id 3 in T, 4 id 7 after T, 5 any ID in T + 2 (past the fence), 9
 * anything else. Then 1 if any two IDs of the state (the first, the three calls', one taken after
 * the race with the fence reopened) are equal; 1 if the caller's two IDs are out of order or the
 * last ID is not above all others. A caller refused once is never given id 7 afterwards.
 *
 * <p>Beside {@link LeaseSwitchTest} (one caller; the clock moves on every read, so a pair of an old
 * tick meets a new holding only rarely) this one checks the fence after the claim, has a second
 * caller after the swap, and holds callers in the old tick while the new holding is open. Both it
 * and {@link LeaseMarkBeforeFenceTest} go through the core's lease guard; this one drives the
 * generator's side of the seam alone, whatever lease stands behind it. (jcstress runs a test only
 * when it has a CPU for each actor, so two: the lease thread is the second caller.)
 */
@JCStressTest
@Description("Holding swap of a re-claim (switchTo, fenceFrom) raced by nextLong() callers")
@Outcome(id = {"1, 1, 2, 0, 0", "1, 0, 2, 0, 0", "1, 2, 2, 0, 0", "0, 0, 2, 0, 0", "0, 2, 2, 0, 0",
        "2, 0, 2, 0, 0", "2, 2, 2, 0, 0"}, expect = ACCEPTABLE,
        desc = "refused, or id 7 before the switch, or id 3 after it inside the fence; all distinct and in order")
@Outcome(expect = FORBIDDEN,
        desc = "id 3 on a pair taken before the switch, id 7 after it, an ID past the fence, a duplicate, or out of order")
@State
public class HoldingSwapTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private static final long T = BenchLayouts.START_MILLIS;
    private static final long OLD_ID = 7;
    private static final long NEW_ID = 3;

    private final ManualClock clock = ManualClock.atMillis(T);
    private final ViewLease lease = new ViewLease(OLD_ID);
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease)
            .clock(clock).build();
    private final MachineIdUser user = lease.user();
    private final long first = ids.nextLong();
    private final long tickT = first >>> LAYOUT.timestampShift();
    private long a1 = -1;
    private long a2 = -1;
    private long c = -1;

    /** Two IDs in a row, or refusals. */
    @Actor
    public void caller() {
        a1 = next();
        a2 = next();
    }

    /** The lease's claiming thread: switch to id 3, confirm up to T + 1, move the clock, one ID, move past. */
    @Actor
    public void reclaim() {
        user.switchTo(NEW_ID);
        user.fenceFrom(T + 2);
        clock.setMillis(T + 1);
        c = next();
        clock.setMillis(T + 2);
    }

    private long next() {
        try {
            return ids.nextLong();
        } catch (MachineIdLostException e) {
            return -1;
        }
    }

    /** @param r the three calls' kinds of ID; a duplicate; out of order */
    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r1 = kind(a1);
        r.r2 = kind(a2);
        r.r3 = kind(c);
        user.fenceFrom(Long.MAX_VALUE);
        long after = ids.nextLong();
        long[] made = Arrays.stream(new long[] {first, a1, a2, c, after}).filter(id -> id >= 0).sorted().toArray();
        r.r4 = Arrays.stream(made).distinct().count() == made.length ? 0 : 1;
        boolean callerInOrder = a1 < 0 || a2 < 0 || a1 < a2;
        r.r5 = callerInOrder && after == made[made.length - 1] && Arrays.stream(made).filter(id -> id == after).count() == 1
                ? 0 : 1;
    }

    private int kind(long id) {
        if (id < 0) {
            return 0;
        }
        long tick = (id >>> LAYOUT.timestampShift()) - tickT;
        long machine = (id >>> LAYOUT.machineShift()) & LAYOUT.maxMachineId();
        if (tick == 2) {
            return 5;
        }
        if (machine == OLD_ID) {
            return tick == 0 ? 1 : 4;
        }
        if (machine == NEW_ID) {
            return tick == 1 ? 2 : tick == 0 ? 3 : 9;
        }
        return 9;
    }
}
