package dev.idgen.segment.spi;

/**
 * A segment source refuses its store: the store cannot keep what it would grant (no persistence,
 * writes acknowledged before they reach the disk, a table a crash empties), or it has lost part of
 * what it granted (a counter missing, or lower than the store's own record of it). Numbers from such
 * a store could repeat, so none are granted. Asking again does not help until someone changes the
 * store; the message names what was found and what to change (or the setting that accepts such a
 * store anyway).
 */
public final class SegmentStoreRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was found, naming the store, and what to change
     */
    public SegmentStoreRefusedException(String message) {
        super(message);
    }

    /**
     * @param message what was found, naming the store, and what to change
     * @param cause the store's answer that showed it, or null
     */
    public SegmentStoreRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
