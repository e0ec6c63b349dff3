/**
 * idgen lease over JDBC: {@link dev.idgen.lease.jdbc.JdbcMachineIdLease} holds a machine id in a
 * database table, renews it, fences its generator before the id could pass to another holder, and
 * carries the high-water mark from one holder to the next. Plain JDBC: bring the driver and the
 * {@link javax.sql.DataSource}. {@link dev.idgen.segment.jdbc.JdbcSegmentSource} grants segment ranges
 * (dense numbers) from a table of counters.
 */
module dev.idgen.jdbc {
    requires transitive dev.idgen.core;
    requires transitive java.sql;
    requires org.slf4j;

    exports dev.idgen.lease.jdbc;
    exports dev.idgen.segment.jdbc;
}
