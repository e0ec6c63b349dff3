/**
 * The seam between a generator and a lease that can be lost: {@link dev.idgen.machine.spi.FencingLease}
 * (a lease that fences its generator by time) and {@link dev.idgen.machine.spi.MachineIdUser} (the
 * view of a generator such a lease raises, fences and moves to another id). The life of a lease on a
 * store is {@code dev.idgen.lease}'s. Users of IDs never need this package.
 */
package dev.idgen.machine.spi;
