/**
 * For lease implementers: what a coordinator-backed machine-id lease uses to fence its generator by
 * time ({@link dev.idgen.machine.spi.FencingLease}, {@link dev.idgen.machine.spi.MachineIdUser}) and
 * to carry the high-water mark of a machine id across holders
 * ({@link dev.idgen.machine.spi.LeaseMark}). Users of IDs never need this package.
 */
package dev.idgen.machine.spi;
