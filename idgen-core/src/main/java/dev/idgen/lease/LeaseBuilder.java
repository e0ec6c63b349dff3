package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What every lease builder takes, checked and defaulted in one place: the layout and the range of
 * machine ids, the timings, the local clock, the owner name, what happens once the id was taken,
 * and whether the lease renews on a thread of its own. A store module's builder extends it with
 * what is its store's own (a table, a key prefix) and {@link #newLease()}.
 *
 * <p>Each setter checks its value at once and refuses it with a message naming the value and what
 * is allowed; the timings are checked against each other ({@link LeaseTimings}) and the range
 * against the layout when the builder acquires. Defaults: {@link SnowflakeLayout#TWITTER}, ids
 * {@code 0..layout.maxMachineId()}, a ttl of 30 s (renewal every fifth, margin a tenth, skew bound
 * {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW}), the system clock, an owner made of host, process
 * id and a random suffix, any free id after a loss, and background renewal. Not thread-safe.
 *
 * @param <B> the builder's own type
 * @param <L> the lease it builds
 */
public abstract class LeaseBuilder<B extends LeaseBuilder<B, L>, L extends StoreLease> {

    /** The largest machine id a lease claims. */
    public static final long MAX_MACHINE_ID = Integer.MAX_VALUE;

    /** The longest owner name, in characters. */
    public static final int MAX_OWNER_LENGTH = 255;

    private SnowflakeLayout layout = SnowflakeLayout.TWITTER;
    private long minMachineId;
    private long maxMachineId = -1;
    private long exactId = -1;
    private Duration ttl = Duration.ofSeconds(30);
    private Duration renewEvery;
    private Duration safetyMargin;
    private Duration maxClockSkew;
    private InstantSource clock = InstantSource.system();
    private String owner;
    private boolean reclaimAnyId = true;
    private boolean background = true;

    /** For subclasses. */
    protected LeaseBuilder() {
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * The layout of the generator this lease serves: recorded with the namespace, so holders of
     * another layout (whose IDs could equal these for other machine ids) are refused, and checked
     * against the generator when it attaches.
     *
     * @param layout the layout; default {@link SnowflakeLayout#TWITTER}
     * @return this builder
     */
    public B layout(SnowflakeLayout layout) {
        this.layout = Objects.requireNonNull(layout, "layout");
        return self();
    }

    /**
     * @param maxMachineId the largest id to claim, 0 to the layout's {@code maxMachineId()}; default
     *     the layout's
     * @return this builder
     * @throws IllegalArgumentException if it is negative or above {@link #MAX_MACHINE_ID}
     */
    public B maxMachineId(long maxMachineId) {
        this.maxMachineId = checkId("maxMachineId", maxMachineId);
        return self();
    }

    /**
     * The smallest id to claim: with {@link #maxMachineId(long)}, the range this store owns when
     * several stores serve one ID space (during a move from one store to another, give each a
     * range of its own; {@code docs/machine-ids.md}).
     *
     * @param minMachineId default 0
     * @return this builder
     * @throws IllegalArgumentException if it is negative or above {@link #MAX_MACHINE_ID}
     */
    public B minMachineId(long minMachineId) {
        this.minMachineId = checkId("minMachineId", minMachineId);
        return self();
    }

    /**
     * Claims exactly this id rather than the lowest free one: for an id given by configuration, so
     * that a second process given the same id fails at start. Such a lease never moves to another
     * id: once another holder took it, it stays fenced until the id is free again.
     *
     * @param machineId the id, in the range
     * @return this builder
     * @throws IllegalArgumentException if it is negative or above {@link #MAX_MACHINE_ID}
     */
    public B machineId(long machineId) {
        this.exactId = checkId("machineId", machineId);
        return self();
    }

    /**
     * @param ttl how long one acknowledged write lasts by the store's clock; default 30 s, at least
     *     100 ms and more than the other timings need ({@link LeaseTimings})
     * @return this builder
     */
    public B ttl(Duration ttl) {
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        return self();
    }

    /**
     * @param renewEvery the pause between renewals; default a fifth of the ttl
     * @return this builder
     */
    public B renewEvery(Duration renewEvery) {
        this.renewEvery = Objects.requireNonNull(renewEvery, "renewEvery");
        return self();
    }

    /**
     * @param margin how far before {@code expiry - skew bound} the fence stands; default a tenth of the ttl
     * @return this builder
     */
    public B safetyMargin(Duration margin) {
        this.safetyMargin = Objects.requireNonNull(margin, "margin");
        return self();
    }

    /**
     * @param max the largest difference allowed between this process's clock and the store's;
     *     default {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW}
     * @return this builder
     */
    public B maxClockSkew(Duration max) {
        this.maxClockSkew = Objects.requireNonNull(max, "max");
        return self();
    }

    /**
     * @param clock the local wall clock compared with the store's: the generator's; default the
     *     system clock
     * @return this builder
     */
    public B clock(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return self();
    }

    /**
     * @param owner the holder's name written with each claim, 1 to {@link #MAX_OWNER_LENGTH}
     *     characters, not blank; default host, process id and a random suffix
     * @return this builder
     * @throws IllegalArgumentException if it is blank or too long
     */
    public B owner(String owner) {
        Objects.requireNonNull(owner, "owner");
        if (owner.isBlank() || owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException("owner " + Quote.of(owner) + " (" + owner.length()
                    + " characters) must be 1 to " + MAX_OWNER_LENGTH + " characters, not blank");
        }
        this.owner = owner;
        return self();
    }

    /**
     * What the lease does once another holder took its id, or another copy of this process image
     * wrote it first: claim its own id again if free, else the lowest free one, and carry the
     * generator on under it; or wait for its own id only.
     *
     * @param anyId default {@code true}
     * @return this builder
     */
    public B reclaimAnyId(boolean anyId) {
        this.reclaimAnyId = anyId;
        return self();
    }

    /**
     * Whether the lease renews on a thread of its own. Without it the caller renews
     * ({@link StoreLease#renewNow()}): for tests. The fence never needs a thread.
     *
     * @param background default {@code true}
     * @return this builder
     */
    public B background(boolean background) {
        this.background = background;
        return self();
    }

    /**
     * {@return the timings given, with the defaults for the others, checked against each other, for
     * a store with or without a clock}
     *
     * @param storeHasClock whether the store shows a clock
     * @throws IllegalArgumentException naming the numbers, as {@link LeaseTimings}
     */
    public final LeaseTimings timings(boolean storeHasClock) {
        return LeaseTimings.of(ttl, renewEvery, safetyMargin, maxClockSkew, storeHasClock);
    }

    /** {@return the local clock} */
    protected final InstantSource clock() {
        return clock;
    }

    /**
     * Claims an id (the lowest free one, or exactly {@link #machineId(long)}), confirms it, waits
     * until the clock is past the claim's floor, and returns the lease, renewing in the background.
     *
     * @return the lease, held
     * @throws MachineIdLeaseException if no id can be held: every id is held (or the exact one is:
     *     the message names its holder), the store is unreachable or holds another layout, or the
     *     clocks differ by more than the skew bound
     * @throws IllegalArgumentException naming the numbers, if the timings or the range do not fit
     */
    public final L acquire() {
        L lease = newLease();
        lease.start();
        return lease;
    }

    /**
     * Marks a namespace that never held a lease as new, so that its first claim does not wait one
     * ttl. A namespace with no namespace record is either new or was emptied (a flush, a truncate, a
     * restart without persistence), which look the same, so the lease waits one ttl before the first
     * claim opens, long enough for any holder from before to have stopped. Call this once when you
     * create the store or choose a new namespace, as the shipped JDBC DDL does for a table; never
     * after a store was emptied, and never on every start.
     *
     * @return whether the namespace record was written; false when the namespace has one already
     * @throws MachineIdLeaseException if the store does not answer
     */
    public final boolean initializeNewNamespace() {
        LeaseStore store = newLease().store();
        try {
            return store.createNamespace(new dev.idgen.lease.spi.NamespaceRecord("", -1,
                    ThreadLocalRandom.current().nextLong() | 1, Long.MIN_VALUE));
        } catch (Exception e) {
            throw new MachineIdLeaseException("Could not write the namespace record " + store.describe() + ": " + e, e);
        }
    }

    /**
     * {@return a lease on this builder's store, not claimed yet: {@code new MyLease(this, store)}}
     */
    protected abstract L newLease();

    /** The settings, checked, for a lease on {@code store}. */
    final LeaseConfig config(LeaseStore store) {
        LeaseTimings timings = timings(store.hasClock());
        long max = maxMachineId >= 0 ? maxMachineId : Math.min(layout.maxMachineId(), MAX_MACHINE_ID);
        if (max > layout.maxMachineId()) {
            throw new IllegalArgumentException("maxMachineId = " + max + " is above layout " + layout.name()
                    + "'s maxMachineId() = " + layout.maxMachineId() + "; allowed: 0.." + layout.maxMachineId());
        }
        if (minMachineId > max) {
            throw new IllegalArgumentException("minMachineId = " + minMachineId + " is above maxMachineId = " + max
                    + "; the range must hold at least one id");
        }
        if (exactId >= 0 && (exactId < minMachineId || exactId > max)) {
            throw new IllegalArgumentException("machineId = " + exactId + " is outside the allowed range "
                    + minMachineId + ".." + max + " (raise maxMachineId up to the layout's maxMachineId() for a"
                    + " wider id)");
        }
        String name = owner != null ? owner : defaultOwner();
        return new LeaseConfig(store, timings, clock, name, layout.signature(), minMachineId, max, exactId,
                reclaimAnyId, background);
    }

    private static long checkId(String what, long id) {
        if (id < 0 || id > MAX_MACHINE_ID) {
            throw new IllegalArgumentException(what + " = " + id + " is outside the allowed range 0.." + MAX_MACHINE_ID);
        }
        return id;
    }

    /**
     * An owner name: host name, process id and a random suffix, so two processes on one host, or
     * one process restarted, never share it.
     *
     * @return for example {@code "api-7/4711/3f09c2a1be"}
     */
    public static String defaultOwner() {
        return defaultOwner(System.getenv("HOSTNAME"));
    }

    /** {@return the default owner on a host named {@code host} (the value of HOSTNAME, or null)} */
    static String defaultOwner(String host) {
        String name = host == null || host.isBlank() ? "host" : host;
        return name + "/" + ProcessHandle.current().pid() + "/"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }
}
