package dev.idgen.machine.spi;

import dev.idgen.text.Quote;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * The settings every coordinator-backed lease builder takes the same way: the machine-id range,
 * the timings ({@link LeaseTimings}), the local clock, the owner name and whether the lease renews
 * on a thread of its own. A backend's builder holds one and forwards its setters here, so each
 * value is checked, and each default filled in, in one place; the builder keeps only what is its
 * coordinator's own (a table, a key prefix, a namespace) and the claim.
 *
 * <p>Each setter checks its value at once and refuses it with a message naming the value and what
 * is allowed. The timings are checked against each other by {@link #timings()}, when the builder
 * acquires, since they may be given in any order. What is not given:
 *
 * <ul>
 *   <li>ttl and maxMachineId: the backend's defaults, given to the constructor;</li>
 *   <li>renewEvery, safetyMargin, maxClockSkew: {@link LeaseTimings#of} (a fifth and a tenth of the
 *       ttl, {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW});</li>
 *   <li>clock: the system clock; owner: a new {@link LeaseGuard#defaultOwner()} for each claim;
 *       background renewal: on.</li>
 * </ul>
 *
 * <p>Mutable and not thread-safe, like the builders that hold it.
 */
public final class LeaseSettings {

    /** The largest machine id a lease claims: ids are scanned and stored as ints by the backends. */
    public static final long MAX_MACHINE_ID = Integer.MAX_VALUE;

    /** The longest owner name, in characters: what every backend stores. */
    public static final int MAX_OWNER_LENGTH = 255;

    private long maxMachineId;
    private Duration ttl;
    private Duration renewEvery;
    private Duration safetyMargin;
    private Duration maxClockSkew;
    private InstantSource clock = InstantSource.system();
    private String owner;
    private boolean background = true;
    private boolean reclaimAnyId = true;

    /**
     * Settings with a backend's defaults.
     *
     * @param defaultTtl the ttl until {@link #ttl(Duration)} is called
     * @param defaultMaxMachineId the largest id to claim until {@link #maxMachineId(long)} is
     *     called, 0 to {@link #MAX_MACHINE_ID}
     * @throws IllegalArgumentException if the default id is out of range
     */
    public LeaseSettings(Duration defaultTtl, long defaultMaxMachineId) {
        this.ttl = Objects.requireNonNull(defaultTtl, "defaultTtl");
        this.maxMachineId = checkMaxMachineId(defaultMaxMachineId);
    }

    /**
     * How many times a claim may scan for free ids, find some, and lose every one it tried to
     * faster claimers before it gives up. A round is lost only when another claimer won each id
     * tried (or its holder renewed it late), so the claimers as a whole progress with every lost
     * round: with no id freed meanwhile, at most {@code maxMachineId + 1} rounds can be lost
     * before a scan finds the space full and the claim says so. The bound is that count (at most
     * 65,536) plus one, so a claim gives up on the race only while ids are freed as fast as others
     * take them (a fleet of claimers taking over the ids of many dead holders).
     *
     * @param maxMachineId the largest id to claim, 0 to {@link #MAX_MACHINE_ID}
     * @return the number of rounds, 2 to 65,537
     */
    public static long claimRounds(long maxMachineId) {
        return Math.min(checkMaxMachineId(maxMachineId) + 1, 1 << 16) + 1;
    }

    /**
     * Checks a largest machine id.
     *
     * @param maxMachineId the largest id to claim
     * @return {@code maxMachineId}
     * @throws IllegalArgumentException if it is outside 0 to {@link #MAX_MACHINE_ID}
     */
    public static long checkMaxMachineId(long maxMachineId) {
        if (maxMachineId < 0 || maxMachineId > MAX_MACHINE_ID) {
            throw new IllegalArgumentException("maxMachineId " + maxMachineId + " is outside 0.." + MAX_MACHINE_ID);
        }
        return maxMachineId;
    }

    /**
     * @param maxMachineId the largest id to claim, 0 to {@link #MAX_MACHINE_ID}
     * @return these settings
     * @throws IllegalArgumentException if it is out of range
     */
    public LeaseSettings maxMachineId(long maxMachineId) {
        this.maxMachineId = checkMaxMachineId(maxMachineId);
        return this;
    }

    /**
     * @param ttl how long one claim or renewal lasts on the coordinator; checked with the others by
     *     {@link #timings()} (at least 100 ms, and more than the other timings need)
     * @return these settings
     */
    public LeaseSettings ttl(Duration ttl) {
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        return this;
    }

    /**
     * @param renewEvery the pause between renewals; checked by {@link #timings()}
     * @return these settings
     */
    public LeaseSettings renewEvery(Duration renewEvery) {
        this.renewEvery = Objects.requireNonNull(renewEvery, "renewEvery");
        return this;
    }

    /**
     * @param margin how far before {@code expiry - maxClockSkew} the fence stands; checked by
     *     {@link #timings()}
     * @return these settings
     */
    public LeaseSettings safetyMargin(Duration margin) {
        this.safetyMargin = Objects.requireNonNull(margin, "margin");
        return this;
    }

    /**
     * @param max the largest difference allowed between a holder's clock and the coordinator's;
     *     checked by {@link #timings()}
     * @return these settings
     */
    public LeaseSettings maxClockSkew(Duration max) {
        this.maxClockSkew = Objects.requireNonNull(max, "max");
        return this;
    }

    /**
     * @param clock the local wall clock: the generator's
     * @return these settings
     */
    public LeaseSettings clock(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * @param owner the holder's name stored with the claim, 1 to {@link #MAX_OWNER_LENGTH}
     *     characters, not blank
     * @return these settings
     * @throws IllegalArgumentException if it is blank or too long
     */
    public LeaseSettings owner(String owner) {
        Objects.requireNonNull(owner, "owner");
        if (owner.isBlank() || owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException("owner " + Quote.of(owner) + " (" + owner.length() + " characters) must be 1 to "
                    + MAX_OWNER_LENGTH + " characters, not blank");
        }
        this.owner = owner;
        return this;
    }

    /**
     * @param background whether the lease renews on a thread of its own; without it the caller
     *     renews (for tests)
     * @return these settings
     */
    public LeaseSettings background(boolean background) {
        this.background = background;
        return this;
    }

    /**
     * What a lease does once another holder has taken its id (it was paused past its fence, or cut
     * off from the coordinator for longer than the ttl): claim any free id, or wait for its own.
     *
     * @param anyId {@code true} (the default): claim its own id again if free, else the lowest free
     *     one, and carry the generator on under it; {@code false}: claim only its own id again, once
     *     the other holder lets it go, for processes that need one id for their whole life
     * @return these settings
     */
    public LeaseSettings reclaimAnyId(boolean anyId) {
        this.reclaimAnyId = anyId;
        return this;
    }

    /** {@return whether a lease whose id was taken claims any free id ({@link #reclaimAnyId(boolean)})} */
    public boolean reclaimAnyId() {
        return reclaimAnyId;
    }

    /** {@return the largest id to claim} */
    public long maxMachineId() {
        return maxMachineId;
    }

    /** {@return the local wall clock} */
    public InstantSource clock() {
        return clock;
    }

    /**
     * {@return the owner name given, or else a new {@link LeaseGuard#defaultOwner()} (a different one
     * on each call, so each claim made without a name gets its own)}
     */
    public String ownerOrDefault() {
        return owner != null ? owner : LeaseGuard.defaultOwner();
    }

    /** {@return whether the lease renews on a thread of its own} */
    public boolean background() {
        return background;
    }

    /**
     * The timings given, with the defaults for the others, checked against each other.
     *
     * @return the checked timings
     * @throws IllegalArgumentException naming the numbers, as {@link LeaseTimings#LeaseTimings}
     */
    public LeaseTimings timings() {
        return LeaseTimings.of(ttl, renewEvery, safetyMargin, maxClockSkew);
    }
}
