/**
 * For lease implementers: what a coordinator-backed machine-id lease uses to fence its generator by
 * time ({@link dev.idgen.machine.spi.FencingLease}, {@link dev.idgen.machine.spi.MachineIdUser}), the
 * machinery every backend shares ({@link dev.idgen.machine.spi.LeaseGuard}: fence from acknowledged
 * expiries, skew check, state, loss count, owner names; {@link dev.idgen.machine.spi.LeaseTimings}:
 * the timings and the inequalities between them; {@link dev.idgen.machine.spi.LeaseSettings}: the
 * settings every lease builder takes alike, checked and defaulted in one place), and the high-water
 * mark of a machine id across holders ({@link dev.idgen.machine.spi.LeaseMark}). A backend writes only its claim, renew and
 * release protocol. Users of IDs never need this package.
 */
package dev.idgen.machine.spi;
