package dev.idgen.lease.jdbc;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseBackend;
import java.time.Duration;
import java.time.InstantSource;

/** The shared lease scenarios on one table whose id space is the single id 0. */
final class JdbcLeaseBackend implements LeaseBackend {

    /** ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms: headroom 1100 ms. */
    static JdbcMachineIdLease.Builder timings(JdbcMachineIdLease.Builder b) {
        return b.ttl(Duration.ofMillis(3000)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400));
    }

    private final TestDatabase db;
    private final String table;

    JdbcLeaseBackend(TestDatabase db, String table) {
        this.db = db;
        this.table = table;
        // once, here: concurrent CREATE TABLE IF NOT EXISTS races on PostgreSQL's catalog
        timings(JdbcMachineIdLease.builder(db.dataSource())).table(table).createTableNow();
    }

    @Override
    public Claimer claimer(String name, InstantSource clock) {
        TestDatabase.Switchable ds = db.dataSource();
        JdbcMachineIdLease.Builder b = timings(JdbcMachineIdLease.builder(ds)).table(table).maxMachineId(0)
                .owner(name + "/" + System.nanoTime()).clock(clock);
        return new Claimer() {
            JdbcMachineIdLease lease;

            @Override
            public FencingLease tryAcquire() {
                try {
                    lease = b.acquire();
                    return lease;
                } catch (MachineIdLeaseException e) {
                    if (e.getMessage().startsWith("Every machine id")) {
                        return null;
                    }
                    throw e;
                }
            }

            @Override
            public void release() {
                lease.close();
            }

            @Override
            public void cutOff() {
                ds.down();
            }

            @Override
            public void close() {
                if (lease != null) {
                    lease.close();
                }
            }
        };
    }
}
