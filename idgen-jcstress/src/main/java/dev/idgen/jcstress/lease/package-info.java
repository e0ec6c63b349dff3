/**
 * jcstress tests of a generator on a machine-id lease: an actor makes IDs while another plays the
 * lease's own thread (a claim of another id, a renewal that raises the mark), an arbiter judges
 * what the ID actor got. The lease here is core's {@code StoreLease} on an in-memory store: the races
 * are between the generator's hot path and the lease life, which every store shares.
 */
package dev.idgen.jcstress.lease;
