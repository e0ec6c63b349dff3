package dev.idgen.machine;

/**
 * A machine-id lease could not be had from its coordinator: every id is held, the coordinator is
 * missing or unreachable, or this process's clock is further from the coordinator's than allowed.
 * Every lease backend throws this one type, so callers catch it whatever the coordinator.
 */
public final class MachineIdLeaseException extends IllegalStateException {

    /**
     * @param message what went wrong, naming the coordinator (table, path) and the numbers involved
     */
    public MachineIdLeaseException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the coordinator and the numbers involved
     * @param cause the coordinator's error
     */
    public MachineIdLeaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
