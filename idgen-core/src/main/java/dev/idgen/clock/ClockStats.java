package dev.idgen.clock;

/**
 * What a time-ordered generator has met from its clock since it was built, for operators
 * (metrics, health checks). A snapshot: each component is read on its own, so a snapshot taken
 * while IDs are being made may be a few events apart between components. The counts are kept only
 * off the fast path (an ID from a clock that moved forward or stood within its tick counts nothing).
 *
 * @param stepsBack how many times the clock was found behind the last tick used, counted once per
 *     step (as it is logged), not per call that met it; a mark raised from a lease ahead of the
 *     clock counts as a step back too
 * @param maxStepBackMillis the largest step back met, in milliseconds from the clock's reading to
 *     the start of the last tick used; 0 when there was none
 * @param tickWaits how many calls waited for the clock: for the next tick after the last one's
 *     counter ran out, or until a step back was waited out
 * @param refusals how many calls made no ID because of the clock: a step back further than the
 *     policy allows, or a wait that reached its bound (a clock that does not move)
 * @param runAheads how many calls took a tick ahead of the clock, as
 *     {@link ClockBackwardsPolicy#runAhead(java.time.Duration)} allows
 * @param lastRefusalMillis the clock's reading (Unix milliseconds, from the generator's injected
 *     clock) at the last refusal, or {@link Long#MIN_VALUE} when there was none
 */
public record ClockStats(long stepsBack, long maxStepBackMillis, long tickWaits, long refusals, long runAheads,
        long lastRefusalMillis) {

    /** Nothing met yet. */
    public static final ClockStats NONE = new ClockStats(0, 0, 0, 0, 0, Long.MIN_VALUE);
}
