/**
 * jcstress tests of a generator on a machine-id lease: an actor makes IDs while another plays the
 * lease's own thread (a claim of another id, a renewal that raises the mark), an arbiter judges
 * what the ID actor got. The lease here is the core's guard behind a minimal {@code GuardedLease};
 * the races are between the generator's hot path and the guard, which every backend shares.
 */
package dev.idgen.jcstress.lease;
