package dev.idgen.machine;

/** A machine id from configuration: held for as long as the process runs. */
record FixedMachineId(long machineId) implements MachineIdLease {

    FixedMachineId {
        if (machineId < 0) {
            throw new IllegalArgumentException(
                    "machine id " + machineId + " is negative; a machine id is 0 or more");
        }
    }

    @Override
    public boolean isHeld() {
        return true;
    }

    @Override
    public String toString() {
        return "fixed machine id " + machineId;
    }
}
