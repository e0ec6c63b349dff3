package dev.idgen.machine;

/**
 * Thrown instead of an ID when the generator's machine-id lease is no longer held: another process
 * may own the id now, so any ID made with it could collide.
 */
public final class MachineIdLostException extends IllegalStateException {

    private final transient MachineIdLease lease;

    /**
     * @param lease the lease that was lost
     */
    public MachineIdLostException(MachineIdLease lease) {
        super("Machine id " + lease.machineId() + " is no longer held (" + lease
                + "); refusing to generate ids until the lease is re-acquired");
        this.lease = lease;
    }

    /**
     * @return the lease that was lost
     */
    public MachineIdLease lease() {
        return lease;
    }
}
