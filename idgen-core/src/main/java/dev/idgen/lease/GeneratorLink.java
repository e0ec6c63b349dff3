package dev.idgen.lease;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.MachineIdUser;
import java.util.Objects;

/**
 * The lease's end of its one generator: the lease's high-water mark, the fence last set, and the
 * generator's view, which may attach later than the claim.
 *
 * <p><b>Invariant.</b> The mark only rises, and the generator is raised to it before it is moved to a
 * claim and when it attaches; the generator always holds the last fence set, from the moment it
 * attaches. So a claim that raised the mark to its floor and then opened the fence never lets the
 * generator issue an ID at or below the floor. Thread-safe.
 */
final class GeneratorLink {

    private final String layout;
    private volatile long mark;
    private volatile MachineIdUser user;
    private long fence = Long.MIN_VALUE;

    /**
     * @param layout the layout signature every generator on this lease must have
     */
    GeneratorLink(String layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.mark = MachineIdLease.NO_MARK;
    }

    /** {@return the lease's mark: Unix ms, or {@link MachineIdLease#NO_MARK}} */
    long mark() {
        return mark;
    }

    /** Raises the lease's mark (never lowers it); the generator follows at the next {@link #switchTo}. */
    synchronized void raiseTo(long unixMillis) {
        if (unixMillis > mark) {
            mark = unixMillis;
        }
    }

    /**
     * Takes the generator, raises it to the mark and gives it the fence.
     *
     * @throws IllegalStateException if another generator is attached, or the generator's layout is
     *     not the one the lease claimed for
     */
    synchronized void attach(MachineIdUser generator, String leaseName) {
        Objects.requireNonNull(generator, "generator");
        if (user != null && user != generator) {
            throw new IllegalStateException("The lease on " + leaseName + " already serves another generator;"
                    + " one generator per lease");
        }
        String theirs = generator.layoutSignature();
        if (theirs != null && !theirs.equals(layout)) {
            throw new IllegalStateException("The lease on " + leaseName + " was claimed for layout [" + layout
                    + "] but the generator uses [" + theirs + "]: give the lease builder the generator's layout"
                    + " (layout(...)); IDs of two layouts on one machine id could be equal");
        }
        user = generator;
        generator.raiseHighWaterMark(mark);
        generator.fenceFrom(fence);
    }

    /** Moves the attached generator's fence (now, or when it attaches). */
    synchronized void fenceFrom(long unixMillis) {
        fence = unixMillis;
        MachineIdUser u = user;
        if (u != null) {
            u.fenceFrom(unixMillis);
        }
    }

    /**
     * Moves the attached generator to a claim of {@code machineId}: shuts its fence, raises it to
     * the mark, then switches its id; from then on it stamps {@code machineId} only on ticks after
     * every tick it took before.
     *
     * @throws IllegalArgumentException if the generator has no room for {@code machineId}
     */
    synchronized void switchTo(long previousId, long machineId) {
        fenceFrom(Long.MIN_VALUE);
        MachineIdUser u = user;
        if (u == null) {
            return;
        }
        u.raiseHighWaterMark(mark);
        try {
            u.switchTo(machineId);
        } catch (UnsupportedOperationException e) {
            if (machineId != previousId) {
                throw e;
            }
            // the same id again, on a generator that cannot move: it keeps stamping that id
        }
    }

    /** {@return the fence last set} */
    synchronized long fence() {
        return fence;
    }

    /** {@return the higher of the lease's mark and the generator's own} */
    long toRecord() {
        MachineIdUser u = user;
        long m = mark;
        return u == null ? m : Math.max(m, u.highWaterMark());
    }
}
