/**
 * The seam through which a generator gets its machine id: {@link dev.idgen.machine.MachineIdLease},
 * fixed from configuration or leased from a coordinator, and the exception a generator throws once
 * its lease is lost.
 */
package dev.idgen.machine;
