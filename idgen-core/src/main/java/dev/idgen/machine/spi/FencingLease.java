package dev.idgen.machine.spi;

import dev.idgen.machine.MachineIdLease;

/**
 * A {@link MachineIdLease} from a coordinator, which can be lost: it keeps its generator's
 * high-water mark across holders and fences the generator by time.
 *
 * <p>A generator built on such a lease starts fenced (it refuses every ID) and calls
 * {@link #attach(MachineIdUser)} once; from then on the lease alone moves the fence
 * ({@link MachineIdUser#fenceFrom(long)}) and raises the mark
 * ({@link MachineIdUser#raiseHighWaterMark(long)}).
 */
public interface FencingLease extends MachineIdLease {

    /**
     * Called once by a generator built on this lease, after it has applied
     * {@link #highWaterMark()}. The lease keeps {@code user} to read its mark (on renewal and
     * release), to raise it before the lease counts as held again, and to move its fence. It must
     * raise {@code user}'s mark to its current one and set the fence before it returns.
     *
     * @param user the generator now making IDs with this machine id
     * @throws IllegalStateException if the lease already serves another generator (two generators on
     *     one machine id would repeat each other's IDs)
     */
    void attach(MachineIdUser user);
}
