package dev.idgen.jcstress.lease;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.idgen.jcstress.fixture.BenchLayouts;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseTimings;
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
 * The guard raises the generator to the coordinator's mark before the fence opens: an actor that
 * races the confirming write gets either a refusal (the fence was still shut) or an ID above the
 * mark, never an ID at or below it. The claim carries a mark 3 ms ahead of the clock, as when the
 * id's last holder ran ahead.
 *
 * <p>Reported: 1 if the actor got an ID, else 0; 1 if that ID lies at or below the mark, else 0.
 * An ID at or below the mark is FORBIDDEN.
 */
@JCStressTest
@Description("A lease's confirming write races an ID: the mark is raised before the fence opens")
@Outcome(id = {"0, 0", "1, 0"}, expect = ACCEPTABLE, desc = "refused while shut, or an ID above the mark")
@Outcome(expect = FORBIDDEN, desc = "an ID at or below the claimed id's mark")
@State
public class LeaseMarkBeforeFenceTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    private static final LeaseTimings TIMINGS = LeaseTimings.of(Duration.ofSeconds(30), null, null, null);
    private static final long MARK = BenchLayouts.START_MILLIS + 3;

    private final ManualClock clock = ManualClock.atMillis(BenchLayouts.START_MILLIS);
    private final LeaseGuard guard = LeaseGuard.named("in jcstress", TIMINGS, clock);
    private final GuardedLease lease = new GuardedLease(4, guard) {
        @Override
        public void close() {
            guard().release();
        }
    };
    private final SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease)
            .clock(clock).build();
    private long a = -1;

    /** Sets the clock moving 1 ms a read; the clock needs a few reads to pass the mark. */
    public LeaseMarkBeforeFenceTest() {
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

    /** The lease's thread: the claim (mark 3 ms ahead) and its confirming write. */
    @Actor
    public void lease() {
        long expiry = BenchLayouts.START_MILLIS + 60_000;
        guard.claimed(4, expiry, MARK);
        guard.acknowledged(expiry, MARK);
    }

    /** @param r an ID; at or below the mark */
    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = a < 0 ? 0 : 1;
        r.r2 = a >= 0 && LAYOUT.decode(a).timestamp().toEpochMilli() <= MARK ? 1 : 0;
    }
}
