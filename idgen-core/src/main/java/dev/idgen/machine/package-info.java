/**
 * The seam through which a generator gets its machine id: {@link dev.idgen.machine.MachineIdLease},
 * fixed from configuration ({@link dev.idgen.machine.MachineIdLease#fixed(long)}), read from the
 * environment ({@link dev.idgen.machine.MachineIds}) or leased from a coordinator; the high-water
 * mark a lease carries across holders ({@link dev.idgen.machine.MachineIdUser}); and the exception a
 * generator throws once its lease is lost.
 */
package dev.idgen.machine;
