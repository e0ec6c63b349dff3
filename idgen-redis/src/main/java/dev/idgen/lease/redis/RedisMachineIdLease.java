package dev.idgen.lease.redis;

import dev.idgen.lease.redis.RedisLeaseProtocol.RedisLeaseIoException;
import dev.idgen.lease.redis.RedisLeaseProtocol.Reply;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseSettings;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.snowflake.SnowflakeLayout;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine id leased from Redis, for one generator.
 *
 * <pre>{@code
 * RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
 * StatefulRedisConnection<String, String> connection = client.connect(); // the lease's own
 * RedisMachineIdLease lease = RedisMachineIdLease.builder(connection)
 *         .keyPrefix("idgen:orders:").layout(SnowflakeLayout.TWITTER)
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and frees the id
 * }</pre>
 *
 * <p><b>Claiming.</b> {@link Builder#acquire()} claims the lowest id whose key is absent (never
 * claimed, released, or expired by Redis's clock) with {@code SET key "<token>/<owner>" NX PXAT
 * now+ttl} inside a script that reads Redis's {@code TIME}; the token comes from {@code INCR} on the
 * id's counter, and the claim writes a fresh random nonce into the id's record. Only the value with
 * the current token and owner, and a renewal that finds the nonce it wrote last, can renew or
 * release the key. The claim raises the id's mark above the fence the last expiry written for it
 * allowed its writer (by the smaller of the writer's recorded fence offset and the claimer's own),
 * so the new holder starts above every ID the earlier one could make, whatever their timings. A
 * recorded mark further ahead than Redis's clock plus the skew bound is not believed (one bad clock
 * must not lock the id out). A Redis restarted less than a TTL ago may have forgotten live claims
 * (no persistence): claims wait until it has been up for a TTL.
 *
 * <p><b>Recovery.</b> A renewal that finds the key gone or another holder's claims again at once:
 * the lease's own id if it is free, else the lowest free one ({@link Builder#reclaimAnyId(boolean)}),
 * and moves its generator to it (no rebuild); the fence opens after the claim's confirming renewal.
 * {@link #reclaims()} counts these claims.
 *
 * <p><b>Copies of one process.</b> Every renewal replaces the record's nonce by compare-and-set, so
 * of two copies of one process image (a restored checkpoint, a cloned VM: same owner, token and
 * nonce) only the first to renew keeps the id; the other finds the nonce changed and claims as a new
 * holder. Before each renewal the lease looks for a restore ({@link LeaseGuard#checkIncarnation()});
 * on one, and on {@link #afterRestore()}, the fence shuts until two renewals prove the claim.
 *
 * <p><b>Fencing by time.</b> Every renewal is a compare-owner script that sets the expiry to
 * {@code E = TIME + ttl} and returns it. The generator refuses every ID whose own time reaches
 * {@code E - maxClockSkew - safetyMargin}, where {@code E} is the older of the last two acknowledged
 * expiries ({@link LeaseGuard}): Redis frees the key only once its clock passes {@code E}, and the
 * next holder's clock then reads at least {@code E - maxClockSkew}. The fence holds with no thread
 * running. What replication and failover can still do is in {@code docs/lease-redis.md}.
 *
 * <p><b>Clock skew.</b> On claiming and on every renewal the local wall clock (the generator's) is
 * compared with Redis's {@code TIME}; beyond {@link Builder#maxClockSkew(Duration)} a claim fails and
 * a held lease is fenced at once. {@link #isHeld()} also asks a monotonic watchdog (the lease must
 * have been acknowledged within {@code ttl - maxClockSkew - safetyMargin} of the local monotonic
 * clock); that is for reporting only, the fence is the generator's.
 */
public final class RedisMachineIdLease extends GuardedLease {

    private static final Logger LOG = LoggerFactory.getLogger(RedisMachineIdLease.class);
    private static final long NONE = Long.MIN_VALUE;

    private final RedisLeaseProtocol protocol;
    private final InstantSource clock;
    private final boolean reclaimAnyId;
    private final long maxMachineId;
    private final long watchdogNanos;
    private final Object lock = new Object();
    /**
     * The id of the claim in force (or lost last): what the lease renews, releases and claims first
     * again. It follows the guard's {@link #machineId()} except after a claim the generator could not
     * take: the guard then names that id (LeaseGuard.claimed sets it before the generator refuses),
     * but the lease gave it back and keeps this one.
     */
    private volatile long heldId;
    /** The fencing token of our claim on the key; changes with each claim. */
    private volatile long token;
    /** The nonce our last acknowledged write left in the record; a renewal must find it there. */
    private volatile String nonce;
    /**
     * Whether the key of {@link #heldId} is ours as far as we know: false from the moment a
     * renewal found it gone, another holder's or another copy's, until a new claim. Guarded by lock.
     */
    private boolean claimIsOurs = true;
    /** The last two acknowledged expiries of this claim (for a copy of the image); guarded by lock. */
    private long lastExpiry = NONE;
    private long previousExpiry = NONE;
    /** System.nanoTime() when the last two acknowledged writes were sent; the older bounds isHeld(). */
    private long lastSentNanos = NONE;
    private volatile long watchdogDeadline = NONE;
    private volatile ScheduledExecutorService renewer;

    private RedisMachineIdLease(RedisLeaseProtocol protocol, LeaseTimings timings, InstantSource clock,
            long machineId, boolean reclaimAnyId, long maxMachineId) {
        super(machineId, LeaseGuard.named("at Redis prefix " + protocol.prefix(), timings, clock));
        this.protocol = protocol;
        this.heldId = machineId;
        this.clock = clock;
        this.reclaimAnyId = reclaimAnyId;
        this.maxMachineId = maxMachineId;
        this.watchdogNanos = TimeUnit.MILLISECONDS.toNanos(timings.ttl().toMillis() - timings.fenceOffsetMillis());
    }

    /**
     * A builder for leases on the Redis behind {@code connection}. Give the lease a connection of its
     * own (or one without blocking commands): a renewal queued behind a slow command is late.
     *
     * @param connection a connection to the Redis primary; the lease never closes it
     * @return a new builder
     */
    public static Builder builder(StatefulRedisConnection<String, String> connection) {
        return new Builder(connection);
    }

    /**
     * Whether the id may be used now: the fence is open, the local clock is still before it, and the
     * monotonic watchdog has not run out. For health checks and logs; the generator checks each ID's
     * own time against the fence.
     */
    @Override
    public boolean isHeld() {
        long d = watchdogDeadline;
        return guard().isHeld() && d != NONE && System.nanoTime() - d < 0;
    }

    /** {@return the owner written in the key: host, process id and a random suffix by default} */
    public String owner() {
        return protocol.owner();
    }

    /** {@return the fencing token of the current claim; each claim of an id adds one} */
    public long token() {
        return token;
    }

    /** {@return the Redis key of the lease: the key of the id claimed last} */
    public String key() {
        return protocol.leaseKey(heldId);
    }

    /** {@return Redis's clock minus the local clock, as last measured (positive: Redis is ahead)} */
    public Duration clockSkew() {
        return Duration.ofMillis(guard().skewMillis());
    }

    /**
     * Renews now, off schedule: extends the key, records the generator's mark, rotates the record's
     * nonce and re-checks the clock skew. First looks for signs that this process is a restored or
     * cloned copy ({@link LeaseGuard#checkIncarnation()}): then the fence shuts until two renewals
     * prove the claim is still this copy's. A lease whose key is gone, another holder's, or renewed
     * by another copy of this process claims again: its own id if free, else (unless
     * {@link Builder#reclaimAnyId(boolean)} was turned off) the lowest free id, above that id's mark.
     *
     * @return whether the lease is held afterwards
     */
    public boolean renewNow() {
        synchronized (lock) {
            if (guard().isReleased()) {
                return false;
            }
            if (!guard().checkIncarnation()) { // the guard shut the fence, and logged why
                forgetExpiries();
            }
            try {
                if (!claimIsOurs) {
                    return reclaim();
                }
                Reply r = protocol.renew(heldId, token, nonce, guard().markToRecord());
                switch (r.status()) {
                    case DONE -> acknowledge(r);
                    case NOT_OURS -> {
                        loseClaim("the key of machine id " + heldId + " expired or was taken by another holder");
                        return reclaim();
                    }
                    case COPIED -> {
                        loseClaim("another copy of this process image (same owner and token) renewed machine id "
                                + heldId + " first; this copy claims as a new holder");
                        return reclaim();
                    }
                }
            } catch (RedisLeaseIoException e) {
                LOG.warn("Renewing machine id {} at Redis key {} failed (the fence stays where the last renewals put"
                        + " it): {}", heldId, key(), e.getMessage());
            }
            return isHeld();
        }
    }

    /**
     * Shuts the fence at once (this process was restored from a checkpoint or copied), then renews
     * twice on the renewal thread, so a copy that still holds the claim opens again within two
     * round trips and one that does not claims another id. Without background renewal the caller
     * renews ({@link #renewNow()}).
     */
    @Override
    public void afterRestore() {
        super.afterRestore(); // the fence shuts here, before any wait for the lock
        synchronized (lock) {
            forgetExpiries();
        }
        ScheduledExecutorService r = renewer;
        if (r != null) {
            try {
                r.execute(() -> {
                    renewQuietly();
                    renewQuietly();
                });
            } catch (RejectedExecutionException e) {
                // closed meanwhile: nothing to renew
            }
        }
    }

    /**
     * Fences the generator, records its high-water mark and frees the id for the next holder. A
     * failed release only leaves the id to expire.
     */
    @Override
    public void close() {
        long mark;
        long id;
        long tok;
        String n;
        synchronized (lock) {
            if (guard().isReleased()) {
                return;
            }
            mark = guard().release(); // fence first, then read the mark: nothing slips between
            forgetWatchdog();
            id = heldId;
            tok = token;
            n = nonce;
        }
        ScheduledExecutorService r = renewer;
        if (r != null) {
            r.shutdownNow();
        }
        try {
            boolean ours = protocol.release(id, tok, n, mark);
            LOG.info("Released machine id {} at Redis key {} (high-water mark {}{})", id, protocol.leaseKey(id),
                    LeaseGuard.markText(mark),
                    ours ? "" : "; the key was no longer ours");
        } catch (RedisLeaseIoException e) {
            LOG.warn("Releasing machine id {} at Redis key {} failed; it frees itself when the lease expires: {}",
                    id, protocol.leaseKey(id), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "Redis lease on machine id " + heldId + " at key " + key() + " by " + protocol.owner() + ", token "
                + token + ", " + guard().state();
    }

    /**
     * A copy of this lease as a restored snapshot of this process would hold it: the same owner,
     * token, nonce, expiries, fence and mark, on {@code connection}; no renewal thread. For tests of
     * two copies of one image.
     */
    RedisMachineIdLease copyOfImage(StatefulRedisConnection<String, String> connection) {
        synchronized (lock) {
            RedisMachineIdLease copy = new RedisMachineIdLease(protocol.on(connection), timings(), clock, heldId,
                    reclaimAnyId, maxMachineId);
            synchronized (copy.lock) {
                copy.token = token;
                copy.nonce = nonce;
                copy.claimIsOurs = claimIsOurs;
                long mark = guard().markToRecord();
                if (previousExpiry != NONE) {
                    copy.guard().claimed(heldId, previousExpiry, mark);
                    copy.guard().acknowledged(lastExpiry, mark);
                } else if (lastExpiry != NONE) {
                    copy.guard().claimed(heldId, lastExpiry, mark);
                }
                copy.previousExpiry = previousExpiry;
                copy.lastExpiry = lastExpiry;
                copy.lastSentNanos = lastSentNanos;
                copy.watchdogDeadline = watchdogDeadline;
            }
            return copy;
        }
    }

    /** Replaces what {@link LeaseGuard#checkIncarnation()} asks (a fake process id, in tests). */
    void watchIncarnation(IncarnationWatch watch) {
        guard().watchIncarnation(watch);
    }

    /**
     * A fresh claim ({@code r}, ours): checks the skew, moves the guard and the generator to it, and
     * renews once to open the fence. A claim the guard cannot take (the clock is out of bounds, the
     * generator has no room for the id) is given back and the lease stays fenced. Caller holds lock.
     *
     * @param again whether this claim follows a loss (the lease gives back what it cannot use)
     */
    private boolean takeClaim(Reply r, boolean again) throws RedisLeaseIoException {
        if (!guard().acceptSkew(r.redisNowMillis(), r.localBefore(), r.localAfter())) {
            if (again) {
                giveBack(r, "the clocks differ by more than maxClockSkew");
            }
            return false;
        }
        long before = heldId;
        try {
            guard().claimed(r.machineId(), r.expiresMillis(), r.mark());
        } catch (IllegalArgumentException e) {
            LOG.error("Claimed machine id {} at Redis key {} after losing machine id {}, but the generator cannot take"
                    + " it ({}); gave it back, the lease stays fenced", r.machineId(), protocol.leaseKey(r.machineId()),
                    before, e.getMessage());
            giveBack(r, "the generator has no room for it");
            return false;
        }
        heldId = r.machineId();
        token = r.token();
        nonce = r.nonce();
        claimIsOurs = true;
        forgetWatchdog();
        previousExpiry = NONE;
        lastExpiry = r.expiresMillis();
        lastSentNanos = r.sentNanos();
        if (again) {
            LOG.info("Claimed machine id {} at Redis key {} (token {}, high-water mark {}); the lease held machine id {}"
                    + " before", r.machineId(), key(), r.token(), LeaseGuard.markText(r.mark()), before);
        }
        Reply renewal = protocol.renew(heldId, token, nonce, guard().markToRecord());
        if (!renewal.ok()) {
            loseClaim("the key of machine id " + heldId + " was taken over right after the claim");
            return false;
        }
        acknowledge(renewal);
        return isHeld();
    }

    /** Deletes a claim just made that the lease cannot use, so the id is free at once. */
    private void giveBack(Reply r, String why) {
        try {
            protocol.release(r.machineId(), r.token(), r.nonce(), MachineIdLease.NO_MARK);
        } catch (RedisLeaseIoException e) {
            LOG.warn("Could not give back machine id {} at Redis key {} ({}); it frees itself when the claim expires:"
                    + " {}", r.machineId(), protocol.leaseKey(r.machineId()), why, e.getMessage());
        }
    }

    private void acknowledge(Reply r) {
        nonce = r.nonce(); // the record holds it now, whatever the skew check says
        if (guard().acceptSkew(r.redisNowMillis(), r.localBefore(), r.localAfter())) {
            guard().acknowledged(r.expiresMillis(), r.mark());
            previousExpiry = lastExpiry;
            lastExpiry = r.expiresMillis();
            // the watchdog trails the older of the last two acknowledged writes, as the fence does
            if (lastSentNanos != NONE) {
                watchdogDeadline = lastSentNanos + watchdogNanos;
            }
            lastSentNanos = r.sentNanos();
        } else {
            forgetExpiries();
        }
    }

    private void loseClaim(String why) {
        guard().lost(why);
        forgetExpiries();
        claimIsOurs = false;
    }

    /** The guard forgot this claim's expiries (a loss, a restore): so does the lease. Caller holds lock. */
    private void forgetExpiries() {
        forgetWatchdog();
        previousExpiry = NONE;
        lastExpiry = NONE;
    }

    private void forgetWatchdog() {
        lastSentNanos = NONE;
        watchdogDeadline = NONE;
    }

    /**
     * The claim is lost: claims the lease's own id again if it is free, else (with reclaimAnyId) the
     * lowest free id. Not before Redis has been up for the TTL. Caller holds lock.
     */
    private boolean reclaim() throws RedisLeaseIoException {
        if (protocol.uptimeAboveMillis() < guard().timings().ttl().toMillis()) {
            return false; // a restarted Redis may have forgotten another's claim: wait a TTL
        }
        long own = heldId;
        Reply r = protocol.claimFirstFree(own, own);
        if (!r.ok() && reclaimAnyId) {
            r = protocol.claimLowestFree(maxMachineId);
        }
        if (r == null || !r.ok()) {
            return false;
        }
        return takeClaim(r, true);
    }

    private void startBackground(Duration renewEvery) {
        String name = "idgen-redis-" + heldId + "-renew";
        renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        long every = renewEvery.toNanos();
        renewer.scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.NANOSECONDS);
    }

    private void renewQuietly() {
        try {
            renewNow();
        } catch (RuntimeException e) {
            LOG.warn("Renewal of machine id {} at Redis key {} failed", heldId, key(), e);
        }
    }

    /**
     * Configures and acquires a {@link RedisMachineIdLease}. Holds configuration only; the claim is
     * the protocol's. Not thread-safe.
     */
    public static final class Builder {
        private final StatefulRedisConnection<String, String> connection;
        private String keyPrefix = "idgen:lease:";
        /** The one id to claim, or -1: claim the lowest free id. */
        private long exactId = -1;
        private final LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(30),
                SnowflakeLayout.TWITTER.maxMachineId());
        private String space = "the default space 0..1023 (Twitter layout, 10 machine bits)";

        private Builder(StatefulRedisConnection<String, String> connection) {
            this.connection = Objects.requireNonNull(connection, "connection");
        }

        /**
         * @param prefix the start of every key the lease uses, e.g. {@code "idgen:orders:"}; one
         *     prefix per machine-id space (per service); default {@code "idgen:lease:"}
         * @return this builder
         * @throws IllegalArgumentException if the prefix is blank or holds a brace (the lease puts
         *     each id's keys in one hash slot with {@code {id}})
         */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            if (prefix.isBlank()) {
                throw new IllegalArgumentException("keyPrefix \"" + prefix + "\" is blank; give the service's own prefix,"
                        + " e.g. \"idgen:orders:\"");
            }
            if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
                throw new IllegalArgumentException("keyPrefix \"" + prefix + "\" holds a brace; the lease adds the hash"
                        + " tag {id} itself");
            }
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * Claims ids of the layout's machine-id space, {@code 0..layout.maxMachineId()}.
         *
         * @param layout the generator's layout
         * @return this builder
         */
        public Builder layout(SnowflakeLayout layout) {
            Objects.requireNonNull(layout, "layout");
            // a layout may have up to 61 machine bits; ids above the lease's range are never reached
            // (the lowest free id is claimed), so the range is capped rather than the layout refused
            settings.maxMachineId(Math.min(layout.maxMachineId(), LeaseSettings.MAX_MACHINE_ID));
            this.space = "the machine-id space 0.." + layout.maxMachineId() + " of layout " + layout.name() + " ("
                    + layout.machineBits() + " machine bits)";
            return this;
        }

        /**
         * @param maxMachineId the largest id to claim; default 1023 (the Twitter layout's)
         * @return this builder
         */
        public Builder maxMachineId(long maxMachineId) {
            settings.maxMachineId(maxMachineId);
            this.space = "the machine-id space 0.." + maxMachineId;
            return this;
        }

        /**
         * @param ttl how long a claim or renewal lasts by Redis's clock; default 30 s, at least
         *     100 ms; see {@link LeaseTimings} for what it must exceed
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            settings.ttl(ttl);
            return this;
        }

        /**
         * @param renewEvery the pause between renewals; default a fifth of the TTL
         * @return this builder
         */
        public Builder renewEvery(Duration renewEvery) {
            settings.renewEvery(renewEvery);
            return this;
        }

        /**
         * @param margin how far before {@code expiry - maxClockSkew} the fence stands; default a
         *     tenth of the TTL
         * @return this builder
         */
        public Builder safetyMargin(Duration margin) {
            settings.safetyMargin(margin);
            return this;
        }

        /**
         * @param max the largest difference allowed between any holder's clock and Redis's; default
         *     {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW} (1 s). Every holder under one prefix should
         *     use the same bound and margin.
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            settings.maxClockSkew(max);
            return this;
        }

        /**
         * @param clock the local wall clock compared with Redis's: the generator's clock; default the
         *     system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            settings.clock(clock);
            return this;
        }

        /**
         * @param owner the holder's name written in the key; default host, process id and a random
         *     suffix ({@link LeaseGuard#defaultOwner()})
         * @return this builder
         */
        public Builder owner(String owner) {
            settings.owner(owner);
            return this;
        }

        /**
         * Claims exactly this id rather than the lowest free one: for an id given by configuration
         * ({@code fixed}, an environment variable, a pod ordinal), so that a second process given
         * the same id fails at start (naming the holder) instead of repeating its IDs. The lease
         * renews and fences as any other; it never moves to another id: once another holder took
         * it, it stays fenced until its own id is free again ({@link #reclaimAnyId(boolean)} does
         * not apply).
         *
         * @param machineId the id, in 0..{@link #maxMachineId(long) maxMachineId}
         * @return this builder
         * @throws IllegalArgumentException if the id is negative
         */
        public Builder machineId(long machineId) {
            if (machineId < 0) {
                throw new IllegalArgumentException("machineId = " + machineId + " is negative; allowed: 0..maxMachineId"
                        + " (default 1023)");
            }
            this.exactId = machineId;
            return this;
        }

        /**
         * What the lease does once another holder has taken its id (it was paused, or cut off from
         * Redis, for longer than the TTL) or another copy of this process renewed it first: claim its
         * own id again if free, else the lowest free id, and carry the generator on under it
         * ({@code true}, the default); or ({@code false}) wait, fenced, until its own id is free again,
         * for processes that need one id for their whole life.
         *
         * @param anyId default {@code true}
         * @return this builder
         */
        public Builder reclaimAnyId(boolean anyId) {
            settings.reclaimAnyId(anyId);
            return this;
        }

        /**
         * Whether the lease renews itself on a thread of its own. Without it the caller renews
         * ({@link RedisMachineIdLease#renewNow()}); for tests. The fence never needs a thread.
         *
         * @param background default {@code true}
         * @return this builder
         */
        Builder background(boolean background) {
            settings.background(background);
            return this;
        }

        /**
         * Claims the lowest free machine id, renews it once (a claim's own write opens no fence) and
         * returns the lease, renewing in the background. Waits first, if Redis has been up for less
         * than the TTL (it may have restarted without the claims of live holders).
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id of the space is held (the message names the
         *     space and how to widen it), Redis does not answer, or the clocks differ by more than
         *     {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException naming the numbers, if the timings do not fit
         *     ({@link LeaseTimings})
         */
        public RedisMachineIdLease acquire() {
            LeaseTimings timings = settings.timings();
            long maxMachineId = settings.maxMachineId();
            if (exactId > maxMachineId) {
                throw new IllegalArgumentException("machineId = " + exactId + " is above maxMachineId = " + maxMachineId
                        + "; allowed: 0.." + maxMachineId + " (raise maxMachineId, or give the layout, for a wider id)");
            }
            RedisLeaseProtocol protocol = new RedisLeaseProtocol(connection, keyPrefix, settings.ownerOrDefault(),
                    timings.ttl().toMillis(), timings.fenceOffsetMillis(), timings.maxClockSkew().toMillis(),
                    timings.callTimeout(), settings.clock());
            Reply claim;
            try {
                awaitUptime(protocol, timings.ttl().toMillis());
                claim = exactId >= 0 ? claimExact(protocol, exactId) : protocol.claimLowestFree(maxMachineId);
            } catch (RedisLeaseIoException e) {
                throw new MachineIdLeaseException("Could not claim a machine id under Redis key prefix " + keyPrefix
                        + ": " + e.getMessage(), e.getCause());
            }
            if (claim == null) {
                throw new MachineIdLeaseException("Every machine id of " + space + " under Redis key prefix "
                        + keyPrefix + " is held by a live lease; free one, or widen the space: a layout with more"
                        + " machine bits (e.g. SnowflakeLayout.SONYFLAKE, 0..65535, or a custom layout) and"
                        + " builder.layout(it)");
            }
            RedisMachineIdLease lease = new RedisMachineIdLease(protocol, timings, settings.clock(),
                    claim.machineId(), exactId < 0 && settings.reclaimAnyId(), maxMachineId); // an exact id never moves
            // the claim is ours until takeClaim says otherwise: close() below then frees it at once
            lease.token = claim.token();
            lease.nonce = claim.nonce();
            boolean held;
            try {
                synchronized (lease.lock) {
                    held = lease.takeClaim(claim, false);
                }
            } catch (RedisLeaseIoException e) {
                lease.close();
                throw new MachineIdLeaseException("Claimed machine id " + claim.machineId() + " at Redis key "
                        + lease.key() + " but could not confirm it: " + e.getMessage(), e.getCause());
            }
            if (!held) {
                String why = lease.guard().state();
                lease.close(); // frees the id at once
                throw new MachineIdLeaseException("Could not hold machine id " + claim.machineId() + " at Redis key "
                        + lease.key() + ": " + why + "; fix the clock (NTP) or the timings before claiming a machine id");
            }
            LOG.info("Claimed machine id {} at Redis key {} (token {}, high-water mark {}, clock skew {} ms, fence {})",
                    lease.machineId(), lease.key(), lease.token, LeaseGuard.markText(lease.highWaterMark()),
                    lease.guard().skewMillis(),
                    lease.fence());
            if (settings.background()) {
                lease.startBackground(timings.renewEvery());
            }
            return lease;
        }

        /**
         * Claims exactly {@code id}; a live holder fails the claim by name. A key that expired between
         * the claim and the read is tried again, at most three times.
         */
        private static Reply claimExact(RedisLeaseProtocol protocol, long id) throws RedisLeaseIoException {
            for (int attempt = 0; attempt < 3; attempt++) {
                Reply r = protocol.claimFirstFree(id, id);
                if (r.ok()) {
                    return r;
                }
                RedisLeaseProtocol.Holder h = protocol.holder(id);
                if (h.live()) {
                    String v = h.value();
                    int slash = v.indexOf('/');
                    throw new MachineIdLeaseException("Machine id " + id + " at Redis key " + protocol.leaseKey(id)
                            + " is held by a live lease of owner '" + (slash >= 0 ? v.substring(slash + 1) : v)
                            + "' (token " + (slash >= 0 ? v.substring(0, slash) : "?") + ") until "
                            + java.time.Instant.ofEpochMilli(h.expiresMillis()) + " by Redis's clock: another process"
                            + " runs with this id. Give this process an id of its own, or stop that one; if it has"
                            + " stopped already, the id is free once its claim has expired");
                }
            }
            throw new MachineIdLeaseException("Lost the race for machine id " + id + " at Redis key "
                    + protocol.leaseKey(id) + " 3 times over; several processes are starting with this id");
        }

        /** Waits until Redis has surely been up for longer than the TTL: a restart may have lost live claims. */
        private static void awaitUptime(RedisLeaseProtocol protocol, long ttlMillis) throws RedisLeaseIoException {
            long up = protocol.uptimeAboveMillis();
            if (up >= ttlMillis) {
                return;
            }
            LOG.info("Redis has been up only {} s; claims wait until it has been up longer than the ttl ({} ms), as a"
                    + " restart without persistence forgets live claims", up / 1000, ttlMillis);
            while ((up = protocol.uptimeAboveMillis()) < ttlMillis) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.min(1000, ttlMillis + 1000 - up)));
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new RedisLeaseIoException("interrupted while waiting for Redis's uptime", null);
                }
            }
        }
    }
}
