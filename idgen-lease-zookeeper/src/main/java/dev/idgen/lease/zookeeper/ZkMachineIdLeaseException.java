package dev.idgen.lease.zookeeper;

/**
 * A machine-id lease could not be had from ZooKeeper: every id is held, ZooKeeper cannot be
 * reached, or this process's clock is further from ZooKeeper's than allowed.
 */
public final class ZkMachineIdLeaseException extends IllegalStateException {

    /**
     * @param message what went wrong, naming the path
     */
    public ZkMachineIdLeaseException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong, naming the path
     * @param cause the ZooKeeper error
     */
    public ZkMachineIdLeaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
