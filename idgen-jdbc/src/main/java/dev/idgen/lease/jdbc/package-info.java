/**
 * Machine-id leases on a database table over plain JDBC: {@link dev.idgen.lease.jdbc.JdbcMachineIdLease}
 * claims the lowest free id with one conditional statement, renews it at a fraction of its TTL by
 * the database's clock, fences its generator before the database could give the id to anyone else,
 * and carries the high-water mark from one holder of an id to the next.
 */
package dev.idgen.lease.jdbc;
