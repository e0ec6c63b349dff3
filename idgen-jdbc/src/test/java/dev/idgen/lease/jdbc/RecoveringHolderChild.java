package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * The child process of {@link ProcessPauseRecoveryTest}: holds a lease on PostgreSQL with the
 * builder's DEFAULT timings (ttl 30 s, renewal every 6 s) over machine ids 0 and 1, and writes IDs to
 * a file, one every few microseconds. It notices a stop by the gap in its own loop. After resuming it
 * keeps calling until it has made IDs again for one second (or 30 s passed), then prints what it saw.
 */
public final class RecoveringHolderChild {

    private RecoveringHolderChild() {
    }

    /**
     * @param args table, output file
     * @throws IOException if the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        String table = args[0];
        String out = args[1];
        TestDatabase.Switchable ds = new TestDatabase.Switchable(TestDatabase.POSTGRESQL);
        JdbcMachineIdLease lease = JdbcMachineIdLease.builder(ds).table(table).maxMachineId(1)
                .owner("child/" + ProcessHandle.current().pid()).acquire();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long made = 0;
        long refusals = 0;
        long resumedAt = 0;
        long firstAfterResume = 0;
        long idBefore = lease.machineId();
        long idAfter = -1;
        long madeAfterResume = 0;
        long oldIdAfterResume = 0; // IDs under the lost id from calls started after the stop: must stay 0
        long refusalsAfterResume = 0;
        long firstCallAfterResume = 0; // 1: refused, 2: returned an ID
        long deadline = System.currentTimeMillis() + 120_000;
        try (DataOutputStream w = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(out), 1 << 20))) {
            System.out.println("held " + idBefore);
            System.out.flush();
            long last = System.currentTimeMillis();
            while (true) {
                // the stop is noticed before the call, so the first call after SIGCONT counts as after it
                long now = System.currentTimeMillis();
                if (now - last > 2000 && resumedAt == 0) {
                    resumedAt = now; // the loop stood still: we were stopped
                }
                last = now;
                boolean afterResume = resumedAt != 0;
                try {
                    long id = ids.nextLong();
                    w.writeLong(id);
                    made++;
                    if (afterResume) {
                        long machine = SnowflakeLayout.TWITTER.decode(id).machineId();
                        if (machine == idBefore) {
                            oldIdAfterResume++;
                        }
                        if (madeAfterResume++ == 0) {
                            firstAfterResume = System.currentTimeMillis();
                            idAfter = machine;
                            firstCallAfterResume = firstCallAfterResume == 0 ? 2 : firstCallAfterResume;
                        }
                    }
                } catch (MachineIdLostException e) {
                    refusals++;
                    if (afterResume) {
                        refusalsAfterResume++;
                        firstCallAfterResume = firstCallAfterResume == 0 ? 1 : firstCallAfterResume;
                    }
                }
                java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                if (firstAfterResume != 0 && now - firstAfterResume > 1000
                        || resumedAt != 0 && now - resumedAt > 30_000 || now > deadline) {
                    break;
                }
            }
        }
        System.out.println("done made=" + made + " refusals=" + refusals + " resumedAt=" + resumedAt
                + " firstAfterResume=" + firstAfterResume + " madeAfterResume=" + madeAfterResume
                + " idBefore=" + idBefore + " idAfter=" + idAfter + " reclaims=" + lease.reclaims()
                + " oldIdAfterResume=" + oldIdAfterResume + " refusalsAfterResume=" + refusalsAfterResume
                + " firstCallAfterResume=" + firstCallAfterResume);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
