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
        this(millisBehind, "Clock moved backwards. Refusing to generate id for " + millisBehind
                + " milliseconds (policy " + policy + ")");
    }

    /**
     * With a message that says more than Twitter's words, for example which mark the clock is
     * behind.
     *
     * @param millisBehind how far the clock is behind the last tick used, in milliseconds
     * @param message the whole message
     */
    public ClockMovedBackwardsException(long millisBehind, String message) {
        super(message);
        this.millisBehind = millisBehind;
    }

    /**
     * How far the clock was behind: from its reading to the start of the last tick used (not the
     * number of ticks times the tick length, so a 1 ms step back reads 1 ms with 10 ms ticks too).
     *
     * @return milliseconds, more than 0
     */
    public long millisBehind() {
        return millisBehind;
    }
}
