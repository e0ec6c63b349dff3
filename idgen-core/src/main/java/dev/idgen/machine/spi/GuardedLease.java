package dev.idgen.machine.spi;

import java.time.Instant;
import dev.idgen.restore.CracHook;
import java.util.Objects;

/**
 * What every coordinator-backed lease answers the same way, from its {@link LeaseGuard}: the
 * machine id, whether it is held, the mark, the fence, the loss count and the timings. A backend
 * extends it with what is its coordinator's own (claim, renewal, release, its names and tokens) and
 * tells the guard what each acknowledged write proved; the guard keeps the fence, so no backend
 * answers these questions from state of its own.
 */
public abstract class GuardedLease implements FencingLease, AutoCloseable {

    private final LeaseGuard guard;
    /** The CRaC resource (held weakly by CRaC, so kept here), or null without a CRaC API. */
    private final Object restoreHook;

    /**
     * @param machineId the id of the lease's first claim; a claim made again after a fence may hold
     *     another ({@link LeaseGuard#claimed(long, long, long)})
     * @param guard the guard that keeps this lease's fence and mark
     */
    protected GuardedLease(long machineId, LeaseGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        guard.initialMachineId(machineId);
        this.restoreHook = CracHook.register("machine-id lease fence", this::beforeCheckpoint, this::afterRestore);
    }

    /** {@return the guard that keeps this lease's fence, mark, skew and state} */
    protected final LeaseGuard guard() {
        return guard;
    }

    /** {@return the machine id of the claim in force: the first claim's until a claim made again holds another} */
    @Override
    public final long machineId() {
        return guard.machineId();
    }

    @Override
    public final long reclaims() {
        return guard.reclaims();
    }

    /**
     * Whether the id may be used now: the fence is open and the local clock is still before it. For
     * health checks and logs; the generator checks each ID's own time against the fence.
     */
    @Override
    public boolean isHeld() {
        return guard.isHeld();
    }

    @Override
    public final long highWaterMark() {
        return guard.highWaterMark();
    }

    @Override
    public final void attach(MachineIdUser generator) {
        guard.attach(generator);
    }

    /**
     * {@return the fence in force: the generator returns no ID whose time reaches it;
     * {@link Instant#MIN} while fenced}
     */
    public final Instant fence() {
        long f = guard.fenceMillis();
        return f == Long.MIN_VALUE ? Instant.MIN : Instant.ofEpochMilli(f);
    }

    /** {@return how many times this lease was fenced other than by {@link #close()}, for metrics} */
    @Override
    public final long losses() {
        return guard.losses();
    }

    /** {@return the timings in force, with the defaults filled in} */
    public final LeaseTimings timings() {
        return guard.timings();
    }

    /**
     * Tells the lease that this process was restored from a checkpoint or snapshot, or copied: the
     * fence shuts at once, and opens again only after renewals that prove this copy still holds the
     * claim; a copy that cannot prove it claims an id as a new holder. The lease notices a new
     * process id or a jump of the wall clock by itself; call this from a restore hook the lease
     * cannot see (CRaC's {@code afterRestore} is registered by the starter). A backend overrides it
     * to renew at once.
     */
    public void afterRestore() {
        guard.restored("afterRestore() was called");
    }

    /**
     * A checkpoint is about to be taken (CRaC's {@code beforeCheckpoint}, called by this lease's
     * own CRaC resource when a CRaC API is present): shuts the fence, so the image holds no open
     * fence; after the restore, renewals that prove the claim open it again, and every copy but
     * one claims another id.
     */
    public void beforeCheckpoint() {
        guard.restored("a checkpoint is being taken");
    }

    /**
     * Stops renewing, records the generator's mark with the coordinator and frees the id. The
     * generator refuses every ID from then on. Idempotent; never throws: a coordinator that does not
     * answer lets the id expire on its own.
     */
    @Override
    public abstract void close();
}
