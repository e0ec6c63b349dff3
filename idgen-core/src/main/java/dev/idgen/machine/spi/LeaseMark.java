package dev.idgen.machine.spi;

import dev.idgen.machine.MachineIdLease;
import java.util.Objects;

/**
 * The part of a {@link FencingLease} that is the same whatever the coordinator: the high-water mark
 * of its machine id, the fence, and the one generator it serves. A lease answers
 * {@link MachineIdLease#highWaterMark()} with {@link #millis()}, forwards
 * {@link FencingLease#attach(MachineIdUser)} to {@link #attach(MachineIdUser)}, records
 * {@link #toRecord()} with its coordinator, calls {@link #applyToGenerator()} before it reports
 * itself held again, and moves the fence with {@link #fenceFrom(long)}.
 *
 * <p><b>Invariant.</b> The mark only rises, and the generator is raised to it on
 * {@link #attach(MachineIdUser)} and on every {@link #applyToGenerator()}; so once a lease has
 * applied a mark and then turned held, its generator issues no ID at or below that mark. The
 * generator always sees the last fence set, from the moment it is attached. Thread-safe.
 */
public final class LeaseMark {

    private final String leaseName;
    private volatile long millis;
    private volatile MachineIdUser user;
    /** The first Unix millisecond no ID may cover; refuses everything until the lease opens it. */
    private long fenceMillis = Long.MIN_VALUE;

    /**
     * @param leaseName the lease, for messages (for example {@code "machine id 7 in table ids"})
     * @param initialMillis the mark read from the coordinator when the id was claimed, or
     *     {@link MachineIdLease#NO_MARK}
     */
    public LeaseMark(String leaseName, long initialMillis) {
        this.leaseName = Objects.requireNonNull(leaseName, "leaseName");
        this.millis = initialMillis;
    }

    /** {@return the mark known to the lease: Unix milliseconds, or {@link MachineIdLease#NO_MARK}} */
    public long millis() {
        return millis;
    }

    /**
     * Raises the mark to {@code unixMillis} if that is higher; never lowers it. The generator is
     * raised only by {@link #applyToGenerator()}.
     *
     * @param unixMillis a mark read from or written to the coordinator
     */
    public synchronized void raiseTo(long unixMillis) {
        if (unixMillis > millis) {
            millis = unixMillis;
        }
    }

    /**
     * Takes the generator that makes IDs with this machine id and raises it to the mark.
     *
     * @param generator the generator
     * @throws IllegalStateException if another generator is attached already: two generators on one
     *     machine id would repeat each other's IDs
     */
    public synchronized void attach(MachineIdUser generator) {
        Objects.requireNonNull(generator, "generator");
        if (user != null && user != generator) {
            throw new IllegalStateException("The lease on " + leaseName
                    + " already serves another generator; one generator per lease");
        }
        user = generator;
        generator.raiseHighWaterMark(millis); // the mark may have risen since the generator read it
        generator.fenceFrom(fenceMillis);
    }

    /**
     * Moves the fence of the attached generator (now, or when one attaches): it returns no ID whose
     * time reaches {@code unixMillis}. See {@link MachineIdUser#fenceFrom(long)}.
     *
     * @param unixMillis the first Unix millisecond no ID may cover; {@link Long#MIN_VALUE} refuses
     *     every ID, {@link Long#MAX_VALUE} none
     */
    public synchronized void fenceFrom(long unixMillis) {
        fenceMillis = unixMillis;
        MachineIdUser u = user;
        if (u != null) {
            u.fenceFrom(unixMillis);
        }
    }

    /**
     * Moves the attached generator (if any) to a new claim of {@code machineId}: raises it to the
     * mark first, then {@link MachineIdUser#switchTo(long) switches} it, which shuts its fence.
     *
     * @param previousId the id of the claim before, -1 if none or unknown
     * @param machineId the id the new claim holds, -1 if unknown (then the generator is not moved)
     * @throws IllegalArgumentException if the generator has no room for the id
     * @throws UnsupportedOperationException if the generator cannot change its machine id and the
     *     claim is of another id than before
     */
    public synchronized void switchTo(long previousId, long machineId) {
        fenceFrom(Long.MIN_VALUE);
        MachineIdUser u = user;
        if (u == null || machineId < 0) {
            return;
        }
        u.raiseHighWaterMark(millis);
        try {
            u.switchTo(machineId);
        } catch (UnsupportedOperationException e) {
            if (machineId != previousId) {
                throw e;
            }
            // the same id again, on a generator that cannot move: it keeps stamping that id
        }
    }

    /** {@return the fence last set: the first Unix millisecond no ID may cover} */
    public synchronized long fenceMillis() {
        return fenceMillis;
    }

    /** Raises the attached generator, if any, to the mark. Call it before the lease turns held. */
    public void applyToGenerator() {
        MachineIdUser u = user;
        if (u != null) {
            u.raiseHighWaterMark(millis);
        }
    }

    /** {@return what to record with the coordinator: the higher of the mark and the generator's own} */
    public long toRecord() {
        MachineIdUser u = user;
        long m = millis;
        return u == null ? m : Math.max(m, u.highWaterMark());
    }

    @Override
    public String toString() {
        return "LeaseMark[" + leaseName + ", " + millis + "]";
    }
}
