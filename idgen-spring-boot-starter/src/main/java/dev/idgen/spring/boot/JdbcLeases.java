package dev.idgen.spring.boot;

import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import javax.sql.DataSource;

/** {@code idgen.machine-id.source=jdbc}; loaded only when idgen-lease-jdbc is present. */
final class JdbcLeases {

    private JdbcLeases() {
    }

    static MachineIdLease acquire(IdgenProperties.Jdbc p, SnowflakeLayout layout, DataSource dataSource,
            boolean reclaimAnyId) {
        JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(dataSource).table(p.getTable())
                .createTable(p.isCreateTable()).maxMachineId(layout.maxMachineId()).reclaimAnyId(reclaimAnyId);
        p.timings(b::ttl, b::renewEvery);
        try {
            return b.acquire(); // closed (released) by Spring at shutdown: JdbcMachineIdLease.close()
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=jdbc: no machine id could be claimed in"
                    + " table " + p.getTable() + ": " + e.getMessage(), e);
        }
    }
}
