package dev.idgen.machine.spi;

import dev.idgen.machine.MachineIdLease;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a coordinator-backed lease does that does not depend on the coordinator: the
 * high-water mark ({@link LeaseMark}), the time fence computed from acknowledged expiries, the clock
 * skew check, the held flag and state text, and a loss counter for metrics. A backend holds one
 * guard (composition, not a base class) and writes only its claim, renew and release protocol:
 *
 * <ul>
 *   <li>on a claim: {@link #acceptSkew} with the coordinator's clock, then
 *       {@link #claimed(long, long)} with the expiry the claim wrote and the mark it read;</li>
 *   <li>on each renewal: {@link #acceptSkew}, then {@link #acknowledged(long, long)} with the
 *       expiry now on the coordinator, or {@link #lost(String)} when the id is no longer its own;</li>
 *   <li>on release: {@link #release()} first, then record what it returns;</li>
 *   <li>{@link FencingLease#attach}, {@link MachineIdLease#highWaterMark()} and
 *       {@link MachineIdLease#isHeld()} forward here.</li>
 * </ul>
 *
 * <p><b>The fence.</b> After acknowledged writes with expiries {@code E1, E2, ...} (coordinator
 * time) the generator refuses every ID whose time reaches
 * {@code timings.fenceFor(min(E[n-1], E[n]))}: the <em>older</em> of the last two, so a coordinator
 * that fails over to a replica without the last write still cannot grant the id before the fence.
 * A claim's own write is the first of a claim's expiries and opens nothing; the backend renews once
 * more at once. The fence is checked by the generator against each ID's own time after it took the
 * ID, so it needs no thread to run: a holder that stops renewing is fenced by the passing of time.
 * {@code docs/lease-safety.md} gives the argument as inequalities.
 *
 * <p>Thread-safe; every method is for the lease's own threads, never the ID hot path.
 */
public final class LeaseGuard {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseGuard.class);
    private static final long NONE = Long.MIN_VALUE;

    /** The lease's name for messages when it was given whole; null when built from a place. */
    private final String fixedName;
    /** Where the ids live, for messages ("in table ids"); the id in force is put before it. */
    private final String where;
    private final LeaseTimings timings;
    private final InstantSource clock;
    private final LeaseMark mark;

    /** The newest and the one before it, of this claim's acknowledged expiries; NONE when absent. */
    private long lastExpiry = NONE;
    private long previousExpiry = NONE;
    /** The fence in force: the first Unix millisecond no ID may cover. */
    private volatile long fenceMillis = Long.MIN_VALUE;
    /** True from a fence opened by an acknowledged write until a loss or release is noticed. */
    private volatile boolean open;
    private volatile boolean released;
    private volatile String reason = "not claimed yet";
    private volatile long skewMillis;
    private volatile long losses;
    /** The machine id of the claim in force; -1 before the first claim. */
    private volatile long machineId = -1;
    private volatile long claims;
    private volatile IncarnationWatch incarnation;

    /**
     * A guard for a lease not claimed yet: its fence refuses every ID.
     *
     * @param leaseName the lease, for messages (for example {@code "machine id 7 in table ids"})
     * @param timings the checked timings
     * @param clock the local clock: the generator's, which stamps the IDs
     */
    public LeaseGuard(String leaseName, LeaseTimings timings, InstantSource clock) {
        this.fixedName = Objects.requireNonNull(leaseName, "leaseName");
        this.where = "";
        this.timings = Objects.requireNonNull(timings, "timings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.mark = new LeaseMark(leaseName, MachineIdLease.NO_MARK);
        this.incarnation = IncarnationWatch.ofThisProcess(clock, timings.maxClockSkew().toMillis());
    }

    /**
     * A guard for a lease not claimed yet, named after the id it holds at any moment: its messages
     * read {@code "machine id " + id + " " + where}, with the id of the claim in force.
     *
     * @param where where the ids live, for messages (for example {@code "in table ids"})
     * @param timings the checked timings
     * @param clock the local clock: the generator's, which stamps the IDs
     * @return the guard
     */
    public static LeaseGuard named(String where, LeaseTimings timings, InstantSource clock) {
        return new LeaseGuard(null, Objects.requireNonNull(where, "where"), timings, clock);
    }

    private LeaseGuard(String fixedName, String where, LeaseTimings timings, InstantSource clock) {
        this.fixedName = fixedName;
        this.where = where;
        this.timings = Objects.requireNonNull(timings, "timings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.mark = new LeaseMark("machine ids " + where, MachineIdLease.NO_MARK);
        this.incarnation = IncarnationWatch.ofThisProcess(clock, timings.maxClockSkew().toMillis());
    }

    /** {@return the lease's name for messages: the id in force and where it lives} */
    public String leaseName() {
        return fixedName != null ? fixedName : "machine id " + machineId + " " + where;
    }

    /** The id a {@link GuardedLease} was built with: its first claim's. */
    synchronized void initialMachineId(long id) {
        if (machineId == -1) {
            machineId = id; // also when the guard was claimed before the lease around it was built
        }
    }

    /** {@return the machine id of the claim in force, or -1 before the first claim} */
    public long machineId() {
        return machineId;
    }

    /**
     * {@return how many claims were made after the first: the lease claimed an id again (the same or
     * another) after it was fenced}
     */
    public long reclaims() {
        return Math.max(0, claims - 1);
    }

    /**
     * An owner name for a coordinator: host name, process id and a random suffix, so two processes
     * on one host, or one process restarted, never share it.
     *
     * @return for example {@code "api-7/4711/3f09c2a1be"}
     */
    public static String defaultOwner() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            host = "host";
        }
        return host + "/" + ProcessHandle.current().pid() + "/"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /** {@return the timings this guard fences by} */
    public LeaseTimings timings() {
        return timings;
    }

    /**
     * Takes the generator and raises it to the mark, setting its fence. See
     * {@link LeaseMark#attach(MachineIdUser)}.
     *
     * @param user the generator's view
     * @throws IllegalStateException if another generator is attached already
     */
    public void attach(MachineIdUser user) {
        mark.attach(user);
    }

    /** {@return the mark known to the lease: Unix milliseconds, or {@link MachineIdLease#NO_MARK}} */
    public long highWaterMark() {
        return mark.millis();
    }

    /** {@return what to record with the coordinator: the higher of the lease's mark and the generator's} */
    public long markToRecord() {
        return mark.toRecord();
    }

    /**
     * Compares the local clock with the coordinator's, read between {@code localBeforeMillis} and
     * {@code localAfterMillis}. The skew is the coordinator's reading minus the midpoint; it counts
     * as beyond the bound when its absolute value plus half the read's duration (the measurement's
     * uncertainty) exceeds {@link LeaseTimings#maxClockSkew()}. Beyond the bound the lease is lost at
     * once ({@link #lost(String)}).
     *
     * @param coordinatorMillis the coordinator's clock, Unix milliseconds
     * @param localBeforeMillis the local clock just before the read was sent
     * @param localAfterMillis the local clock just after its answer came
     * @return whether the skew is within the bound
     */
    public boolean acceptSkew(long coordinatorMillis, long localBeforeMillis, long localAfterMillis) {
        long span = Math.max(0, localAfterMillis - localBeforeMillis);
        long skew = coordinatorMillis - (localBeforeMillis + span / 2);
        skewMillis = skew;
        long max = timings.maxClockSkew().toMillis();
        long uncertainty = (span + 1) / 2;
        if (Math.abs(skew) + uncertainty > max) {
            lost("the local clock is " + skew + " ms from the coordinator's (measured within " + uncertainty
                    + " ms), beyond the allowed maxClockSkew of " + max + " ms");
            return false;
        }
        return true;
    }

    /** {@return the coordinator's clock minus the local clock, as last measured, in milliseconds} */
    public long skewMillis() {
        return skewMillis;
    }

    /**
     * A new claim of the id was written and acknowledged: forgets the expiries of any earlier claim,
     * raises the mark to {@code coordinatorMark} (and the generator with it) and keeps
     * {@code expiresMillis} as this claim's first expiry. The fence stays shut until the next
     * {@link #acknowledged(long, long)}. Does nothing after {@link #release()}.
     *
     * @param expiresMillis the expiry the claim wrote, coordinator time
     * @param coordinatorMark the high-water mark the coordinator holds for the id
     */
    public synchronized void claimed(long expiresMillis, long coordinatorMark) {
        claimed(machineId, expiresMillis, coordinatorMark);
    }

    /**
     * A claim of {@code claimedId} was written and acknowledged: the first claim, or a claim made
     * again after the lease was fenced, of the same id or of another. Shuts the fence, raises the
     * mark to {@code coordinatorMark}, then moves the generator to the claim
     * ({@link MachineIdUser#switchTo(long)}): it stamps {@code claimedId} from now on, only on
     * (tick, sequence) pairs taken after this call, and only once the next
     * {@link #acknowledged(long, long)} opens the fence. Does nothing after {@link #release()}.
     *
     * @param claimedId the machine id claimed
     * @param expiresMillis the expiry the claim wrote, coordinator time
     * @param coordinatorMark the high-water mark the coordinator holds for {@code claimedId}
     * @throws IllegalArgumentException if the generator has no room for {@code claimedId}; the
     *     fence stays shut
     */
    public synchronized void claimed(long claimedId, long expiresMillis, long coordinatorMark) {
        if (released) {
            return; // a released guard never opens again
        }
        if (claimedId < 0 && !(claimedId == -1 && machineId == -1)) {
            throw new IllegalArgumentException("machine id " + claimedId + " is negative; a claim holds an id"
                    + " from 0 up");
        }
        noticeLapse();
        boolean again = claims > 0;
        if (open) {
            // a claim while held: the old claim's fence must not carry over to the new one
            open = false;
        }
        setFence(Long.MIN_VALUE);
        previousExpiry = NONE;
        lastExpiry = expiresMillis;
        long before = machineId;
        mark.raiseTo(coordinatorMark);
        // raises the generator to the mark, then moves it to the claim (not for a guard that was
        // never told its id, which only tests build); a generator with no room for the id throws,
        // and the lease keeps naming the id it held, fenced
        mark.switchTo(before, claimedId);
        machineId = claimedId;
        claims++;
        if (again) {
            LOG.info("Claimed machine id {} again after the lease was fenced{} (high-water mark {})", claimedId,
                    before == claimedId ? "" : " (it held " + before + " before)", markText(mark.millis()));
        }
        reason = "claimed; waiting for a second acknowledged write";
    }

    /**
     * This process may be a copy of another (restored from a checkpoint or snapshot, or cloned):
     * shuts the fence at once and forgets this claim's expiries, so it opens again only after two
     * acknowledged writes made from now on, which a backend makes only when its renewal proves
     * this copy still holds the claim (for example by rotating a nonce that a second copy of the
     * same image also holds, by compare-and-set). Counted as a loss when the lease was held.
     *
     * @param why for the state text and the log
     */
    public synchronized void restored(String why) {
        lost("restored or copied (" + why + "): waiting for a renewal that proves this copy holds the claim");
    }

    /**
     * Looks for signs that this process is a copy of the one that made the claim
     * ({@link IncarnationWatch}); if it finds one, {@link #restored(String) shuts the fence}. A
     * backend calls it before each renewal.
     *
     * @return whether this is still the incarnation that made the claim
     */
    public boolean checkIncarnation() {
        String why = incarnation.check();
        if (why == null) {
            return true;
        }
        restored(why);
        return false;
    }

    /**
     * Replaces the watch that {@link #checkIncarnation()} asks (by default this process's id and
     * {@code System.nanoTime()} against the guard's clock, with the skew bound as the jump bound).
     *
     * @param watch the watch
     */
    public void watchIncarnation(IncarnationWatch watch) {
        this.incarnation = Objects.requireNonNull(watch, "watch");
    }

    /**
     * @param markMillis a high-water mark, Unix milliseconds or {@link MachineIdLease#NO_MARK}
     * @return the mark for a log line: its instant, or words when there is none
     */
    public static String markText(long markMillis) {
        return markMillis == MachineIdLease.NO_MARK ? "none yet" : Instant.ofEpochMilli(markMillis).toString();
    }

    /**
     * A renewal was written and acknowledged, leaving {@code expiresMillis} on the coordinator:
     * raises the mark first, then moves the fence to the older of the last two expiries.
     *
     * @param expiresMillis the expiry now on the coordinator, coordinator time
     * @param coordinatorMark the high-water mark the coordinator holds for the id
     */
    public synchronized void acknowledged(long expiresMillis, long coordinatorMark) {
        if (released) {
            return;
        }
        noticeLapse();
        previousExpiry = lastExpiry;
        lastExpiry = expiresMillis;
        raiseMark(coordinatorMark); // before the fence opens: no ID at or below the mark
        if (previousExpiry == NONE) {
            return;
        }
        long fence = timings.fenceFor(Math.min(previousExpiry, expiresMillis));
        setFence(fence);
        boolean wasOpen = open;
        open = clock.millis() < fence;
        if (open && !wasOpen) {
            LOG.info("The lease on {} is held (fence at {})", leaseName(), Instant.ofEpochMilli(fence));
        }
        reason = open ? "held" : "no renewal acknowledged in time: fence at " + Instant.ofEpochMilli(fence)
                + " already passed";
    }

    /**
     * The id is no longer this lease's (another holder took it, the clock is out of bounds, the
     * coordinator ended the session): shuts the fence at once and forgets the expiries of this
     * claim.
     *
     * @param why for the state text and the log
     */
    public synchronized void lost(String why) {
        noticeLapse();
        setFence(Long.MIN_VALUE);
        previousExpiry = NONE;
        lastExpiry = NONE;
        if (open) {
            losses++;
            LOG.warn("The lease on {} is fenced: {}", leaseName(), why);
        }
        open = false;
        reason = released ? "released" : why;
    }

    /**
     * Shuts the fence for good before the lease gives the id back. Call it first, then record the
     * returned mark: an ID whose (tick, sequence) was taken before the fence shut is in the mark,
     * one taken after is refused.
     *
     * @return the mark to record with the coordinator
     */
    public synchronized long release() {
        released = true;
        open = false;
        setFence(Long.MIN_VALUE);
        reason = "released";
        return mark.toRecord();
    }

    /**
     * Whether the id may be used now: a fence was opened by an acknowledged write, nothing was lost
     * since, and the local clock is still before the fence. Reads the clock; not for the ID path
     * (generators check the fence against each ID's own time).
     *
     * @return whether the lease is held
     */
    public boolean isHeld() {
        if (!open) {
            return false;
        }
        if (clock.millis() < fenceMillis) {
            return true;
        }
        synchronized (this) {
            noticeLapse();
        }
        return false;
    }

    /** {@return the fence in force: the first Unix millisecond no ID may cover} */
    public long fenceMillis() {
        return fenceMillis;
    }

    /** {@return whether {@link #release()} was called} */
    public boolean isReleased() {
        return released;
    }

    /**
     * {@return the state for logs and health checks: {@code held (fence at ...)}, {@code released},
     * or why the lease is fenced}
     */
    public String state() {
        if (isHeld()) {
            return "held (fence at " + Instant.ofEpochMilli(fenceMillis) + ")";
        }
        return released ? "released" : "fenced: " + reason;
    }

    /**
     * How many times a held lease was fenced other than by release: lost to another holder or to the
     * clock bound, or left without an acknowledged renewal until the fence passed (counted when
     * noticed: by {@link #isHeld()}, {@link #state()}, this method, or the next write).
     *
     * @return the count, for metrics
     */
    public long losses() {
        synchronized (this) {
            noticeLapse();
        }
        return losses;
    }

    private void raiseMark(long coordinatorMark) {
        mark.raiseTo(coordinatorMark);
        mark.applyToGenerator();
    }

    private void setFence(long fence) {
        fenceMillis = fence;
        mark.fenceFrom(fence);
    }

    /** Counts a fence that time has passed while the lease counted as held. Caller holds the lock. */
    private void noticeLapse() {
        if (open && clock.millis() >= fenceMillis) {
            open = false;
            losses++;
            reason = "no renewal acknowledged in time: fence at " + Instant.ofEpochMilli(fenceMillis) + " passed";
            LOG.warn("The lease on {} is fenced: {}", leaseName(), reason);
        }
    }

    @Override
    public String toString() {
        return leaseName() + ", " + state();
    }
}
