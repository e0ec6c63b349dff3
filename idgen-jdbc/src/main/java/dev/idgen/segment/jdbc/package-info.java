/**
 * A {@link dev.idgen.segment.spi.SegmentSource} on a database table over plain JDBC:
 * {@link dev.idgen.segment.jdbc.JdbcSegmentSource}. It sits in this module because the module
 * already holds the JDBC client glue (dialect detection, the database clock); it has its own
 * package because a segment counter is no lease: when the module becomes {@code idgen-jdbc}, the
 * lease and the segment source stay side by side, each in the package named after its concept
 * ({@code dev.idgen.lease.jdbc}, {@code dev.idgen.segment.jdbc}), as in core.
 */
package dev.idgen.segment.jdbc;
