package dev.idgen.lease.jdbc;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLeaseException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A machine id leased from a database table (PostgreSQL, MySQL, MariaDB, H2), for one generator.
 *
 * <pre>{@code
 * JdbcMachineIdLease lease = JdbcMachineIdLease.builder(dataSource)
 *         .table("idgen_machine_lease").createTable(true)
 *         .layout(SnowflakeLayout.TWITTER)
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p>The life of the lease (claiming, the time fence, renewing, claiming again, restores) is
 * {@link StoreLease}'s, the same on every store; {@code docs/lease-safety.md} argues it. The table
 * holds a row per machine id and one for the namespace; every write is one statement that compares
 * the row's nonce, except the creation of new rows, one transaction with the namespace row. Times
 * are the database's clock. The lease takes a connection for each statement and closes it at
 * once: give it a pool, and set the driver's connect or login timeout (a statement is bounded by
 * the lease itself).
 *
 * <p>The table comes from {@link Builder#createTable(boolean)} or the shipped DDL
 * ({@code dev/idgen/lease/jdbc/ddl/<dialect>.sql}), run once: both insert the namespace row with the
 * table, which shows the table new, so the first claim starts at once. A table that lost the row (a
 * {@code TRUNCATE}, a restored dump without it), or one made before 0.1.0, counts as emptied: its
 * ids without a row are free one ttl after the first claim looked, when no earlier holder can still
 * be making IDs with them.
 */
public final class JdbcMachineIdLease extends StoreLease {

    private final String table;

    private JdbcMachineIdLease(Builder builder, JdbcLeaseStore store) {
        super(builder, store);
        this.table = builder.table;
    }

    /**
     * A builder for leases on the table behind {@code dataSource}.
     *
     * @param dataSource where the lease table lives; a pool
     * @return a new builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** {@return the lease table} */
    public String table() {
        return table;
    }

    /**
     * Configures and acquires a {@link JdbcMachineIdLease}: the table and how to reach it here, the
     * rest ({@link LeaseBuilder}) as on every store. Not thread-safe.
     */
    public static final class Builder extends LeaseBuilder<Builder, JdbcMachineIdLease> {
        private final DataSource dataSource;
        private String table = "idgen_machine_lease";
        private SqlDialect dialect;
        private boolean createTable;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * @param table the lease table, a plain identifier, optionally {@code schema.table}; default
         *     {@code idgen_machine_lease}
         * @return this builder
         * @throws IllegalArgumentException if it is not a plain identifier
         */
        public Builder table(String table) {
            this.table = LeaseTable.checkName(table);
            return this;
        }

        /**
         * @param dialect the SQL dialect; default: detected from the connection's metadata
         * @return this builder
         */
        public Builder dialect(SqlDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * @param create make the table (with its namespace row) before claiming if it does not exist,
         *     or add the columns a table of an earlier version lacks; default {@code false} (the
         *     table is expected to exist)
         * @return this builder
         */
        public Builder createTable(boolean create) {
            this.createTable = create;
            return this;
        }

        /**
         * Makes the table with its namespace row if it does not exist, or adds the columns a table of
         * an earlier version lacks.
         *
         * @return whether the table was made by this call
         * @throws MachineIdLeaseException if the database refuses
         */
        public boolean createTableNow() {
            try (Connection c = dataSource.getConnection()) {
                return new LeaseTable(table, dialectOf(c)).create(c);
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not create lease table " + table + ": " + e.getMessage(), e);
            }
        }

        @Override
        protected JdbcMachineIdLease newLease() {
            return new JdbcMachineIdLease(this, store(dataSource));
        }

        /**
         * The table over {@code via}, checked (made first with {@link #createTable(boolean)}).
         *
         * @throws MachineIdLeaseException naming the table, if it is missing or the database refuses
         */
        JdbcLeaseStore store(DataSource via) {
            // a statement may take a third of the timings' headroom; at least 1 s, since one cut
            // short costs its connection (the fence never depends on it)
            long callMillis = Math.max(1000, timings(true).callTimeout().toMillis());
            LeaseTable t;
            try (Connection c = via.getConnection()) {
                t = new LeaseTable(table, dialectOf(c));
                if (createTable) {
                    t.create(c);
                }
                t.check(c);
            } catch (SQLException e) {
                throw new MachineIdLeaseException("Could not claim a machine id in table " + table + ": "
                        + e.getMessage(), e);
            }
            return new JdbcLeaseStore(via, t, clock(), (int) Math.min(Integer.MAX_VALUE, callMillis));
        }

        private SqlDialect dialectOf(Connection c) throws SQLException {
            return dialect != null ? dialect : SqlDialect.of(c.getMetaData().getDatabaseProductName());
        }
    }
}
