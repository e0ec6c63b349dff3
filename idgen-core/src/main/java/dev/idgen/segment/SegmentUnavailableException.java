package dev.idgen.segment;

/**
 * A {@link SegmentGenerator} has spent every range it held and could not get another within its
 * wait: the store is slow, unreachable, or answered with a range it must refuse. The message names
 * the store, the counter, how long the caller waited and what was tried.
 */
public final class SegmentUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what happened, naming the store and the counter
     * @param cause the store's last error, or null
     */
    public SegmentUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
