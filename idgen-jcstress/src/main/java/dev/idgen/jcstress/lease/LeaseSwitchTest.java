package dev.idgen.jcstress.lease;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLostException;
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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * An ID taken while the lease moves the generator from machine id 7 to machine id 3: the lease's
 * own thread hears of a restore, forgets its claim of 7 and claims 3, the lowest free id, then
 * confirms it (the life in core, on an in-memory store). The clock moves 1 ms on every read. The
 * state takes one ID of id 7 before the actors start.
 *
 * <p>Reported: what the ID actor got (0 refused, 1 an ID of id 7, 2 an ID of id 3); 1 if it is an ID
 * of id 3 on a tick taken under id 7 (at or before the state's ID), else 0; 1 if the arbiter's ID,
 * taken after both, is greater than the actor's, else 0. An ID of the new id on an old tick, or an
 * arbiter ID not after the actor's, is FORBIDDEN.
 */
@JCStressTest
@Description("Snowflake on a lease: one actor makes an ID while the lease switches it to another machine id")
@Outcome(id = {"0, 0, 1", "1, 0, 1", "2, 0, 1"}, expect = ACCEPTABLE,
        desc = "refused while fenced, or an ID of the old id before the switch, or of the new id after it")
@Outcome(expect = FORBIDDEN, desc = "the new id stamped on an old tick, or IDs out of order")
@State
public class LeaseSwitchTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final InMemoryLeaseStore store = new InMemoryLeaseStore(clock, "in jcstress");
    private final StoreLease lease;
    private final SnowflakeGenerator ids;
    private final long firstTick;
    private long a = -1;

    /** Ids 0 to 6 held by others, so the lease holds 7; then 3 is freed; one ID of 7, and the clock moves. */
    public LeaseSwitchTest() {
        StoreLease[] others = new StoreLease[7];
        for (int i = 0; i < 7; i++) {
            others[i] = hold().machineId(i).acquire();
        }
        lease = hold().acquire();
        others[3].close();
        ids = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).clock(clock).build();
        firstTick = ids.nextLong() >>> LAYOUT.timestampShift();
        clock.autoAdvance(Duration.ofMillis(1));
    }

    private StoreLease.Builder hold() {
        return StoreLease.builder(store).clock(clock).layout(LAYOUT).ttl(Duration.ofSeconds(30)).background(false);
    }

    /** One ID, or a refusal. */
    @Actor
    public void ids() {
        try {
            a = ids.nextLong();
        } catch (MachineIdLostException e) {
            a = -1;
        }
    }

    /** The lease's thread: a restore heard, 7 forgotten, 3 claimed and confirmed. */
    @Actor
    public void lease() {
        lease.afterRestore();
        lease.renewNow();
    }

    /** @param r what the actor got; the new id on an old tick; the arbiter after it */
    @Arbiter
    public void arbiter(III_Result r) {
        long after = ids.nextLong();
        if (a < 0) {
            r.r1 = 0;
            r.r2 = 0;
        } else {
            long machine = (a >>> LAYOUT.machineShift()) & LAYOUT.maxMachineId();
            r.r1 = machine == 7 ? 1 : machine == 3 ? 2 : 9;
            r.r2 = machine == 3 && (a >>> LAYOUT.timestampShift()) <= firstTick ? 1 : 0;
        }
        r.r3 = after > a ? 1 : 0;
    }
}
