package dev.idgen.machine;

/**
 * What a {@link MachineIdLease} sees of the generator that makes IDs with its machine id: how far
 * in time its IDs have gone, and a way to push that further.
 *
 * <p>Both methods are for the lease's own threads (renewal, re-acquisition), off the ID hot path.
 */
public interface MachineIdUser {

    /**
     * The last Unix millisecond covered by any ID made so far: the last millisecond of the last
     * tick used. It never falls.
     *
     * @return Unix milliseconds, or {@link MachineIdLease#NO_MARK} before the first ID (and before
     *     any mark was raised)
     */
    long highWaterMark();

    /**
     * From now on, issue only IDs whose time is later than {@code unixMillis}. Does nothing when the
     * generator is already past it. A clock behind the new mark is then handled like a clock step
     * back, by the generator's clock-backwards policy.
     *
     * @param unixMillis the last Unix millisecond that must not be issued again;
     *     {@link MachineIdLease#NO_MARK} does nothing
     */
    void raiseHighWaterMark(long unixMillis);
}
