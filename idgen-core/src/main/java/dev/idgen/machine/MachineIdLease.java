package dev.idgen.machine;

/**
 * Where a generator's machine id comes from, and whether it may still use it.
 *
 * <p>A machine id is only safe while no other generator uses the same one. A fixed id from
 * configuration ({@link #fixed(long)}) is held forever; a lease from a coordinator (ZooKeeper, a
 * database table) can be lost. Such a lease implements {@code dev.idgen.machine.spi.FencingLease}:
 * it fences its generator by time, so the generator refuses, with a {@link MachineIdLostException},
 * every ID whose time the next holder of the id could reach. {@link #isHeld()} reports the lease's
 * state (for health checks and logs); generators do not ask it per ID. A lease that does not
 * implement {@code FencingLease} is taken as fixed for the life of the process.
 *
 * <p><b>High-water mark.</b> A lease from a coordinator also carries the last Unix millisecond that
 * any earlier holder of the id covered with an ID ({@link #highWaterMark()}). A generator never
 * issues an ID whose time is at or below it, so a holder that restarts with its clock stepped back,
 * or that takes over an id from a holder whose clock ran ahead, cannot repeat an ID: a clock behind
 * the mark is handled by the generator's clock-backwards policy exactly as a clock step back. The
 * lease learns the generator's own mark when the generator attaches to it, records it with the
 * coordinator, and raises the generator's mark again when it re-acquires the id.
 */
public interface MachineIdLease {

    /** The value of {@link #highWaterMark()} when no ID has been made with the id yet. */
    long NO_MARK = Long.MIN_VALUE;

    /**
     * The machine id this lease grants now. A lease that re-claims after it was fenced may hold
     * another id afterwards (see {@link #reclaims()}); a fixed id never changes.
     *
     * @return the machine id, not negative
     */
    long machineId();

    /**
     * Whether the id may still be used right now.
     *
     * @return {@code false} once the lease is lost or released
     */
    boolean isHeld();

    /**
     * The last Unix millisecond that an ID made with this machine id by an earlier holder (or an
     * earlier life of this one) may carry. Generators issue only IDs whose time is later. It may
     * rise while the lease lives (on re-acquisition), never fall.
     *
     * @return Unix milliseconds, or {@link #NO_MARK} when nothing is known; {@link #NO_MARK} unless
     *     overridden
     */
    default long highWaterMark() {
        return NO_MARK;
    }

    /**
     * How many times this lease, while held, was lost other than by its own release: taken by
     * another holder, fenced by the clock bound, or left without an acknowledged renewal. For
     * metrics; a lease that cannot be lost never counts one.
     *
     * @return the count, 0 unless overridden
     */
    default long losses() {
        return 0;
    }

    /**
     * How many times this lease, after it was fenced, claimed a machine id again by itself (the
     * same id or another free one) and carried its generator on under it. For metrics.
     *
     * @return the count, 0 unless overridden
     */
    default long reclaims() {
        return 0;
    }

    /**
     * A lease that is always held: a machine id from configuration, which the operator keeps unique.
     *
     * @param machineId the id, not negative
     * @return a lease that never ends
     * @throws IllegalArgumentException if {@code machineId} is negative
     */
    static MachineIdLease fixed(long machineId) {
        return new FixedMachineId(machineId);
    }
}
