package dev.idgen.lease;

/** Where a lease is in its life; {@link StoreLease#phase()}. */
public enum LeaseState {
    /** Claiming an id, confirming a claim, or waiting for the clock to pass a claim's floor: no ID yet. */
    CLAIMING,
    /** Held: the generator may make IDs up to the fence. */
    HELD,
    /** Lost, paused past the fence, cut off, restored or copied: no ID until a claim holds again. */
    FENCED,
    /** Given back for good by {@link StoreLease#close()}. */
    RELEASED
}
