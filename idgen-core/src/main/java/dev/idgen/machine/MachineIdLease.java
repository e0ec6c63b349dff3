package dev.idgen.machine;

/**
 * Where a generator's machine id comes from, and whether it may still use it.
 *
 * <p>A machine id is only safe while no other generator uses the same one. A fixed id from
 * configuration ({@link #fixed(long)}) is held forever; a lease from a coordinator (ZooKeeper, a
 * database table) can be lost, and from the moment {@link #isHeld()} returns {@code false} a
 * generator refuses to make IDs with a {@link MachineIdLostException}: another process may already
 * have been given the id.
 *
 * <p>Generators call {@link #isHeld()} on every ID, so it must be cheap (a volatile read), must not
 * block and must not throw.
 */
public interface MachineIdLease {

    /**
     * The machine id this lease grants. It does not change over the lease's life.
     *
     * @return the machine id, not negative
     */
    long machineId();

    /**
     * Whether the id may still be used right now.
     *
     * @return {@code false} once the lease is lost or released
     */
    boolean isHeld();

    /**
     * A lease that is always held: a machine id from configuration, which the operator keeps unique.
     *
     * @param machineId the id, not negative
     * @return a lease that never ends
     * @throws IllegalArgumentException if {@code machineId} is negative
     */
    static MachineIdLease fixed(long machineId) {
        return new FixedMachineId(machineId);
    }
}
