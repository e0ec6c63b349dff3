package dev.idgen.lease.etcd;

import dev.idgen.lease.etcd.EtcdLeaseProtocol.Ack;
import dev.idgen.lease.etcd.EtcdLeaseProtocol.Countdown;
import dev.idgen.lease.etcd.EtcdLeaseProtocol.EtcdCallException;
import dev.idgen.lease.etcd.EtcdLeaseProtocol.Renewal;
import dev.idgen.lease.etcd.EtcdLeaseProtocol.Row;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseSettings;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import io.etcd.jetcd.Client;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine id leased from etcd, for one generator.
 *
 * <pre>{@code
 * Client etcd = Client.builder().endpoints("http://etcd-0:2379", "http://etcd-1:2379").build();
 * EtcdMachineIdLease lease = EtcdMachineIdLease.builder(etcd)
 *         .namespace("/idgen/orders")
 *         .maxMachineId(SnowflakeLayout.TWITTER.maxMachineId())
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and revokes the etcd lease
 * }</pre>
 *
 * <p><b>Claiming.</b> {@link Builder#acquire()} grants an etcd lease of the TTL and creates the key
 * {@code <namespace>/id/<n>} of the lowest free id in a transaction that succeeds only if the key
 * does not exist (create revision 0), bound to that etcd lease: the key vanishes when the lease is
 * revoked or expires, and only then can another claimer create it.
 *
 * <p><b>Fencing by time, without a coordinator clock.</b> etcd expires a lease by its leader's
 * elapsed time and shows no wall clock. An acknowledged grant or keep-alive sent at local time
 * {@code t} proves the lease lives on the server until {@code t}'s real instant plus the TTL the
 * answer reports. Another holder can then create the key no earlier, and its clock, at most
 * {@code 2 x maxClockSkew} from ours, reads at least {@code t + ttl - 2 x maxClockSkew}. So the
 * generator refuses every ID whose own time reaches {@code t + ttl - 2 x maxClockSkew - safetyMargin},
 * from the older of the last two acknowledgements; it checks each ID after it took it, so the fence
 * holds with no thread running. A leader change only extends leases. See
 * {@code docs/lease-etcd.md}.
 *
 * <p><b>The id's record.</b> Each renewal and the release write {@code <namespace>/mark/<n>}, bound
 * to no etcd lease: the generator's {@link MachineIdUser#highWaterMark()} (raised, never lowered,
 * except capped at the local clock plus twice the skew bound), the writer's fence offset and the
 * expiry of its newest keep-alive. A new holder reads it in its claim transaction and its generator
 * starts above the mark and at or above the old holder's fence rebuilt from the record (with the
 * smaller of the two offsets).
 *
 * <p><b>Copies and recovery.</b> The id key holds a random nonce, rotated by every renewal in a
 * transaction that compares the key's value: of two copies of one process image (a restored
 * snapshot) the second to renew finds another nonce and claims as a new holder. A lease whose id
 * was taken claims its own id again if free, else (by default) the lowest free id, and moves its
 * generator to it ({@link Builder#reclaimAnyId(boolean)}). See {@code docs/lease-etcd.md}.
 *
 * <p><b>Clock skew.</b> etcd shows no wall clock (its answers carry a revision and a raft term, its
 * lease countdown is the leader's elapsed time in whole seconds), so no holder can compare its clock
 * with etcd's as the JDBC, Redis and ZooKeeper leases do: keep every holder's clock within
 * {@link Builder#maxClockSkew(Duration)} of true time (NTP) when it claims; the skew bound counts
 * twice in the fence for that reason. What the lease does measure, on the claim and every renewal:
 * <ul>
 *   <li>its wall clock against the same clock as it read at the claim, carried forward by the local
 *       elapsed-time clock ({@link System#nanoTime()}): a forward step of the wall clock since the
 *       claim (an operator, a restored snapshot, NTP stepping) beyond the skew bound fences the lease
 *       until the clock is back within it ({@link #clockSkew()} shows the step either way);</li>
 *   <li>etcd's lease countdown against the local elapsed time since the last keep-alive: when the
 *       leader has certainly counted more than the local clock plus the margin (the countdown is read
 *       in whole seconds, so only by more than a second), the etcd lease may expire before the fence
 *       the lease computed, and the lease is fenced.</li>
 * </ul>
 */
public final class EtcdMachineIdLease extends GuardedLease {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdMachineIdLease.class);
    /** No etcd lease: the last one is gone, or shared with a copy of this process that kept the id. */
    private static final long NO_LEASE = 0;
    private static final SecureRandom NONCES = new SecureRandom();

    private final EtcdLeaseProtocol protocol;
    private final InstantSource clock;
    private final LongSupplier nanos;
    private final Object lock = new Object();
    /** The etcd lease the id key is bound to; changes only when the id is claimed again. */
    private volatile long leaseId;
    /**
     * The wall clock and the elapsed-time clock read together at the claim: the reference the wall
     * clock is measured against on every renewal, since etcd has none to offer. Guarded by lock.
     */
    private long anchorWallMillis;
    private long anchorNanos;
    /** The last grant or keep-alive acknowledged: etcd's countdown restarted there. Guarded by lock. */
    private Ack lastAck;
    /** The wall clock's step since the claim, as last measured; for {@link #clockSkew()}. */
    private volatile long stepMillis;
    /**
     * The nonce this copy wrote last into the id key; a renewal rotates it only where the key still
     * holds it, so a copy of this process that renews second finds another. Guarded by lock.
     */
    private long nonce;
    /** Whether this lease (or the image it was copied from) wrote the nonce; guarded by lock. */
    private boolean wroteNonce;
    /** Ids the generator had no room for: never claimed again by this lease. Guarded by lock. */
    private final Set<Long> unusable = new HashSet<>();
    /** The id to claim again first after a loss: the last one this lease held. Guarded by lock. */
    private long ownId;
    /** The last two expiries handed to the guard, to build a copy with the same fence. Guarded by lock. */
    private long previousExpiry = EtcdLeaseProtocol.NONE;
    private long lastExpiry = EtcdLeaseProtocol.NONE;
    private final long maxMachineId;
    private final boolean reclaimAnyId;
    private ScheduledExecutorService renewer;

    private EtcdMachineIdLease(EtcdLeaseProtocol protocol, LeaseTimings timings, InstantSource clock, LongSupplier nanos,
            long machineId, long leaseId, long maxMachineId, boolean reclaimAnyId) {
        super(machineId, LeaseGuard.named("under etcd " + protocol.namespace(), timings, clock));
        this.protocol = protocol;
        this.clock = clock;
        this.nanos = nanos;
        this.leaseId = leaseId;
        this.ownId = machineId;
        this.maxMachineId = maxMachineId;
        this.reclaimAnyId = reclaimAnyId;
    }

    /**
     * A builder for leases on {@code client}'s etcd cluster. The lease uses the client and never
     * closes it.
     *
     * @param client the jetcd client
     * @return a new builder
     */
    public static Builder builder(Client client) {
        return new Builder(client);
    }

    /** {@return the owner written in the id key: host, process id and a random suffix by default} */
    public String owner() {
        return protocol.owner();
    }

    /** {@return the id of the etcd lease the machine id's key is bound to} */
    public long etcdLeaseId() {
        return leaseId;
    }

    /**
     * How far the wall clock has stepped since the claim, as last measured on a renewal: the wall
     * clock at the claim carried forward by the elapsed time, minus the wall clock now (negative:
     * the wall clock stepped forward; the sign as the other backends', reference minus local).
     * etcd has no clock of its own to compare with; see the class comment.
     *
     * @return the measured difference
     */
    public Duration clockSkew() {
        return Duration.ofMillis(-stepMillis);
    }

    /**
     * Renews now, off schedule: looks for signs of a restored copy of this process
     * ({@link LeaseGuard#checkIncarnation()}), keeps the etcd lease alive once, rotates the id key's
     * nonce and records the generator's mark. A lease whose id is no longer its own (its etcd lease
     * expired and another holder took the id, or a copy of this process renewed first) claims its
     * own id again if free, else (with {@link Builder#reclaimAnyId(boolean)}) the lowest free id.
     *
     * @return whether the lease is held afterwards
     */
    public boolean renewNow() {
        synchronized (lock) {
            if (guard().isReleased()) {
                return false;
            }
            guard().checkIncarnation();
            try {
                if (leaseId == NO_LEASE) {
                    return recover();
                }
                Countdown countdown = countdown(); // before the keep-alive restarts it
                Ack ack = protocol.keepAlive(leaseId);
                if (ack.ttlSeconds() <= 0) {
                    guard().lost("the etcd lease " + Long.toHexString(leaseId) + " of machine id " + machineId()
                            + " expired on the server");
                    leaseId = NO_LEASE;
                    return recover();
                }
                if (!confirm(ack, countdown)) {
                    return recover();
                }
            } catch (EtcdCallException e) {
                LOG.warn("Keeping machine id {} under etcd {} alive failed (the fence stays where the last"
                        + " acknowledgements put it): {}", machineId(), protocol.namespace(), e.getMessage());
            }
            return guard().isHeld();
        }
    }

    /**
     * Reads etcd's countdown of our lease; a read that fails only skips the check it feeds, so the
     * keep-alive after it still goes out (the fence stays where the acknowledgements put it).
     */
    private Countdown countdown() {
        try {
            return protocol.timeToLive(leaseId);
        } catch (EtcdCallException e) {
            LOG.debug("Reading etcd's countdown of machine id {} under etcd {} failed: {}", machineId(),
                    protocol.namespace(), e.getMessage());
            return null;
        }
    }

    /**
     * Fences the generator, records its high-water mark and revokes the etcd lease, which frees the
     * id at once. An ID whose (tick, sequence) a thread took before the fence shut is in the recorded
     * mark; any later call is refused. A failed release only leaves the id to expire.
     */
    @Override
    public void close() {
        long mark;
        synchronized (lock) {
            if (guard().isReleased()) {
                return;
            }
            mark = guard().release(); // fence first, then read the mark: nothing slips between
        }
        synchronized (this) {
            if (renewer != null) {
                renewer.shutdownNow();
            }
        }
        long id;
        long lease;
        long lastNonce;
        synchronized (lock) { // waits for a renewal under way; none starts after release()
            id = machineId();
            lease = leaseId;
            lastNonce = nonce;
        }
        if (lease == NO_LEASE) {
            LOG.info("Released the lease under etcd {}; it held no id", protocol.namespace());
            return;
        }
        try {
            boolean ours = protocol.release(id, lease, lastNonce, mark, markCap(), guard().timings().fenceOffsetMillis());
            LOG.info("Released machine id {} under etcd {} (high-water mark {}{})", id, protocol.namespace(),
                    LeaseGuard.markText(mark), ours ? "" : "; the key was no longer ours");
        } catch (EtcdCallException e) {
            LOG.warn("Releasing machine id {} under etcd {} failed; it frees itself when the etcd lease expires: {}",
                    machineId(), protocol.namespace(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "etcd lease on machine id " + machineId() + " under " + protocol.namespace() + " by " + protocol.owner()
                + ", etcd lease " + Long.toHexString(leaseId) + ", " + guard().state();
    }

    /**
     * The expiry to give the guard for an acknowledgement sent at local time {@code t} with TTL
     * {@code ttl}: {@code t + ttl - maxClockSkew}. The guard fences {@code maxClockSkew + safetyMargin}
     * before it, at {@code t + ttl - 2 x maxClockSkew - safetyMargin}: in the holder's own time,
     * because the proof is a duration on the server (its leader's elapsed time) started after
     * {@code t}, and the next holder's clock may trail ours by twice the bound.
     */
    private long expiryOf(Ack ack) {
        long skew = guard().timings().maxClockSkew().toMillis();
        return ack.sentAtMillis() + ack.ttlSeconds() * 1000 - skew;
    }

    /**
     * The latest real time it can be now, as far as this lease can bound it: etcd keeps no clock, so
     * the "coordinator time" a mark is capped by is the local clock plus the skew bound (B1 in
     * {@code docs/lease-etcd.md}). A mark is capped one more skew bound above it,
     * {@code local + 2 x maxClockSkew}: under B1 no holder's clock, and so no tick it stamped by now,
     * is beyond {@code real now + maxClockSkew}.
     */
    private long markCap() {
        long skew = guard().timings().maxClockSkew().toMillis();
        long now = clock.millis();
        return now > Long.MAX_VALUE - 2 * skew ? Long.MAX_VALUE : now + 2 * skew;
    }

    /**
     * Where a claim of an id with record {@code row} starts: above the recorded mark, capped by
     * {@link #markCap()} (a mark a day ahead, from a holder whose clock was, heals), and never below
     * {@code E_row - min(own offset, recorded offset) - 1}: the last holder's fence as it could have
     * computed it from its last keep-alive, with the smaller of the two offsets, so a claimer with a
     * larger skew bound (whose clock may trail further) still starts at or above that fence. The
     * floor is not capped: an expiry far ahead comes only from a holder whose clock was that far
     * ahead, and so were its IDs. It is skipped when this lease wrote the record last (its nonce
     * matches): the generator it moves already starts past every tick it took.
     */
    private long startMark(Row row, long id) {
        long cap = markCap();
        long mark = Math.min(row.mark(), cap);
        if (row.mark() > cap) {
            LOG.warn("The recorded high-water mark {} of machine id {} under etcd {} is beyond this clock plus twice"
                    + " the skew bound ({}); starting above {} instead", LeaseGuard.markText(row.mark()), id,
                    protocol.namespace(), LeaseGuard.markText(cap), LeaseGuard.markText(cap));
        }
        long floor = EtcdLeaseProtocol.NONE;
        boolean ownRecord = wroteNonce && row.writerNonce() != EtcdLeaseProtocol.NONE && row.writerNonce() == nonce;
        if (row.expiryMillis() != EtcdLeaseProtocol.NONE && !ownRecord) {
            long own = guard().timings().fenceOffsetMillis();
            long offset = row.offsetMillis() == EtcdLeaseProtocol.NONE ? own : Math.min(own, row.offsetMillis());
            floor = row.expiryMillis() - offset - 1;
        }
        return Math.max(mark, floor);
    }

    /**
     * A fresh claim of {@code id} under {@code grant} with {@code claimNonce} written: move the
     * guard (and the generator) to it, starting above the record's mark, then keep it alive to
     * open the fence; once more when the grant was sent so long ago (a claim that lost races on
     * lower ids, a cold connection) that the fence from it has passed already. Caller holds the
     * lock (or owns the lease alone, in {@link Builder#acquire()}).
     */
    private boolean takeClaim(Ack grant, long id, long claimNonce, Row row) throws EtcdCallException {
        long start = startMark(row, id); // compares the record's writer with the nonce we wrote last
        leaseId = grant.leaseId();
        nonce = claimNonce;
        lastAck = grant;
        anchorNanos = nanos.getAsLong(); // a new claim: its clock is the reference from now on
        anchorWallMillis = clock.millis();
        try {
            guard().claimed(id, expiryOf(grant), start);
        } catch (IllegalArgumentException e) {
            LOG.error("Claimed machine id {} under etcd {}, but the generator cannot use it ({}); giving it back and"
                    + " staying fenced", id, protocol.namespace(), e.getMessage());
            protocol.revokeQuietly(grant.leaseId());
            leaseId = NO_LEASE;
            unusable.add(id);
            return false;
        }
        ownId = id;
        wroteNonce = true; // the claim wrote it
        previousExpiry = EtcdLeaseProtocol.NONE;
        lastExpiry = expiryOf(grant);
        if (!clockAgrees(null)) {
            return false;
        }
        for (int i = 0; i < 2 && !guard().isHeld(); i++) {
            Ack ack = protocol.keepAlive(leaseId);
            if (ack.ttlSeconds() <= 0) {
                guard().lost("the etcd lease expired right after the claim");
                leaseId = NO_LEASE;
                return false;
            }
            if (!confirm(ack, null)) {
                return false;
            }
        }
        return guard().isHeld();
    }

    /**
     * A keep-alive was acknowledged: rotate the nonce and write the record (checking the key is
     * still this copy's), measure the clocks, then move the fence.
     *
     * @param countdown etcd's countdown read just before this keep-alive, or {@code null}
     * @return false when the id is no longer this copy's (the guard is fenced and the etcd lease
     *     forgotten): the caller claims as a new holder
     */
    private boolean confirm(Ack ack, Countdown countdown) throws EtcdCallException {
        long next = NONCES.nextLong();
        long expiry = expiryOf(ack);
        Renewal r = protocol.renew(machineId(), leaseId, nonce, next, guard().markToRecord(), markCap(),
                guard().timings().fenceOffsetMillis(), expiry);
        switch (r.outcome()) {
            case TAKEN -> {
                guard().lost("the key of machine id " + machineId() + " is no longer ours: it holds " + r.detail());
                protocol.revokeQuietly(leaseId); // binds nothing of ours any more
                leaseId = NO_LEASE;
                return false;
            }
            case COPY -> {
                guard().lost("another copy of this process renewed machine id " + machineId() + " first (the key holds "
                        + r.detail() + ", not our nonce " + Long.toHexString(nonce) + ")");
                leaseId = NO_LEASE; // the other copy holds it: neither keep it alive nor revoke it
                return false;
            }
            default -> {
                nonce = next;
            }
        }
        boolean agree = clockAgrees(countdown);
        lastAck = ack; // etcd's countdown restarted with this keep-alive, whatever the clocks said
        if (agree) {
            previousExpiry = lastExpiry;
            lastExpiry = expiry;
            guard().acknowledged(expiry, r.recordedMark());
        }
        return true;
    }

    /**
     * Measures the clocks on a claim and every renewal, where the other backends compare theirs
     * with the coordinator's; etcd has no clock to read, so two consequences of the skew bound are
     * checked instead, each in the direction that could let this holder's IDs reach past what the
     * next holder starts above ({@code docs/lease-etcd.md}, "What the lease measures"):
     *
     * <ol>
     *   <li>etcd's countdown, read just before this keep-alive, has not run ahead of the local
     *       elapsed time since the last acknowledged one by more than the margin
     *       ({@link #countdownExcessMillis});</li>
     *   <li>the wall clock has not stepped forward, since the claim, by more than the skew bound
     *       against the claim's wall clock carried forward by the elapsed time (both read here, back
     *       to back). A step back is recorded ({@link #clockSkew()}) but fences nothing: IDs stamped
     *       by a clock that is behind stay below the fence, and the generator's own mark keeps it
     *       from repeating itself.</li>
     * </ol>
     *
     * Either failing fences the lease ({@link LeaseGuard#lost}); it opens again, on two keep-alives,
     * once both hold again. Caller holds the lock.
     */
    private boolean clockAgrees(Countdown countdown) {
        Ack last = lastAck;
        if (countdown != null && last != null && last.leaseId() == leaseId && countdown.remainingSeconds() >= 0) {
            long excess = countdownExcessMillis(last.ttlSeconds(), countdown.remainingSeconds(), last.sentNanos(),
                    countdown.ackedNanos(), guard().timings().safetyMargin().toMillis());
            if (excess > 0) {
                guard().lost("etcd's countdown of lease " + Long.toHexString(leaseId) + " ran at least " + excess
                        + " ms beyond the local elapsed time and the safetyMargin since the last keep-alive (remaining "
                        + countdown.remainingSeconds() + " s of " + last.ttlSeconds() + " s); the etcd lease may"
                        + " expire before the fence");
                return false;
            }
        }
        long before = nanos.getAsLong();
        long wall = clock.millis();
        long after = nanos.getAsLong();
        long reckoned = anchorWallMillis + Math.floorDiv(before + (after - before) / 2 - anchorNanos, 1_000_000L);
        long stepped = wall - reckoned;
        stepMillis = stepped;
        long max = guard().timings().maxClockSkew().toMillis();
        if (stepped > max) {
            guard().lost("the wall clock stepped " + stepped + " ms forward since the claim (against the elapsed"
                    + " time), beyond the allowed maxClockSkew of " + max + " ms; fenced until it is back within it");
            return false;
        }
        return true;
    }

    /**
     * How far etcd's lease countdown certainly ran ahead of the local elapsed time, beyond the
     * margin. A keep-alive sent at local elapsed time {@code s} was applied by the leader at some
     * later instant {@code p}, which restarted the countdown from {@code granted} seconds; a read of
     * the countdown answered by local time {@code q'} saw {@code remaining} whole seconds, truncated,
     * so the leader had counted more than {@code granted - remaining - 1} seconds since {@code p},
     * while the local clock counted at most {@code q' - s}. The fence assumes the leader counts the
     * TTL in no less than {@code ttl - safetyMargin} of real time ({@code docs/lease-etcd.md}, B2);
     * a positive result shows the leader's count ahead of ours by more than that margin, so one of the
     * two clocks is off and the etcd lease may end before the fence.
     *
     * @return the excess in milliseconds; positive: certainly beyond the margin
     */
    static long countdownExcessMillis(long grantedSeconds, long remainingSeconds, long lastSentNanos,
            long readAckedNanos, long marginMillis) {
        long leaderCountedAbove = (grantedSeconds - remainingSeconds - 1) * 1000;
        long localAtMost = Math.floorDiv(readAckedNanos - lastSentNanos + 999_999, 1_000_000L);
        return leaderCountedAbove - localAtMost - marginMillis;
    }

    /**
     * The id is no longer ours (our etcd lease is gone, or the key holds another holder or another
     * copy's nonce): claim, as a new holder under a new etcd lease, our own id again if it is free,
     * else, with {@link Builder#reclaimAnyId(boolean)}, the lowest free id; each claim starts above
     * that id's record ({@link #startMark}). Nothing free: stay fenced and try again on the next
     * renewal. Caller holds the lock.
     *
     * @return whether the lease is held afterwards
     */
    private boolean recover() throws EtcdCallException {
        Ack grant = protocol.grant();
        long claimNonce = NONCES.nextLong();
        long id = ownId;
        Row row = protocol.claim(id, grant.leaseId(), claimNonce);
        if (row == null && reclaimAnyId) {
            Set<Long> held = protocol.heldIds();
            for (long i = 0; i <= maxMachineId && row == null; i++) {
                if (i != ownId && !held.contains(i) && !unusable.contains(i)) {
                    row = protocol.claim(i, grant.leaseId(), claimNonce);
                    id = i;
                }
            }
        }
        if (row == null) {
            protocol.revokeQuietly(grant.leaseId());
            LOG.debug("No machine id free to claim again under etcd {} ({}); staying fenced", protocol.namespace(),
                    reclaimAnyId ? "0.." + maxMachineId : "only " + ownId);
            return false;
        }
        LOG.info("Claimed machine id {} under etcd {} as a new holder (it held {}; etcd lease {}, record {})", id,
                protocol.namespace(), ownId, Long.toHexString(grant.leaseId()), row.encode());
        return takeClaim(grant, id, claimNonce, row);
    }

    /**
     * Tells the lease this process was restored or copied: the fence shuts, and the lease renews
     * twice at once on its own executor (not the caller's thread), so the copy that still holds
     * the id (its nonce rotation succeeds) opens again quickly and the other claims another id.
     */
    @Override
    public void afterRestore() {
        super.afterRestore();
        if (guard().isReleased()) {
            return;
        }
        try {
            executor().execute(() -> {
                renewQuietly();
                renewQuietly();
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("The lease under etcd {} was closed meanwhile; no renewal after the restore", protocol.namespace());
        }
    }

    /** Tests: replaces what {@link LeaseGuard#checkIncarnation()} asks. */
    void watchIncarnation(IncarnationWatch watch) {
        guard().watchIncarnation(watch);
    }

    /** Tests and tools: reads the id's record ({@code <namespace>/mark/<id>}). */
    Row record(long id) throws EtcdCallException {
        return protocol.row(id);
    }

    /**
     * Tests: a copy of this lease as a restored snapshot of this process would hold it: the same
     * owner, etcd lease, nonce, expiries (so the same fence) and mark (the generator's high-water
     * mark now), renewing by hand. Attach a generator of its own to it.
     */
    EtcdMachineIdLease copyOfImage() {
        synchronized (lock) {
            if (previousExpiry == EtcdLeaseProtocol.NONE) {
                throw new IllegalStateException("copy a lease only while it is held: " + this);
            }
            EtcdMachineIdLease c = new EtcdMachineIdLease(protocol, guard().timings(), clock, nanos, machineId(),
                    leaseId, maxMachineId, reclaimAnyId);
            c.nonce = nonce;
            c.wroteNonce = wroteNonce;
            c.ownId = ownId;
            c.lastAck = lastAck;
            c.anchorWallMillis = anchorWallMillis;
            c.anchorNanos = anchorNanos;
            c.previousExpiry = previousExpiry;
            c.lastExpiry = lastExpiry;
            long mark = guard().markToRecord();
            c.guard().claimed(machineId(), previousExpiry, mark);
            c.guard().acknowledged(lastExpiry, mark);
            return c;
        }
    }

    /** The lease's own executor: the background renewals, and the renewals after a restore. */
    private synchronized ScheduledExecutorService executor() {
        if (renewer == null) {
            String name = "idgen-etcd-" + machineId() + "-renew"; // the id at the start
            renewer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        return renewer;
    }

    private void startBackground(Duration renewEvery) {
        long every = renewEvery.toNanos();
        executor().scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.NANOSECONDS);
    }

    private void renewQuietly() {
        try {
            renewNow();
        } catch (RuntimeException e) {
            LOG.warn("Renewal of machine id {} under etcd {} failed", machineId(), protocol.namespace(), e);
        }
    }

    /**
     * Configures and acquires an {@link EtcdMachineIdLease}. Holds configuration only. Not
     * thread-safe.
     */
    public static final class Builder {
        private final Client client;
        private String namespace = "/idgen/machine-ids";
        /** How many times one claim may take a new grant after its grant expired mid-claim. */
        private static final int MAX_REGRANTS = 3;

        private final LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(30), 1023);
        /** The one id to claim, or -1: claim the lowest free id. */
        private long exactId = -1;
        private LongConsumer afterGrant = leaseId -> { };
        private LongSupplier nanos = System::nanoTime;

        private Builder(Client client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param namespace the key prefix of this id space, without a trailing {@code /}; default
         *     {@code /idgen/machine-ids}. Generators that must not share ids share a namespace.
         * @return this builder
         */
        public Builder namespace(String namespace) {
            Objects.requireNonNull(namespace, "namespace");
            if (namespace.isEmpty() || namespace.endsWith("/") || namespace.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new IllegalArgumentException("namespace \"" + namespace.replaceAll("\\p{Cntrl}", "?")
                        + "\" must be printable ASCII without spaces, not empty, and not end with /");
            }
            this.namespace = namespace;
            return this;
        }

        /**
         * @param maxMachineId the largest id to claim, e.g. {@code layout.maxMachineId()}; default 1023
         * @return this builder
         */
        public Builder maxMachineId(long maxMachineId) {
            settings.maxMachineId(maxMachineId);
            return this;
        }

        /**
         * @param ttl the etcd lease TTL, whole seconds (etcd grants seconds); default 30 s. The server
         *     may grant more (its minimum is 1.5 election timeouts, rounded up), never less; the fence
         *     uses what it reports. See {@link LeaseTimings} for what it must exceed.
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.toMillis() % 1000 != 0 || ttl.toNanos() % 1_000_000 != 0 || ttl.toSeconds() < 1) {
                throw new IllegalArgumentException("etcd lease ttl " + ttl.toMillis()
                        + " ms must be a whole number of seconds, at least 1 s (etcd grants leases in seconds)");
            }
            settings.ttl(ttl);
            return this;
        }

        /**
         * @param renewEvery the pause between keep-alives; default a fifth of the TTL
         * @return this builder
         */
        public Builder renewEvery(Duration renewEvery) {
            settings.renewEvery(renewEvery);
            return this;
        }

        /**
         * @param margin how far before {@code sent + ttl - 2 x maxClockSkew} the fence stands, for the
         *     rate difference between the etcd leader's elapsed time and the local clock over one TTL;
         *     default a tenth of the TTL
         * @return this builder
         */
        public Builder safetyMargin(Duration margin) {
            settings.safetyMargin(margin);
            return this;
        }

        /**
         * @param max the largest difference between any holder's clock and true time; default
         *     {@link LeaseTimings#DEFAULT_MAX_CLOCK_SKEW} (1 s). etcd has no clock to measure it
         *     against at the claim (keep the holders on NTP); while held, a forward step of the wall
         *     clock beyond it fences the lease (see the class comment). Every holder of one namespace should
         *     use the same bound and margin.
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            settings.maxClockSkew(max);
            return this;
        }

        /**
         * @param clock the local wall clock that times the keep-alives: the generator's clock; default
         *     the system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            settings.clock(clock);
            return this;
        }

        /**
         * @param owner the holder's name written in the id key; default host, process id and a random
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
         * @param anyId whether a lease whose id was taken (its etcd lease expired and another holder
         *     claimed the id, or a copy of this process renewed first) claims the lowest free id when
         *     its own is not free; default {@code true}. {@code false}: it waits, fenced, for its own
         *     id.
         * @return this builder
         */
        public Builder reclaimAnyId(boolean anyId) {
            settings.reclaimAnyId(anyId);
            return this;
        }

        /**
         * Whether the lease keeps itself alive on a thread of its own. Without it the caller renews
         * ({@link EtcdMachineIdLease#renewNow()}); for tests. The fence never needs a thread.
         *
         * @param background default {@code true}
         * @return this builder
         */
        Builder background(boolean background) {
            settings.background(background);
            return this;
        }

        /**
         * Tests: the local elapsed-time clock, in nanoseconds; default {@link System#nanoTime()}. A
         * test that moves the wall clock by hand moves this one with it.
         */
        Builder elapsedClock(LongSupplier nanos) {
            this.nanos = Objects.requireNonNull(nanos, "nanos");
            return this;
        }

        /** Tests: runs with the id of every etcd lease a claim is granted, before it claims under it. */
        Builder afterGrant(LongConsumer afterGrant) {
            this.afterGrant = Objects.requireNonNull(afterGrant, "afterGrant");
            return this;
        }

        /**
         * Claims the lowest free machine id, keeps it alive once (a claim's own grant opens no
         * fence) and returns the lease, renewing in the background.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is held, or etcd is unreachable or too slow for
         *     the timings
         * @throws IllegalArgumentException naming the numbers, if the timings do not fit
         *     ({@link LeaseTimings})
         */
        public EtcdMachineIdLease acquire() {
            LeaseTimings timings = settings.timings();
            long maxMachineId = settings.maxMachineId();
            if (exactId > maxMachineId) {
                throw new IllegalArgumentException("machineId = " + exactId + " is above maxMachineId = " + maxMachineId
                        + "; allowed: 0.." + maxMachineId + " (raise maxMachineId up to the layout's maxMachineId()"
                        + " for a wider id)");
            }
            EtcdLeaseProtocol protocol = new EtcdLeaseProtocol(client, namespace, settings.ownerOrDefault(),
                    timings.ttl().toSeconds(), callTimeoutMillis(timings),
                    Math.max(callTimeoutMillis(timings), timings.ttl().toMillis()), settings.clock(), nanos);
            Ack grant;
            long id = -1;
            Row mark = null;
            long claimNonce = NONCES.nextLong();
            try {
                grant = protocol.grant();
                afterGrant.accept(grant.leaseId());
                if (exactId >= 0) {
                    id = exactId;
                    mark = claimExact(protocol, grant.leaseId(), claimNonce);
                }
                Set<Long> held = exactId >= 0 ? Set.of() : protocol.heldIds();
                int regrants = 0;
                for (long i = 0; exactId < 0 && i <= maxMachineId && mark == null; i++) {
                    if (held.contains(i)) {
                        continue;
                    }
                    try {
                        mark = protocol.claim(i, grant.leaseId(), claimNonce); // null: another claimer was faster
                        id = i;
                    } catch (EtcdCallException e) {
                        // Our grant ran out while we lost races on lower ids (a large fleet claiming at
                        // once): nothing was written under it, so take a new grant and try this id again.
                        if (!EtcdLeaseProtocol.leaseNotFound(e) || ++regrants > MAX_REGRANTS) {
                            throw e;
                        }
                        LOG.debug("etcd lease {} expired before a claim under {} won an id; granting a new one",
                                Long.toHexString(grant.leaseId()), namespace);
                        grant = protocol.grant();
                        afterGrant.accept(grant.leaseId());
                        i--;
                    }
                }
                if (mark == null) {
                    protocol.revokeQuietly(grant.leaseId());
                    throw new MachineIdLeaseException("Every machine id 0.." + maxMachineId + " under etcd "
                            + namespace + " is held by a live lease; raise maxMachineId (up to the layout's"
                            + " maxMachineId()) or use a layout with more machine-id bits");
                }
            } catch (EtcdCallException e) {
                throw new MachineIdLeaseException("Could not claim a machine id under etcd " + namespace + ": "
                        + e.getMessage(), e);
            }
            EtcdMachineIdLease lease = new EtcdMachineIdLease(protocol, timings, settings.clock(), nanos, id,
                    grant.leaseId(), maxMachineId, exactId < 0 && settings.reclaimAnyId()); // an exact id never moves
            boolean held;
            try {
                synchronized (lease.lock) {
                    held = lease.takeClaim(grant, id, claimNonce, mark);
                }
            } catch (EtcdCallException e) {
                lease.close();
                throw new MachineIdLeaseException("Claimed machine id " + id + " under etcd " + namespace
                        + " but could not confirm it: " + e.getMessage(), e);
            }
            if (!held) {
                String why = lease.guard().state();
                lease.close();
                throw new MachineIdLeaseException("Could not hold machine id " + id + " under etcd " + namespace
                        + ": " + why + "; etcd answered too slowly for the timings (headroom "
                        + timings.headroom().toMillis() + " ms)");
            }
            LOG.info("Claimed machine id {} under etcd {} (etcd lease {}, ttl {} s, high-water mark {}, fence {})", id,
                    namespace, Long.toHexString(grant.leaseId()), grant.ttlSeconds(), LeaseGuard.markText(lease.highWaterMark()),
                    lease.fence());
            if (settings.background()) {
                lease.startBackground(timings.renewEvery());
            }
            return lease;
        }

        /**
         * Claims exactly {@code exactId} under {@code leaseId}; a live holder fails the claim by name
         * (revoking our grant). A key that went between the claim and the read is tried again, at
         * most three times.
         */
        private Row claimExact(EtcdLeaseProtocol protocol, long leaseId, long nonce) throws EtcdCallException {
            for (int attempt = 0; attempt < 3; attempt++) {
                Row row = protocol.claim(exactId, leaseId, nonce);
                if (row != null) {
                    return row;
                }
                EtcdLeaseProtocol.Holder h = protocol.holder(exactId);
                if (h != null && h.ttlSeconds() >= 0) {
                    protocol.revokeQuietly(leaseId);
                    throw new MachineIdLeaseException("Machine id " + exactId + " under etcd " + namespace
                            + " is held by a live lease of owner '" + h.owner() + "' (etcd lease "
                            + Long.toHexString(h.leaseId()) + ") until about "
                            + settings.clock().instant().plusSeconds(h.ttlSeconds()).truncatedTo(
                                    java.time.temporal.ChronoUnit.SECONDS) + " (" + h.ttlSeconds()
                            + " s of its TTL left): another process runs with this id. Give this process an id of its"
                            + " own, or stop that one; if it has stopped already, the id is free once its claim has"
                            + " expired");
                }
            }
            protocol.revokeQuietly(leaseId);
            throw new MachineIdLeaseException("Lost the race for machine id " + exactId + " under etcd " + namespace
                    + " 3 times over; several processes are starting with this id");
        }

        /** The call timeout, at least 100 ms. */
        private static long callTimeoutMillis(LeaseTimings t) {
            return Math.max(100, t.callTimeout().toMillis());
        }
    }
}
