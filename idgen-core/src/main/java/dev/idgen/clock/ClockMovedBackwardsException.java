package dev.idgen.clock;

/**
 * Thrown instead of an ID when the clock reads earlier than the last tick a generator used and its
 * {@link ClockBackwardsPolicy} does not wait or carry on that far. No ID was made; a later call,
 * once the clock has caught up, succeeds.
 */
public final class ClockMovedBackwardsException extends IllegalStateException {

    /** How far the clock was behind the last tick used, in milliseconds. */
    private final long millisBehind;

    /**
     * @param millisBehind how far the clock is behind the last tick used, in milliseconds
     * @param policy what the generator would have tolerated, for the message
     */
    public ClockMovedBackwardsException(long millisBehind, ClockBackwardsPolicy policy) {
        super("Clock moved backwards. Refusing to generate id for " + millisBehind
                + " milliseconds (policy " + policy + ")");
        this.millisBehind = millisBehind;
    }

    /**
     * @return how far the clock was behind the last tick used, in milliseconds
     */
    public long millisBehind() {
        return millisBehind;
    }
}
