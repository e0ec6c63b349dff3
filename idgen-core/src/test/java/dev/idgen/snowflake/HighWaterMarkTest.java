package dev.idgen.snowflake;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockBackwardsPolicy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The high-water mark a lease carries: a generator never issues an ID at or below it, and a clock
 * behind it meets the clock-backwards policy like a clock step back.
 */
class HighWaterMarkTest {

    private static final long TWEPOCH = 1288834974657L;
    private static final long T = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    private static final long MACHINE = 5;

    /** A lease with a mark set by the test, that remembers who attached to it. */
    private static final class MarkedLease implements FencingLease {
        final AtomicLong mark;
        final List<MachineIdUser> users = new ArrayList<>();

        MarkedLease(long mark) {
            this.mark = new AtomicLong(mark);
        }

        @Override
        public long machineId() {
            return MACHINE;
        }

        @Override
        public boolean isHeld() {
            return true;
        }

        @Override
        public long highWaterMark() {
            return mark.get();
        }

        @Override
        public void attach(MachineIdUser user) {
            users.add(user);
            user.fenceFrom(Long.MAX_VALUE);
        }
    }

    private static SnowflakeGenerator generator(StepClock clock, MachineIdLease lease, ClockBackwardsPolicy policy) {
        return SnowflakeGenerator.builder().clock(clock).machineId(lease).onClockBackwards(policy).build();
    }

    private static long twitterId(long unixMillis, long sequence) {
        return (unixMillis - TWEPOCH) << 22 | MACHINE << 12 | sequence;
    }

    @Test
    void aClockAtTheMarkWaitsForTheNextMillisecond() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(T), ClockBackwardsPolicy.refuse());
        clock.stepPerRead(1); // the clock moves only when read: the spin for the next tick ends
        assertEquals(twitterId(T + 1, 0), ids.nextLong());
    }

    @Test
    void aClockAheadOfTheMarkIsNotHeldBack() {
        StepClock clock = new StepClock(T + 10);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(T), ClockBackwardsPolicy.refuse());
        assertEquals(twitterId(T + 10, 0), ids.nextLong());
        assertEquals(twitterId(T + 10, 1), ids.nextLong());
    }

    @Test
    void aClockFarBehindTheMarkIsRefusedAsAStepBack() {
        StepClock clock = new StepClock(T - 100);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(T), ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        assertEquals(100, e.millisBehind());
        clock.set(T + 1);
        assertEquals(twitterId(T + 1, 0), ids.nextLong(), "once the clock passes the mark, IDs flow");
    }

    @Test
    void aClockSlightlyBehindTheMarkIsWaitedOut() {
        StepClock clock = new StepClock(T - 3);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(T), ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)));
        clock.stepPerRead(1);
        long id = ids.nextLong();
        assertTrue(id >= twitterId(T + 1, 0), () -> "id " + id + " is not above the mark");
    }

    @Test
    void runAheadStartsRightAfterTheMark() {
        StepClock clock = new StepClock(T - 100);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(T), ClockBackwardsPolicy.runAhead(Duration.ofSeconds(1)));
        assertEquals(twitterId(T + 1, 0), ids.nextLong());
        assertEquals(twitterId(T + 1, 1), ids.nextLong());
    }

    @Test
    void theGeneratorReportsTheLastMillisecondItCovered() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = generator(clock, new MarkedLease(MachineIdLease.NO_MARK), ClockBackwardsPolicy.refuse());
        assertEquals(MachineIdLease.NO_MARK, ids.highWaterMark(), "nothing issued yet");
        ids.nextLong();
        assertEquals(T, ids.highWaterMark());
        clock.advance(7);
        ids.nextLong();
        assertEquals(T + 7, ids.highWaterMark());

        // 10 ms ticks: the mark is the last millisecond of the tick, so a 1 ms layout starts after it
        SnowflakeLayout sony = SnowflakeLayout.SONYFLAKE;
        long sonyEpoch = sony.epoch().toEpochMilli();
        long tickStart = T - Math.floorMod(T - sonyEpoch, 10);
        StepClock sonyClock = new StepClock(tickStart + 3);
        SnowflakeGenerator sonyIds = SnowflakeGenerator.builder().layout(sony).clock(sonyClock).machineId(1).build();
        sonyIds.nextLong();
        assertEquals(tickStart + 9, sonyIds.highWaterMark());
    }

    @Test
    void theConstructedGeneratorAttachesItselfAfterApplyingTheMark() {
        MarkedLease lease = new MarkedLease(T + 20);
        SnowflakeGenerator ids = generator(new StepClock(T), lease, ClockBackwardsPolicy.refuse());
        assertEquals(1, lease.users.size());
        assertEquals(1, lease.users.size(), "the generator attached itself once");
        assertEquals(ids.highWaterMark(), lease.users.get(0).highWaterMark(), "the lease sees the generator's mark");
        assertEquals(T + 20, ids.highWaterMark(), "the lease's mark counts as covered before any ID");
    }

    @Test
    void aRaisedMarkLiftsTheNextIdAndALowerOneChangesNothing() {
        StepClock clock = new StepClock(T);
        MarkedLease lease = new MarkedLease(MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = generator(clock, lease, ClockBackwardsPolicy.runAhead(Duration.ofSeconds(1)));
        MachineIdUser view = lease.users.get(0);
        assertEquals(twitterId(T, 0), ids.nextLong());
        view.raiseHighWaterMark(T - 50);
        view.raiseHighWaterMark(MachineIdLease.NO_MARK);
        assertEquals(twitterId(T, 1), ids.nextLong(), "a mark below the state is ignored");
        view.raiseHighWaterMark(T + 40); // a re-acquired lease learnt that another holder got this far
        assertEquals(twitterId(T + 41, 0), ids.nextLong());
        assertEquals(T + 41, ids.highWaterMark());
    }

    @Test
    void marksBeforeTheEpochAreIgnoredAndPastTheLayoutUseItUp() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator early = generator(clock, new MarkedLease(TWEPOCH - 1), ClockBackwardsPolicy.refuse());
        assertEquals(twitterId(T, 0), early.nextLong());

        SnowflakeLayout twitter = SnowflakeLayout.TWITTER;
        long end = twitter.epoch().toEpochMilli() + twitter.maxTimestamp();
        clock.set(end); // the layout's last millisecond: a mark beyond it leaves nothing to issue
        SnowflakeGenerator late = generator(clock, new MarkedLease(end + 1000), ClockBackwardsPolicy.runAhead(Duration.ofDays(1)));
        IllegalStateException e = assertThrows(IllegalStateException.class, late::nextLong);
        assertTrue(e.getMessage().contains("no later id fits the layout"), e.getMessage());
    }

    @Test
    void raisingTheMarkWhileThreadsMakeIdsNeverRepeatsOne() throws InterruptedException {
        StepClock clock = new StepClock(T);
        clock.stepPerRead(1);
        MarkedLease lease = new MarkedLease(MachineIdLease.NO_MARK);
        SnowflakeGenerator ids = generator(clock, lease, ClockBackwardsPolicy.runAhead(Duration.ofDays(1)));
        MachineIdUser view = lease.users.get(0);
        int threads = 4;
        int each = 20_000;
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        List<String> failures = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long last = Long.MIN_VALUE;
                for (int i = 0; i < each; i++) {
                    long id = ids.nextLong();
                    if (id <= last || !seen.add(id)) {
                        synchronized (failures) {
                            failures.add("id " + id + " after " + last);
                        }
                        return;
                    }
                    last = id;
                }
            });
            workers.add(w);
            w.start();
        }
        Thread raiser = new Thread(() -> {
            for (int i = 1; i <= 200; i++) {
                long mark = ids.highWaterMark() + 3;
                view.raiseHighWaterMark(mark);
                long after = ids.nextLong();
                if (((after >>> 22) + TWEPOCH) <= mark || !seen.add(after)) {
                    synchronized (failures) {
                        failures.add("id " + after + " not above the mark " + mark);
                    }
                }
            }
        });
        raiser.start();
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        raiser.join();
        assertEquals(List.of(), failures);
        assertEquals(threads * each + 200, new HashSet<>(seen).size());
    }
}
