package dev.idgen.jcstress.lease;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.lease.spi.LeaseRecord;
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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The life raises the generator to a claim's floor before the fence opens: an actor that races the
 * claim and its confirming write gets either a refusal (the fence was still shut) or an ID above the
 * floor, never one at or below it. The lease holds id 0; on a restore it claims id 1, whose record
 * carries a mark 3 ms ahead of the clock, as when the id's last holder ran ahead.
 *
 * <p>Reported: 1 if the actor got an ID, else 0; 1 if that ID is one of id 1 at or below the mark,
 * else 0 (an ID of id 0, taken before the restore was heard, is the old claim's). An ID of id 1 at or
 * below the mark is FORBIDDEN.
 */
@JCStressTest
@Description("A lease's confirming write races an ID: the mark is raised before the fence opens")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "refused while shut, an ID of the old claim, or one above the mark")
@Outcome(expect = FORBIDDEN, desc = "an ID at or below the claimed id's mark")
@State
public class LeaseMarkBeforeFenceTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private static final long MARK = BenchLayouts.START_MILLIS + 3;

    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final InMemoryLeaseStore store = new InMemoryLeaseStore(clock, "in jcstress");
    private final StoreLease lease = StoreLease.builder(store).clock(clock).layout(LAYOUT).ttl(Duration.ofSeconds(30))
            .background(false).acquire();
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease)
            .clock(clock).build();
    private long a = -1;

    /** Gives id 1 a free record with a mark 3 ms ahead; sets the clock moving 1 ms a read. */
    public LeaseMarkBeforeFenceTest() {
        LeaseRecord one = store.records().get(1L);
        store.replace(1, one.nonce(), new LeaseRecord("ahead", 1, 42, BenchLayouts.START_MILLIS - 60_000, MARK, 4_000));
        clock.autoAdvance(Duration.ofMillis(1));
    }

    /** One ID, or a refusal. */
    @Actor
    public void ids() {
        try {
            a = ids.nextLong();
        } catch (IllegalStateException e) {
            a = -1; // shut, or the clock still behind the mark (a clock-backwards refusal)
        }
    }

    /** The lease's thread: a restore heard, id 1 claimed (its mark 3 ms ahead) and confirmed. */
    @Actor
    public void lease() {
        lease.afterRestore();
        lease.renewNow();
    }

    /** @param r an ID; at or below the mark */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = a < 0 ? 0 : 1;
        r.r2 = a >= 0 && LAYOUT.decode(a).machineId() == 1 && LAYOUT.decode(a).timestamp().toEpochMilli() <= MARK
                ? 1 : 0;
    }
}
