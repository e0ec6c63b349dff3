package dev.idgen.testkit.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
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
        InstantSource clock = InstantSource.fixed(Instant.ofEpochMilli(1_000_000));
        InMemoryLeaseStore store = new InMemoryLeaseStore(clock);
        boolean[] reachable = {true};
        int[] deaths = new int[1];
        Supplier<StoreLease> claim = () -> StoreLease.builder(store).clock(clock).background(false)
                .ttl(Duration.ofSeconds(10)).renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .maxClockSkew(Duration.ofMillis(500)).machineId(4).acquire();
        LeaseFleet.Member m = LeaseFleet.member(claim, () -> deaths[0]++, () -> reachable[0]);
        m.close();
        assertTrue(store.records().isEmpty(), "nothing claimed, nothing released");
        assertEquals(4, m.acquire().machineId());
        // headroom 10 - 2 x 2 - 2 x 0.5 - 1 = 4 s, a call at most a third of it: the silence bound is
        // 2 s + 0.5 s + 2 x 1.333 s = 5.166 s after the confirming write, before expiry - skew - margin
        assertEquals(Instant.ofEpochMilli(1_000_000 + 5_166), m.fence(), "the lease's own fence");
        m.die();
        assertEquals(1, deaths[0]);
        reachable[0] = false;
        m.close();
        assertEquals(1_010_000, store.records().get(4L).expiresMillis(), "a member cut off does not release");
        reachable[0] = true;
        m.close();
        assertEquals(999_999, store.records().get(4L).expiresMillis(), "released: free from the store's now on");
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
