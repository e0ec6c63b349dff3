/**
 * jcstress tests of a generator on a machine-id lease: an actor makes IDs while another plays the
 * lease's own thread (a claim of another id, a renewal that raises the mark), an arbiter judges
 * what the ID actor got. The lease here is core's {@code StoreLease} on an in-memory store, whose
 * races with the generator's hot path every store shares; or, in {@code HoldingSwapTest}, no lease
 * at all but the generator's side of the seam ({@code MachineIdUser}) driven by hand
 * ({@code fixture.ViewLease}).
 */
package dev.idgen.jcstress.lease;
