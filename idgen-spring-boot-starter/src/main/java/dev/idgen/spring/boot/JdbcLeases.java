package dev.idgen.spring.boot;

import dev.idgen.lease.jdbc.JdbcMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import javax.sql.DataSource;

/** {@code idgen.machine-id.source=jdbc}; loaded only when idgen-jdbc is present. */
final class JdbcLeases {

    private JdbcLeases() {
    }

    static MachineIdLease acquire(IdgenProperties.Jdbc p, SnowflakeLayout layout, DataSource dataSource,
            boolean reclaimAnyId) {
        JdbcMachineIdLease.Builder b = LeaseBuilders.configure(JdbcMachineIdLease.builder(dataSource)
                .table(p.getTable()).createTable(p.isCreateTable()).reclaimAnyId(reclaimAnyId), "jdbc", p, layout, true);
        try {
            return b.acquire(); // closed (released) by Spring at shutdown: JdbcMachineIdLease.close()
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=jdbc: no machine id could be claimed in"
                    + " table " + p.getTable() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Claims exactly {@code id} (from fixed, env or pod-ordinal) in the lease table: renewed and
     * fenced like a leased id, never moved to another id.
     *
     * @param source the property value, for the message
     * @param change what to change for another id (names the property or variable)
     */
    static MachineIdLease acquireExact(IdgenProperties.Jdbc p, SnowflakeLayout layout, DataSource dataSource, long id,
            String source, String change) {
        JdbcMachineIdLease.Builder b = LeaseBuilders.configure(JdbcMachineIdLease.builder(dataSource)
                .table(p.getTable()).createTable(p.isCreateTable()).machineId(id), "jdbc", p, layout, true);
        try {
            return b.acquire();
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=" + source + " gives machine id " + id
                    + ", checked in table " + p.getTable() + " (idgen.machine-id.check-with), and it cannot be claimed: "
                    + e.getMessage(), "Give this instance a machine id of its own: change " + change
                    + " (each running instance needs a different one), or stop the instance named above. To start"
                    + " without the check (nothing then stops two instances sharing an id), set"
                    + " idgen.machine-id.check-with=none.", e);
        }
    }
}
