package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * The child process of {@link ProcessPauseTest}: holds a lease on PostgreSQL (renewing on its own
 * thread, as in production) and writes IDs to a file as fast as it can. It notices a stop by the
 * gap in its own loop, and ends one second after it resumed, printing what it saw.
 */
public final class PausedHolderChild {

    private PausedHolderChild() {
    }

    public static void main(String[] args) throws IOException {
        String table = args[0];
        String out = args[1];
        TestDatabase.Switchable ds = new TestDatabase.Switchable(TestDatabase.POSTGRESQL);
        JdbcMachineIdLease lease = JdbcMachineIdLeaseTest.shortTimings(JdbcMachineIdLease.builder(ds)).table(table)
                .maxMachineId(0).owner("child/" + ProcessHandle.current().pid()).acquire();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        long made = 0;
        long refusals = 0;
        long resumedAt = 0;
        long firstRefusalAfterResume = 0;
        long madeAfterResume = 0;
        long deadline = System.currentTimeMillis() + 40_000;
        try (DataOutputStream w = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(out), 1 << 20))) {
            System.out.println("held " + lease.fence().toEpochMilli());
            System.out.flush();
            long last = System.currentTimeMillis();
            while (true) {
                try {
                    w.writeLong(ids.nextLong());
                    made++;
                    if (resumedAt != 0) {
                        madeAfterResume++;
                    }
                } catch (MachineIdLostException e) {
                    refusals++;
                    if (resumedAt != 0 && firstRefusalAfterResume == 0) {
                        firstRefusalAfterResume = System.currentTimeMillis();
                    }
                }
                long now = System.currentTimeMillis();
                if (now - last > 1000 && resumedAt == 0) {
                    resumedAt = now; // the loop stood still: we were stopped
                }
                last = now;
                if (resumedAt != 0 && now - resumedAt > 1000 || now > deadline) {
                    break;
                }
            }
        }
        System.out.println("done made=" + made + " refusals=" + refusals + " resumedAt=" + resumedAt
                + " firstRefusalAfterResume=" + firstRefusalAfterResume + " madeAfterResume=" + madeAfterResume);
        System.out.flush();
        Runtime.getRuntime().halt(0); // no release: as a process that dies after its pause
    }
}
