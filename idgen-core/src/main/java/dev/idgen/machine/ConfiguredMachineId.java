package dev.idgen.machine;

/** A machine id read from the environment: held for as long as the process runs. */
record ConfiguredMachineId(long machineId, String source) implements MachineIdLease {

    @Override
    public boolean isHeld() {
        return true;
    }

    @Override
    public String toString() {
        return "machine id " + machineId + " from " + source;
    }
}
