/**
 * Machine-id leases on a database table over plain JDBC: {@link dev.idgen.lease.jdbc.JdbcMachineIdLease}
 * keeps the records of {@link dev.idgen.lease.StoreLease}'s life in a table (a row per machine id
 * and one for the namespace), written by statements that compare each row's nonce, with the
 * database's clock as the store's time.
 */
package dev.idgen.lease.jdbc;
