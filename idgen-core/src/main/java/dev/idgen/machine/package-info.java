/**
 * The seam through which a generator gets its machine id: {@link dev.idgen.machine.MachineIdLease},
 * fixed from configuration ({@link dev.idgen.machine.MachineIdLease#fixed(long)}), read from the
 * environment ({@link dev.idgen.machine.MachineIds}) or leased from a coordinator; and the exception a
 * generator throws once its lease is lost. Lease implementers also use {@code dev.idgen.machine.spi}.
 */
package dev.idgen.machine;
