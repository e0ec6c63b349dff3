package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.restore.CracHook;
import java.time.Duration;
import java.time.Instant;

/**
 * A machine id leased from a store, for one generator: the same life on every store (JDBC,
 * Redis, ZooKeeper, etcd, or your own {@link LeaseStore}).
 *
 * <pre>{@code
 * StoreLease lease = StoreLease.builder(store).layout(SnowflakeLayout.TWITTER).acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p><b>Claiming.</b> {@code acquire()} claims the lowest free id (or exactly the one given),
 * confirms the claim with a second write, waits until the local clock is past the claim's floor
 * (above every ID an earlier holder may have made), and renews in the background.
 *
 * <p><b>Fencing by time.</b> The generator refuses every ID whose own time reaches the fence: the
 * older of the last two acknowledged expiries less the skew bound and margin, and no later than the
 * last acknowledged write's start plus {@link LeaseTimings#silence()}. It compares each ID's time
 * after it took the ID, so the fence holds with no thread running.
 *
 * <p><b>Losing and claiming again.</b> A renewal that finds the record another's (taken while this
 * process was paused or cut off), or written by another copy of this process image, fences the
 * generator at once and claims again: its own id if free, else the lowest free one (unless
 * {@link LeaseBuilder#reclaimAnyId(boolean)} is off); the same generator carries on under it. A
 * lease whose record is still its own after a pause holds again after two writes.
 *
 * <p><b>Restores.</b> A new process id, a jump of the wall clock against the monotonic clock, CRaC's
 * {@code afterRestore} or a call to {@link #afterRestore()} makes this copy forget its claim and
 * claim as a new holder: it never stamps the old claim's id again, so the original keeps it. Before a
 * CRaC checkpoint the id is given back. {@code docs/lease-safety.md} gives the argument.
 */
public class StoreLease implements FencingLease, AutoCloseable {

    private final LeaseLife life;
    /** The CRaC resource (held weakly by CRaC, so kept here), or null without a CRaC API. */
    private final Object restoreHook;

    /**
     * A lease on {@code store} with the settings of {@code builder}, not claimed yet: the builder
     * claims it in {@link LeaseBuilder#acquire()}.
     *
     * @param builder the settings
     * @param store where the records live
     */
    protected StoreLease(LeaseBuilder<?, ?> builder, LeaseStore store) {
        this(new LeaseLife(builder.config(store)));
    }

    private StoreLease(LeaseLife life) {
        this.life = life;
        this.restoreHook = CracHook.register("machine-id lease", this::beforeCheckpoint, this::afterRestore);
    }

    /**
     * A builder of leases on any {@link LeaseStore}; the store modules have builders of their own.
     *
     * @param store where the records live
     * @return a new builder
     */
    public static Builder builder(LeaseStore store) {
        return new Builder(store);
    }

    /** Claims, confirms and starts renewing. */
    final void start() {
        life.acquire();
    }

    /** {@return the store this lease keeps its records in} */
    final LeaseStore store() {
        return life.config().store();
    }

    /** {@return the machine id of the claim in force; a claim made again after a fence may hold another} */
    @Override
    public final long machineId() {
        return life.machineId();
    }

    /**
     * Whether IDs can be made now: the claim is confirmed, the local clock is before the fence and
     * past the claim's floor. For health checks and logs; the generator checks each ID's own time.
     */
    @Override
    public final boolean isHeld() {
        return life.isHeld();
    }

    @Override
    public final long highWaterMark() {
        return life.highWaterMark();
    }

    @Override
    public final long losses() {
        return life.losses();
    }

    /** {@return how many times the lease held again after it was fenced: a new claim or its own id back} */
    @Override
    public final long reclaims() {
        return life.reclaims();
    }

    @Override
    public final void attach(MachineIdUser user) {
        life.attach(user);
    }

    /** {@return where the lease is in its life} */
    public final LeaseState phase() {
        return life.phase();
    }

    /** {@return the state for logs and health checks: held and its fence, or why not} */
    public final String state() {
        return life.state();
    }

    /** {@return the fence in force (no ID covers it or later); {@link Instant#MIN} while fenced} */
    public final Instant fence() {
        long f = life.fence();
        return f == Long.MIN_VALUE ? Instant.MIN : Instant.ofEpochMilli(f);
    }

    /** {@return the timings in force, with the defaults filled in} */
    public final LeaseTimings timings() {
        return life.config().timings();
    }

    /** {@return the store's clock minus the local clock, as last measured (zero for a store with no clock)} */
    public final Duration clockSkew() {
        return Duration.ofMillis(life.skewMillis());
    }

    /** {@return the owner name written with each claim} */
    public final String owner() {
        return life.config().owner();
    }

    /** {@return the claim's token: how many claims the id had, this one included; 0 with no claim} */
    public final long token() {
        return life.token();
    }

    /** {@return whether a lease whose id was taken claims any free id, rather than only its own} */
    public final boolean reclaimsAnyId() {
        return life.config().mayMove();
    }

    /**
     * Renews now, off schedule (or claims again when fenced). Leases built without a background
     * thread are renewed only this way.
     *
     * @return whether the lease is held afterwards
     */
    public final boolean renewNow() {
        return life.step();
    }

    /**
     * Tells the lease that this process was restored from a checkpoint or snapshot, or copied: it
     * forgets its claim (the original keeps it), shuts the fence at once and claims as a new holder.
     * The lease notices a new process id or a jump of the wall clock by itself at its next renewal;
     * call this from a restore hook it cannot see.
     */
    public final void afterRestore() {
        life.afterRestore();
    }

    /** A checkpoint is about to be taken: gives the id back, so the image holds no claim. */
    public final void beforeCheckpoint() {
        life.beforeCheckpoint();
    }

    /**
     * Stops renewing, records the generator's mark and frees the id; the generator refuses every ID
     * from then on. Idempotent; never throws.
     */
    @Override
    public final void close() {
        life.close();
    }

    /**
     * For fault tests: a lease as a copy of this process image restored from a snapshot would hold
     * it: the same claim, record, expiries, fence and mark, writing through {@code via}, with no
     * renewal thread and no generator yet (attach one: it starts at this lease's mark). It sees no
     * restore signal unless it is given one.
     *
     * @param via the copy's way to the store (its own connection)
     * @return the copy
     */
    public final StoreLease copyOfImage(LeaseStore via) {
        return new StoreLease(life.copyOfImage(via));
    }

    /**
     * For tests: replaces what the lease asks to notice a restore by itself.
     *
     * @param watch the watch
     */
    public final void watchIncarnation(IncarnationWatch watch) {
        life.watchIncarnation(java.util.Objects.requireNonNull(watch, "watch"));
    }

    @Override
    public String toString() {
        return "lease on " + life.leaseName() + " by " + owner() + ", token " + token() + ", " + state();
    }

    /** Configures and acquires a {@link StoreLease} on any store. */
    public static final class Builder extends LeaseBuilder<Builder, StoreLease> {
        private final LeaseStore store;

        private Builder(LeaseStore store) {
            this.store = java.util.Objects.requireNonNull(store, "store");
        }

        @Override
        protected StoreLease newLease() {
            return new StoreLease(this, store);
        }
    }
}
