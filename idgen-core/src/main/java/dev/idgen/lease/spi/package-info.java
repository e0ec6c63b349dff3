/**
 * For store implementers: {@link dev.idgen.lease.spi.LeaseStore}, the few atomic operations a store
 * of machine-id leases offers (read the clock, read and conditionally replace records, create the
 * namespace and extend it), and the values it keeps ({@link dev.idgen.lease.spi.LeaseRecord},
 * {@link dev.idgen.lease.spi.NamespaceRecord}, {@link dev.idgen.lease.spi.StoreTime}). A store holds
 * no rule: the life of a lease is {@code dev.idgen.lease}'s.
 */
package dev.idgen.lease.spi;
