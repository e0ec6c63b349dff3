package dev.idgen.lease.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import io.etcd.jetcd.Client;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults of the etcd server itself, on real etcd processes: the only server stopped and restarted,
 * and a three-member cluster losing the member (the leader) the client talks to. Each prints the
 * times it measured.
 */
@Tag("slow")
class EtcdLeaseFaultTest {

    private static final SnowflakeLayout LAYOUT = SnowflakeLayout.TWITTER;
    /**
     * The fence trails the start of the last acknowledged write by the silence bound: renewal 400 ms
     * + skew 2 x 200 ms + 2 x a third of the 1,100 ms headroom = 1,533 ms.
     */
    private static final long FENCE_AFTER_SEND_MILLIS = 1533;

    @Test
    void aStoppedServerFencesWithinTheBoundAndTheHolderResumesAfterTheRestart() {
        try (EtcdCluster etcd = EtcdCluster.start(1);
                Client client = Client.builder().endpoints(etcd.endpoint(0)).build()) {
            String ns = "/idgen-etcd-test/stop/" + System.nanoTime();
            EtcdMachineIdLease.builder(client).namespace(ns).initializeNewNamespace();
            EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(client))
                    .namespace(ns).maxMachineId(0).acquire();
            Maker maker = Maker.start(SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).build());
            EtcdCluster.sleep(1000);
            long cut = System.nanoTime();
            etcd.kill(0);
            long refusedAt = maker.awaitRefusal(cut, 5_000);
            long refusedAfter = (refusedAt - cut) / 1_000_000;
            // the last keep-alive acknowledged before the kill was sent before it: refused within the bound
            // + scheduling on a loaded machine
            assertTrue(refusedAfter <= FENCE_AFTER_SEND_MILLIS + 300,
                    "refused " + refusedAfter + " ms after the server stopped, beyond " + FENCE_AFTER_SEND_MILLIS + " ms");
            EtcdCluster.sleep(Math.max(0, 4_000 - (System.nanoTime() - cut) / 1_000_000)); // down longer than the TTL
            long restart = System.nanoTime();
            etcd.restart(0);
            long healthy = System.nanoTime();
            long resumedAt = maker.awaitIdAfter(healthy, 30_000);
            maker.stop();
            System.out.printf("etcd server stopped: refused %d ms after the kill (bound %d ms); restarted after %d ms,"
                    + " healthy %d ms after the start, first new ID %d ms after healthy%n", refusedAfter,
                    FENCE_AFTER_SEND_MILLIS, (restart - cut) / 1_000_000, (healthy - restart) / 1_000_000,
                    (resumedAt - healthy) / 1_000_000);
            assertEquals(0, maker.outOfOrder, "IDs from one generator must rise");
            assertTrue(lease.isHeld(), lease.toString());
            lease.close();
        }
    }

    @Test
    void aThreeMemberClusterLosingTheLeaderTheClientTalksToKeepsTheIdWithTheHolder() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.start(3)) {
            int leader = leaderOf(etcd);
            List<String> order = new ArrayList<>(List.of(etcd.endpoints()));
            order.add(0, order.remove(leader)); // the leader first: pick_first talks to it alone
            String ns = "/idgen-etcd-test/cluster/" + System.nanoTime();
            try (Client a = Client.builder().endpoints(order.toArray(String[]::new)).loadBalancerPolicy("pick_first")
                    .build();
                    Client b = Client.builder().endpoints(order.subList(1, 3).toArray(String[]::new)).build()) {
                EtcdMachineIdLease.builder(a).namespace(ns).initializeNewNamespace();
                EtcdMachineIdLease lease = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(a)).namespace(ns)
                        .maxMachineId(0).acquire();
                Maker maker = Maker.start(SnowflakeGenerator.builder().layout(LAYOUT).machineId(lease).build());
                EtcdCluster.sleep(1000);
                long cut = System.nanoTime();
                etcd.kill(leader);
                // for two TTLs another claimer, on the surviving members, must find the id held
                int tries = 0;
                while (System.nanoTime() - cut < 6_000_000_000L) {
                    try {
                        EtcdMachineIdLease other = EtcdLeaseBackend.timings(EtcdMachineIdLease.builder(b)).namespace(ns)
                                .maxMachineId(0).acquire();
                        other.close();
                        throw new AssertionError("another claimer got machine id " + other.machineId()
                                + " while the holder kept it alive through the new leader");
                    } catch (MachineIdLeaseException e) {
                        // a claim may also fail while the cluster elects; only "held" counts
                        if (e.getMessage().startsWith("Every machine id")) {
                            tries++;
                        }
                    }
                    EtcdCluster.sleep(200);
                }
                long firstRefusal = maker.firstRefusalAfter(cut);
                long lastRefusal = maker.lastRefusalNanos;
                maker.stop();
                System.out.printf("etcd cluster lost its leader (the client's member): %s; %d claims by another client"
                        + " all found the id held; holder held at the end: %s%n",
                        firstRefusal == 0 ? "the holder was never refused"
                                : "refused from " + (firstRefusal - cut) / 1_000_000 + " ms to "
                                        + (lastRefusal - cut) / 1_000_000 + " ms after the kill",
                        tries, lease.isHeld());
                assertTrue(tries > 5, "tries " + tries);
                assertTrue(lease.isHeld(), lease.toString());
                assertTrue(maker.idsAfter(cut + 5_000_000_000L) > 0, "the holder made no ID in the last second");
                assertEquals(0, maker.outOfOrder, "IDs from one generator must rise");
                lease.close();
            }
        }
    }

    private static int leaderOf(EtcdCluster etcd) throws Exception {
        try (Client c = Client.builder().endpoints(etcd.endpoints()).build()) {
            for (int i = 0; i < etcd.size(); i++) {
                var s = c.getMaintenanceClient().statusMember(etcd.endpoint(i)).get();
                if (s.getHeader().getMemberId() == s.getLeader()) {
                    return i;
                }
            }
        }
        throw new AssertionError("no member is the leader");
    }

    /** Makes IDs on a thread of its own, noting the times of IDs and refusals. */
    private static final class Maker implements Runnable {
        private final SnowflakeGenerator generator;
        private final Thread thread;
        private volatile boolean stop;
        private volatile long lastIdNanos;
        private final List<long[]> refusals = new ArrayList<>(); // [from, to] runs of refusals
        private volatile long lastRefusalNanos;
        private volatile int outOfOrder;
        private final List<Long> idTimes = new ArrayList<>();

        private Maker(SnowflakeGenerator generator) {
            this.generator = generator;
            this.thread = new Thread(this, "etcd-fault-ids");
        }

        static Maker start(SnowflakeGenerator g) {
            Maker m = new Maker(g);
            m.thread.start();
            return m;
        }

        @Override
        public void run() {
            long last = Long.MIN_VALUE;
            while (!stop) {
                long now = System.nanoTime();
                try {
                    long id = generator.nextLong();
                    if (id <= last) {
                        outOfOrder++;
                    }
                    last = id;
                    synchronized (idTimes) {
                        idTimes.add(now);
                    }
                    lastIdNanos = now;
                } catch (MachineIdLostException e) {
                    synchronized (refusals) {
                        if (refusals.isEmpty() || refusals.get(refusals.size() - 1)[1] < lastIdNanos) {
                            refusals.add(new long[] {now, now});
                        } else {
                            refusals.get(refusals.size() - 1)[1] = now;
                        }
                    }
                    lastRefusalNanos = now;
                }
                LockSupport.parkNanos(1_000_000);
            }
        }

        /** The first refusal at or after {@code from}, waiting up to {@code limitMillis}. */
        long awaitRefusal(long from, long limitMillis) {
            long end = System.nanoTime() + limitMillis * 1_000_000;
            while (System.nanoTime() - end < 0) {
                long r = firstRefusalAfter(from);
                if (r != 0) {
                    return r;
                }
                EtcdCluster.sleep(5);
            }
            throw new AssertionError("never refused within " + limitMillis + " ms");
        }

        long firstRefusalAfter(long from) {
            synchronized (refusals) {
                for (long[] run : refusals) {
                    if (run[1] >= from) {
                        return Math.max(run[0], from);
                    }
                }
            }
            return 0;
        }

        /** The time of the first ID made at or after {@code from}, waiting up to {@code limitMillis}. */
        long awaitIdAfter(long from, long limitMillis) {
            long end = System.nanoTime() + limitMillis * 1_000_000;
            while (System.nanoTime() - end < 0) {
                synchronized (idTimes) {
                    for (int i = idTimes.size() - 1; i >= 0 && idTimes.get(i) >= from; i--) {
                        if (i == 0 || idTimes.get(i - 1) < from) {
                            return idTimes.get(i);
                        }
                    }
                }
                EtcdCluster.sleep(5);
            }
            throw new AssertionError("no ID within " + limitMillis + " ms of the restart");
        }

        int idsAfter(long from) {
            synchronized (idTimes) {
                return (int) idTimes.stream().filter(t -> t >= from).count();
            }
        }

        void stop() {
            stop = true;
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                throw new AssertionError("the ID-making thread did not stop within 5 s of being told to");
            }
        }
    }
}
