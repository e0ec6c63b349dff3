package dev.idgen.lease.jdbc;

/**
 * A machine-id lease could not be had: every id is held, the table is missing or unreachable, or
 * this process's clock is further from the database's than allowed.
 */
public final class MachineIdLeaseException extends IllegalStateException {

    /**
     * @param message what went wrong, naming the table
     */
    public MachineIdLeaseException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the table
     * @param cause the database error
     */
    public MachineIdLeaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
