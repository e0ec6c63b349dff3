package dev.idgen.testkit.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fleet check against an in-memory coordinator (real time, a dead holder's id free 300 ms after
 * its death, its fence 100 ms after): a correct coordinator passes; one that frees a dead holder's
 * id at once (its fence 5 s after the death), one that gives an id twice, and one whose refusal does not say how to widen the space
 * each fail, for that reason. So the check can fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeaseFleetTest {

    private static final LeaseFleet.Settings SMALL = new LeaseFleet.Settings(20, 5, 4, Duration.ofMillis(300),
            Duration.ofMillis(20), Duration.ofSeconds(10));

    /** Ids 0..max; a slot is free once its holder has been dead for {@code freeAfter} ms. */
    private static final class Coordinator implements LeaseFleet.Backend {
        final long freeAfterMillis;
        final long fenceLeadMillis;
        final boolean giveTwice;
        final String full;
        final long[] deadSince = new long[64];
        final boolean[] taken = new boolean[64];
        final AtomicLong ops = new AtomicLong();

        Coordinator(long freeAfterMillis, long fenceLeadMillis, boolean giveTwice, String full) {
            this.freeAfterMillis = freeAfterMillis;
            this.fenceLeadMillis = fenceLeadMillis;
            this.giveTwice = giveTwice;
            this.full = full;
        }

        synchronized long claim(long max) {
            ops.incrementAndGet();
            long now = System.currentTimeMillis();
            for (int id = 0; id <= max; id++) {
                boolean free = !taken[id] || deadSince[id] != 0 && now - deadSince[id] >= freeAfterMillis;
                if (free || giveTwice && id == 3) {
                    taken[id] = true;
                    deadSince[id] = 0;
                    return id;
                }
            }
            throw new MachineIdLeaseException(full.replace("MAX", Long.toString(max)));
        }

        synchronized void die(long id) {
            deadSince[(int) id] = System.currentTimeMillis();
        }

        @Override
        public LeaseFleet.Member member(int index, long maxMachineId) {
            return new LeaseFleet.Member() {
                volatile long id = -1;
                volatile long diedAt;

                @Override
                public FencingLease acquire() {
                    id = claim(maxMachineId);
                    return new FencingLease() {
                        final long mine = id;

                        @Override
                        public long machineId() {
                            return mine;
                        }

                        @Override
                        public boolean isHeld() {
                            return diedAt == 0;
                        }

                        @Override
                        public void attach(MachineIdUser user) {
                        }
                    };
                }

                @Override
                public Instant fence() {
                    // renewed until its death: the fence stays ahead, then stops
                    return Instant.ofEpochMilli((diedAt == 0 ? System.currentTimeMillis() : diedAt) + fenceLeadMillis);
                }

                @Override
                public void die() {
                    diedAt = System.currentTimeMillis();
                    Coordinator.this.die(id);
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public long serverOps() {
            return ops.get();
        }

        @Override
        public String opsName() {
            return "claims";
        }
    }

    private static final String GOOD = "Every machine id 0..MAX is held; raise maxMachineId or use a layout with more bits";

    @Test
    void aMemberAroundALeaseClaimsReadsItsFenceDiesAndReleasesOnlyWhileReachable() {
        LeaseTimings timings = new LeaseTimings(Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofMillis(500));
        InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(1_000_000));
        int[] released = new int[1];
        boolean[] reachable = {true};
        int[] deaths = new int[1];
        Supplier<GuardedLease> claim = () -> {
            LeaseGuard guard = new LeaseGuard("machine id 4 in test", timings, clock);
            guard.claimed(1_010_000, MachineIdLease.NO_MARK);
            guard.acknowledged(1_010_000, MachineIdLease.NO_MARK);
            return new GuardedLease(4, guard) {
                @Override
                public void close() {
                    released[0]++;
                    guard().release();
                }
            };
        };
        LeaseFleet.Member m = LeaseFleet.member(claim, () -> deaths[0]++, () -> reachable[0]);
        m.close();
        assertEquals(0, released[0], "nothing claimed, nothing released");
        assertEquals(4, m.acquire().machineId());
        assertEquals(Instant.ofEpochMilli(1_010_000 - 1_500), m.fence(), "the lease's own fence");
        m.die();
        assertEquals(1, deaths[0]);
        reachable[0] = false;
        m.close();
        assertEquals(0, released[0], "a member cut off from its coordinator does not release");
        reachable[0] = true;
        m.close();
        assertEquals(1, released[0]);
    }

    @Test
    void aCoordinatorThatFreesIdsOnlyAfterExpiryPasses() {
        LeaseFleet.Result r = LeaseFleet.run("fake", new Coordinator(300, 100, false, GOOD), SMALL);
        assertEquals(20, r.claimers());
        assertEquals(5, r.died());
        assertTrue(r.firstReclaimMillis() >= 300, r.toString());
        assertTrue(r.minMarginMillis() > 0, r.toString());
        assertEquals(-1, r.minServerMarginMillis());
    }

    @Test
    void aCoordinatorThatFreesADeadHoldersIdAtOnceFails() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> LeaseFleet.run("fake", new Coordinator(0, 5000, false, GOOD), SMALL));
        assertTrue(e.getMessage().contains("not after its dead holder's fence"), e.getMessage());
    }

    @Test
    void aCoordinatorThatGivesAnIdTwiceFails() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> LeaseFleet.run("fake", new Coordinator(300, 100, true, GOOD), SMALL));
        assertTrue(e.getMessage().contains("distinct ids"), e.getMessage());
    }

    @Test
    void aRefusalThatDoesNotSayHowToWidenTheSpaceFails() {
        AssertionError e = assertThrows(AssertionError.class, () -> LeaseFleet.run("fake",
                new Coordinator(300, 100, false, "Every machine id 0..MAX is held; free one or widen the range"), SMALL));
        assertTrue(e.getMessage().contains("how to widen it"), e.getMessage());
    }
}
