package dev.idgen.machine;

/**
 * Where a generator's machine id comes from, and whether it may still use it.
 *
 * <p>A machine id is only safe while no other generator uses the same one. A fixed id from
 * configuration ({@link #fixed(long)}) is held forever; a lease from a coordinator (ZooKeeper, a
 * database table) can be lost, and from the moment {@link #isHeld()} returns {@code false} a
 * generator refuses to make IDs with a {@link MachineIdLostException}: another process may already
 * have been given the id.
 *
 * <p>Generators call {@link #isHeld()} on every ID, so it must be cheap (a volatile read), must not
 * block and must not throw.
 *
 * <p><b>High-water mark.</b> A lease from a coordinator also carries the last Unix millisecond that
 * any earlier holder of the id covered with an ID ({@link #highWaterMark()}). A generator never
 * issues an ID whose time is at or below it, so a holder that restarts with its clock stepped back,
 * or that takes over an id from a holder whose clock ran ahead, cannot repeat an ID: a clock behind
 * the mark is handled by the generator's clock-backwards policy exactly as a clock step back. The
 * lease learns the generator's own mark through {@link #attach(MachineIdUser)}, records it with the
 * coordinator, and raises the generator's mark again when it re-acquires the id.
 */
public interface MachineIdLease {

    /** The value of {@link #highWaterMark()} when no ID has been made with the id yet. */
    long NO_MARK = Long.MIN_VALUE;

    /**
     * The machine id this lease grants. It does not change over the lease's life.
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
     * Called once by a generator built on this lease, after it has applied
     * {@link #highWaterMark()}. A lease that can be re-acquired keeps {@code user} to read its mark
     * (on release and periodically) and to raise it ({@link MachineIdUser#raiseHighWaterMark(long)})
     * before {@link #isHeld()} turns true again. Implementations should raise {@code user}'s mark to
     * their current one once more after registering it, since the mark may have moved since the
     * generator read it. Does nothing unless overridden.
     *
     * @param user the generator now making IDs with this machine id
     * @throws IllegalStateException if the lease already serves another generator (two generators on
     *     one machine id would repeat each other's IDs)
     */
    default void attach(MachineIdUser user) {
        // a fixed id has no coordinator to tell
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
