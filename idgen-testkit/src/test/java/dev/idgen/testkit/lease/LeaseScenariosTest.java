package dev.idgen.testkit.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios against an in-memory coordinator (one row, real time, ttl 600 ms): a lease written
 * on {@link LeaseGuard} passes them; a lease whose fence follows a held flag that only its own
 * renewal thread clears, as the leases did before the time fence, fails the loss scenario. So the
 * scenarios can fail, and fail for the reason they exist.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeaseScenariosTest {

    private static final LeaseTimings TIMINGS = new LeaseTimings(Duration.ofMillis(600), Duration.ofMillis(100),
            Duration.ofMillis(50), Duration.ofMillis(50));

    /** One lease row, on the coordinator's clock: the JDBC protocol without the database. */
    private static final class Row {
        String owner;
        long token;
        long expires = Long.MIN_VALUE;
        long mark = Long.MIN_VALUE;

        synchronized long[] claim(String who) {
            long now = System.currentTimeMillis();
            if (expires >= now) {
                return null;
            }
            long earlierFence = TIMINGS.fenceFor(expires); // as the JDBC claim statement raises it
            if (earlierFence != Long.MIN_VALUE) {
                mark = Math.max(mark, earlierFence - 1);
            }
            owner = who;
            token++;
            expires = now + TIMINGS.ttl().toMillis();
            return new long[] {token, expires, mark};
        }

        synchronized long[] renew(String who, long tok, long theirMark) {
            if (!who.equals(owner) || tok != token) {
                return null;
            }
            mark = Math.max(mark, theirMark);
            expires = System.currentTimeMillis() + TIMINGS.ttl().toMillis();
            return new long[] {token, expires, mark};
        }

        synchronized void release(String who, long tok, long theirMark) {
            if (who.equals(owner) && tok == token) {
                mark = Math.max(mark, theirMark);
                expires = System.currentTimeMillis() - 1;
            }
        }
    }

    /** A lease on {@link LeaseGuard}: the backend writes claim, renew and release, nothing else. */
    private static final class GuardedLease implements FencingLease {
        final Row row;
        final String owner;
        final LeaseGuard guard;
        final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "renew");
            t.setDaemon(true);
            return t;
        });
        volatile boolean cut;
        long token;

        GuardedLease(Row row, String owner, InstantSource clock) {
            this.row = row;
            this.owner = owner;
            this.guard = new LeaseGuard("machine id 0 in memory", TIMINGS, clock);
        }

        boolean claim() {
            long[] c = row.claim(owner);
            if (c == null) {
                return false;
            }
            token = c[0];
            guard.claimed(c[1], c[2]);
            renew();
            long every = TIMINGS.renewEvery().toMillis();
            renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
            return true;
        }

        synchronized void renew() {
            if (cut || guard.isReleased()) {
                return;
            }
            long[] r = row.renew(owner, token, guard.markToRecord());
            if (r == null) {
                guard.lost("taken over");
            } else {
                guard.acknowledged(r[1], r[2]);
            }
        }

        void release() {
            long mark = guard.release();
            renewer.shutdownNow();
            if (!cut) {
                row.release(owner, token, mark);
            }
        }

        @Override
        public long machineId() {
            return 0;
        }

        @Override
        public boolean isHeld() {
            return guard.isHeld();
        }

        @Override
        public long highWaterMark() {
            return guard.highWaterMark();
        }

        @Override
        public void attach(MachineIdUser user) {
            guard.attach(user);
        }
    }

    /**
     * The old way: the fence opens on a claim and shuts only when the renewal thread sees the row
     * gone. Cut off from the coordinator, that thread never sees it.
     */
    private static final class FlagLease implements FencingLease {
        final Row row;
        final String owner;
        MachineIdUser user;
        volatile boolean held;
        long token;

        FlagLease(Row row, String owner) {
            this.row = row;
            this.owner = owner;
        }

        @Override
        public long machineId() {
            return 0;
        }

        @Override
        public boolean isHeld() {
            return held;
        }

        @Override
        public void attach(MachineIdUser u) {
            user = u;
            u.fenceFrom(held ? Long.MAX_VALUE : Long.MIN_VALUE);
        }
    }

    private static LeaseBackend guarded(Row row) {
        return (name, clock) -> new LeaseBackend.Claimer() {
            GuardedLease lease;

            @Override
            public FencingLease tryAcquire() {
                GuardedLease l = new GuardedLease(row, name, clock);
                if (!l.claim()) {
                    return null;
                }
                lease = l;
                return l;
            }

            @Override
            public void release() {
                lease.release();
            }

            @Override
            public void cutOff() {
                lease.cut = true;
            }

            @Override
            public void close() {
                if (lease != null) {
                    lease.release();
                }
            }
        };
    }

    private static LeaseBackend flagged(Row row) {
        return (name, clock) -> new LeaseBackend.Claimer() {
            FlagLease lease;

            @Override
            public FencingLease tryAcquire() {
                long[] c = row.claim(name);
                if (c == null) {
                    return null;
                }
                lease = new FlagLease(row, name);
                lease.token = c[0];
                lease.held = true;
                return lease;
            }

            @Override
            public void release() {
                lease.held = false;
                if (lease.user != null) {
                    lease.user.fenceFrom(Long.MIN_VALUE);
                }
                row.release(name, lease.token, lease.user == null ? Long.MIN_VALUE : lease.user.highWaterMark());
            }

            @Override
            public void cutOff() {
                // its renewal thread can no longer reach the row, so nothing ever clears the flag
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void aLeaseOnLeaseGuardPassesEveryScenario() {
        LeaseScenarios.Report r = LeaseScenarios.check(guarded(new Row()), Duration.ofSeconds(10));
        assertTrue(r.churn().claims() > 0);
        assertTrue(r.loss().oldRefusals() > 0);
        assertTrue(r.loss().oldLastMillis() < r.loss().newStartMillis());
        assertEquals(r.churn().claims() * 100, r.churn().ids());
    }

    @Test
    void aFenceThatFollowsAHeldFlagFailsTheLossScenario() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> LeaseScenarios.fencingOnLoss(flagged(new Row()), Duration.ofSeconds(10)));
        assertTrue(e.getMessage().startsWith("fencing on loss: "), e.getMessage());
    }
}
