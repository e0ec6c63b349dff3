/**
 * The life of a machine-id lease, written once for every store: {@link dev.idgen.lease.StoreLease}
 * (claim, confirm, fence by time, renew, claim again, restores, release), its builder base
 * {@link dev.idgen.lease.LeaseBuilder}, the timings and the arithmetic of every fence and floor
 * ({@link dev.idgen.lease.LeaseTimings}), the restore watch ({@link dev.idgen.lease.IncarnationWatch})
 * and a store in memory ({@link dev.idgen.lease.InMemoryLeaseStore}). A store implements
 * {@link dev.idgen.lease.spi.LeaseStore}; {@code docs/lease-safety.md} gives the argument.
 */
package dev.idgen.lease;
