package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.IncarnationWatch;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseSettings;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.api.CuratorListener;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A machine id leased from ZooKeeper through Apache Curator, for one generator.
 *
 * <pre>{@code
 * ZkMachineIdLease lease = ZkMachineIdLease.builder(curator)
 *         .path("/idgen/orders").maxMachineId(SnowflakeLayout.TWITTER.maxMachineId())
 *         .serverTickTime(Duration.ofSeconds(2))   // the ensemble's tickTime
 *         .acquire();
 * SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
 * ...
 * lease.close(); // records the high-water mark and deletes the node
 * }</pre>
 *
 * <p><b>Claiming.</b> The lease is the ephemeral node {@code <path>/leases/<id>} holding the owner's
 * name and start time. {@link Builder#acquire()} creates it for the lowest id without one; ZooKeeper
 * lets only one create succeed, so two clients never hold one id. The node goes away with its
 * session, so the ids of crashed or stopped processes are reused and restarts never use up the range.
 *
 * <p><b>Fencing by time.</b> Every {@link Builder#renewEvery(Duration)} the lease writes its node
 * (a <em>contact</em>). ZooKeeper orders a write only while the session lives, and expires a session
 * only once its leader has heard nothing from it for the whole session timeout; so an acknowledged
 * contact proves that the node cannot be gone before {@code mtime - roundTrip + sessionTimeout}
 * (ZooKeeper's clock), its <em>expiry</em>. The shared {@link LeaseGuard} turns expiries into the
 * generator's fence, {@code expiry - maxClockSkew - margin}, from the older of the last two; the
 * generator refuses, after taking its (tick, sequence) pair, every ID whose own time reaches it. No
 * thread has to run for this to hold: a process stopped for longer than the session resumes with a
 * clock past the fence and is refused, and a forward clock step or a run-ahead generator is refused
 * by the time its IDs carry. Because a follower tells the leader of a contact only at the leader's
 * next ping (half a server tick later), a contact counts only when the next one was sent at least
 * {@code serverTickTime / 2 + safetyMargin} after it was acknowledged. The argument, as inequalities, is
 * in {@code docs/lease-safety-zookeeper.md}.
 *
 * <p>Besides, the lease shuts the fence at once on Curator's {@code SUSPENDED}, {@code LOST} or
 * {@code READ_ONLY}, when its node is deleted or taken, when the clocks differ by more than
 * {@link Builder#maxClockSkew(Duration)}, and when the Curator client is closed under it. After
 * {@code RECONNECTED} it checks its node (still ours: contacts resume; gone: created again; another
 * holder's: fenced, retrying) and the fence opens again on the next two contacts.
 *
 * <p><b>Claiming again.</b> When a contact finds its id taken (its session expired and another
 * holder created the node) the lease claims as a new holder: its own id if free, else the lowest
 * free one ({@link Builder#reclaimAnyId(boolean)}: off, only its own, retried), starting above that
 * id's record, and the generator carries on under the new id without a rebuild. Each contact
 * writes a fresh random nonce with the versioned write: two copies of one process image (a
 * restored snapshot) share session and version, so only one copy's contact goes through, and the
 * other, finding a nonce it never wrote, claims another id. A new process id or a clock jump seen
 * before a contact, or {@link #afterRestore()}, shuts the fence until two contacts prove the claim.
 *
 * <p><b>High-water mark.</b> The persistent node {@code <path>/marks/<id>} keeps the last Unix
 * millisecond any holder of the id covered with an ID, raised (never lowered, by versioned writes)
 * from the generator's {@link MachineIdUser#highWaterMark()} every {@link Builder#markEvery(Duration)}
 * and on {@link #close()}. A new holder starts above it, and above its own claim's {@code mtime}
 * minus the skew bound, where every earlier holder's fence lay: so no holder's clock enters the
 * hand-over, the skew bound only keeps both sides working.
 *
 * <p><b>Clock skew.</b> Every write returns the server's modification time ({@code mtime}); its
 * difference from the local clock is {@link #clockSkew()}. Beyond
 * {@link Builder#maxClockSkew(Duration)} a claim fails and a held lease is fenced until the clocks
 * agree again.
 *
 * <p>{@link #timings()} gives the TTL (the negotiated session timeout unless a shorter one is given),
 * the contact interval as the renewal interval, the margin and the skew bound. The builder takes
 * the shared {@link LeaseSettings} names, like the JDBC, Redis and etcd leases; the conversation
 * with ZooKeeper is {@code ZkLeaseProtocol}'s.
 */
public final class ZkMachineIdLease extends GuardedLease {

    private static final Logger LOG = LoggerFactory.getLogger(ZkMachineIdLease.class);
    private static final long NONE = Long.MIN_VALUE;

    private final ZkLeaseProtocol protocol;
    private final long retryMillis;
    private final long markEveryNanos;
    private final long lagNanos;
    private final boolean reclaimAnyId;
    private final long maxMachineId;
    private final InstantSource clock;
    private final ConnectionStateListener listener = this::stateChanged;
    private final CuratorListener closing = (c, event) -> {
        if (event.getType() == CuratorEventType.CLOSING) {
            close(); // the session ends with the client: fence and record the mark before it does
        }
    };
    private final ScheduledExecutorService worker;
    private final Object lock = new Object();
    /** Counts connection-state events; a decision to reconnect made under an older count is void. */
    private final AtomicLong epoch = new AtomicLong();

    private volatile boolean connected = true;
    private volatile boolean nodeOurs = true;
    private volatile long sessionId;
    /** The lease node's version after our last write: a contact writes only that version. */
    private volatile int nodeVersion;
    /** The nonce our last acknowledged write left in the lease node. */
    private volatile long nonce;
    /**
     * Nonces of writes whose answer never came (they may have been applied): a node holding one was
     * written by this copy. Cleared by every acknowledged write. Guarded by {@code lock}.
     */
    private final Deque<Long> unanswered = new ArrayDeque<>();
    private volatile long startedMillis;
    private volatile boolean closed;
    /** When the last contact given to the guard was acknowledged (System.nanoTime); NONE after a loss. */
    private volatile long reportedAckNanos = NONE;
    /** The last two expiries handed to the guard for this claim (NONE: none), for copies of the image. */
    private long lastExpiry = NONE;
    private long previousExpiry = NONE;
    private long lastMarkNanos;

    private ZkMachineIdLease(ZkLeaseProtocol protocol, LeaseTimings timings, InstantSource clock, long firstId,
            long lagMillis, long retryMillis, long markEveryNanos, boolean reclaimAnyId, long maxMachineId) {
        super(firstId, LeaseGuard.named("under " + protocol.root(), timings, clock));
        this.protocol = protocol;
        this.retryMillis = retryMillis;
        this.markEveryNanos = markEveryNanos;
        this.lagNanos = TimeUnit.MILLISECONDS.toNanos(lagMillis);
        this.reclaimAnyId = reclaimAnyId;
        this.maxMachineId = maxMachineId;
        this.clock = clock;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idgen-lease-zk-" + protocol.root());
            t.setDaemon(true);
            return t;
        });
        this.lastMarkNanos = System.nanoTime();
    }

    /**
     * A builder for leases under {@code client}, which must be started and connected. The client's
     * negotiated session timeout sets how fast the lease fences: keep it a few seconds, and see
     * {@link Builder#acquire()} for the inequalities it must meet.
     *
     * @param client a started Curator client
     * @return a new builder
     */
    public static Builder builder(CuratorFramework client) {
        return new Builder(client);
    }

    /**
     * The server's clock minus the local clock, from the last write (positive: the server is ahead).
     *
     * @return the skew
     */
    public Duration clockSkew() {
        return Duration.ofMillis(guard().skewMillis());
    }

    /**
     * {@return whether this lease, once another holder took its id, claims any free id
     * ({@link Builder#reclaimAnyId(boolean)}) rather than waiting for its own; false for an exact
     * id ({@link Builder#machineId(long)})}
     */
    public boolean reclaimsAnyId() {
        return reclaimAnyId;
    }

    /** @return the owner string stored in the lease node */
    public String owner() {
        return protocol.owner();
    }

    /**
     * Renews now, off schedule: writes the lease node (a contact: may move the fence, re-checks the
     * clock skew) and records the generator's high-water mark. The lease does both on its own,
     * every {@link Builder#renewEvery(Duration)} and {@link Builder#markEvery(Duration)}, unless
     * built with background renewal off. A fenced lease whose id was taken claims again here (see
     * {@link Builder#reclaimAnyId(boolean)}) and waits {@code serverTickTime / 2 + safetyMargin}
     * on this thread for the contact that opens the new claim.
     *
     * @return whether the lease is held afterwards
     */
    public boolean renewNow() {
        synchronized (lock) {
            if (!closed && (!nodeOurs || !connected)) {
                // fenced: claim again here (own id if free, else another unless turned off), then
                // confirm once a follower has surely told the leader of the claim
                if (!recover()) {
                    return false;
                }
                pause(lagNanos);
            }
            if (contact()) {
                recordMark();
            }
            return guard().isHeld();
        }
    }

    /**
     * One contact: a write of the lease node, at the version we left it, by the session that owns
     * it. When acknowledged it measures the skew and hands the guard the expiry it proves, if it
     * was sent long enough after the last contact handed over for a follower to have told the
     * leader of that one. A contact that fails leaves the fence where it was: a time, valid
     * whatever happens next.
     *
     * @return whether the write was acknowledged on our node by our session
     */
    boolean contact() {
        synchronized (lock) {
            if (closed || !connected || !nodeOurs) {
                return false;
            }
            if (!guard().checkIncarnation()) {
                reportedAckNanos = NONE; // fenced as a possible copy: two contacts from now on open it
            }
            long id = machineId();
            long next = ZkLeaseProtocol.newNonce();
            try {
                ZkLeaseProtocol.Contact c = protocol.contact(id, protocol.leaseData(startedMillis, next), nodeVersion);
                long timeout = Math.min(c.sessionTimeoutMillis(), guard().timings().ttl().toMillis());
                nodeVersion = c.stat().getVersion();
                nonce = next;
                unanswered.clear();
                if (!c.ours(sessionId)) {
                    lose("the lease node " + leasePath() + " belongs to session 0x"
                            + Long.toHexString(c.stat().getEphemeralOwner()) + ", not to ours");
                    return false;
                }
                if (guard().acceptSkew(c.stat().getMtime(), c.before(), c.after())) {
                    report(c.sentNanos(), c.ackedNanos(),
                            ZkLeaseProtocol.expiry(c.stat().getMtime(), c.sentNanos(), c.ackedNanos(), timeout));
                } else {
                    reportedAckNanos = NONE; // the guard forgot this claim's expiries
                }
                return true;
            } catch (KeeperException.NoNodeException e) {
                lose("the lease node " + leasePath() + " was deleted");
                return false;
            } catch (KeeperException.BadVersionException e) {
                return written(id);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (unanswered.size() == 4) {
                    unanswered.removeFirst();
                }
                unanswered.addLast(next); // it may have been applied: a node holding it is ours
                LOG.debug("Contact for machine id {} under {} failed: {}", id, protocol.root(), e.toString());
                return false;
            }
        }
    }

    /**
     * A contact found the node at another version than ours left: someone wrote it since. Ours if
     * it holds a nonce of one of our writes whose answer was lost (then we take its version and
     * contact again); else another writer's: another session's node, or, with our session and
     * another nonce, another copy of this process image that renewed first. Caller holds the lock.
     */
    private boolean written(long id) {
        try {
            Stat stat = new Stat();
            byte[] data = protocol.readLease(id, stat);
            if (data == null) {
                lose("the lease node " + leasePath() + " was deleted");
                return false;
            }
            if (stat.getEphemeralOwner() != sessionId) {
                lose("the lease node " + leasePath() + " belongs to session 0x"
                        + Long.toHexString(stat.getEphemeralOwner()) + ", not to ours");
                return false;
            }
            Long found = ZkLeaseProtocol.nonceOf(data);
            if (found != null && unanswered.contains(found)) {
                nodeVersion = stat.getVersion();
                nonce = found;
                unanswered.clear();
                return contact();
            }
            lose("another copy of this process image renewed " + leasePath() + " first (the node holds nonce "
                    + (found == null ? "none" : Long.toHexString(found)) + ", not the one this copy wrote last);"
                    + " claiming as a new holder");
            return false;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debug("Reading machine id {} under {} after a lost write failed: {}", id, protocol.root(),
                    e.toString());
            return false;
        }
    }

    /**
     * Hands an acknowledged contact to the guard: the first after a loss as a fresh start (the
     * guard forgets older expiries), a later one only if sent long enough after the last one handed
     * over to prove the leader had applied that one's touch; the guard pairs them.
     */
    private void report(long sentNanos, long ackedNanos, long expiresMillis) {
        long last = reportedAckNanos;
        if (last != NONE && sentNanos - last < lagNanos) {
            return; // too soon: proves the node ours, but the guard would pair it with an unconfirmed one
        }
        // after a loss the guard holds no expiry of this claim, so the first one opens nothing
        guard().acknowledged(expiresMillis, NO_MARK);
        previousExpiry = last == NONE ? NONE : lastExpiry;
        lastExpiry = expiresMillis;
        reportedAckNanos = ackedNanos;
    }

    private void lose(String why) {
        nodeOurs = false;
        guard().lost(why);
        reportedAckNanos = NONE;
        try {
            worker.execute(this::revalidate);
        } catch (RejectedExecutionException closing) {
            // close() shut the worker down meanwhile: nothing to claim again
        }
    }

    private void recordMark() {
        try {
            writeMark(guard().markToRecord(), false);
            lastMarkNanos = System.nanoTime();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Recording the high-water mark of machine id {} under {} failed: {}", machineId(), protocol.root(),
                    e.toString());
        }
    }

    /** Raises the mark node to at least {@code mark}; the write checks the skew too. */
    private void writeMark(long mark, boolean claim) throws Exception {
        ZkLeaseProtocol.MarkWrite w = protocol.writeMark(machineId(), mark, claim);
        if (!closed && !guard().acceptSkew(w.mtime(), w.before(), w.after())) {
            reportedAckNanos = NONE;
        }
    }

    /**
     * Fences the generator, records its high-water mark and deletes the lease node so the id is
     * free at once. Every ID the generator returns is at or below the mark recorded here: the fence
     * shuts before the mark is read, and the generator checks the fence after taking its ID.
     */
    @Override
    public void close() {
        long mark;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            mark = guard().release();
        }
        CuratorFramework client = protocol.client();
        client.getConnectionStateListenable().removeListener(listener);
        client.getCuratorListenable().removeListener(closing);
        worker.shutdownNow();
        try {
            if (nodeOurs && connected) {
                // the node goes only once the mark is recorded: else it waits for the session to end,
                // which the fence already covers
                writeMark(mark, false);
                protocol.release(machineId(), sessionId);
                LOG.info("Released machine id {} under {} (high-water mark {})", machineId(), protocol.root(),
                        LeaseGuard.markText(mark));
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Releasing machine id {} under {} failed; it frees itself when the session ends: {}",
                    machineId(), protocol.root(), e.toString());
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper lease on machine id " + machineId() + " at " + leasePath() + " by " + protocol.owner() + ", "
                + guard().state();
    }

    private String leasePath() {
        return protocol.leasePath(machineId());
    }

    private void stateChanged(CuratorFramework c, ConnectionState s) {
        epoch.incrementAndGet();
        switch (s) {
            case CONNECTED, RECONNECTED -> worker.execute(this::revalidate);
            default -> {
                // SUSPENDED, LOST, READ_ONLY: shut the fence now, on Curator's event thread (time would
                // shut it anyway), and start over from fresh contacts once reconnected
                connected = false;
                guard().lost("ZooKeeper connection " + s);
                reportedAckNanos = NONE;
            }
        }
    }

    /** After a reconnection or a loss, on the worker: recover, then confirm once the lag has passed. */
    private void revalidate() {
        synchronized (lock) {
            if (recover()) {
                // one more once a follower has surely told the leader of the last: that opens the fence
                worker.schedule(this::contact, lagNanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    /**
     * Is the node still ours (our session, and our nonce: a copy of this image shares the session)?
     * If so, contact. If it is gone, create it again; if another holder has it, claim another id
     * (lowest free) unless {@link Builder#reclaimAnyId(boolean)} is off, then retry the same id.
     * Caller holds the lock.
     *
     * @return whether the lease holds a node of its own afterwards and contacted it; if not, a
     *     retry is scheduled where one makes sense
     */
    private boolean recover() {
        long seen = epoch.get();
        if (closed || !protocol.client().getZookeeperClient().isConnected()) {
            return false;
        }
        try {
            long session = protocol.sessionId();
            Stat stat = new Stat();
            byte[] data = protocol.readLease(machineId(), stat);
            Long found = data == null ? null : ZkLeaseProtocol.nonceOf(data);
            boolean ours = data != null && stat.getEphemeralOwner() == session && found != null
                    && (found == nonce || unanswered.contains(found));
            if (ours) {
                sessionId = session;
                nodeVersion = stat.getVersion();
                nonce = found;
                unanswered.clear();
                if (!guard().isHeld()) {
                    reportedAckNanos = NONE; // start over: the next contact is a first one
                }
            } else if (!claimAgain(data == null, data == null ? "another session"
                    : stat.getEphemeralOwner() == session ? "another copy of this process image (our session 0x"
                    + Long.toHexString(session) + ", another nonce)" : "another session (0x"
                    + Long.toHexString(stat.getEphemeralOwner()) + ")")) {
                return false;
            }
            watchNode();
            if (epoch.get() != seen) {
                return false; // the connection changed meanwhile; the next event decides
            }
            nodeOurs = true;
            connected = true;
            contact();
            return true;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Checking machine id {} under {} after a loss or reconnection failed: {}", machineId(),
                    protocol.root(), e.toString());
            retryLater();
            return false;
        }
    }

    /**
     * Claims as a new holder: our own id if it may be free, else (unless turned off) the lowest free
     * one, always above the claimed id's record ({@link #takeClaim}). Caller holds the lock.
     *
     * @param ownMayBeFree whether our id's node was gone when last read
     * @param holder who holds our id, for the message when it is held
     * @return whether an id is ours again; if not, a retry is scheduled
     */
    private boolean claimAgain(boolean ownMayBeFree, String holder) throws Exception {
        long own = machineId();
        ZkLeaseProtocol.Claim claim = null;
        if (ownMayBeFree) {
            try {
                claim = protocol.create(own);
            } catch (KeeperException.NodeExistsException e) {
                // taken meanwhile
            }
        }
        if (claim == null) {
            nodeOurs = false;
            if (!reclaimAnyId) {
                guard().lost("machine id " + own + " is held by " + holder
                        + "; retrying that id only (reclaimAnyId is off)");
                retryLater();
                return false;
            }
            guard().lost("machine id " + own + " is held by " + holder + "; claiming another");
            try {
                claim = protocol.claimLowestFree(maxMachineId, id -> { });
            } catch (MachineIdLeaseException e) {
                guard().lost("machine id " + own + " is held by " + holder + ", and no other is free; retrying");
                LOG.warn("Machine id {} under {} is held by {} and no other is free: {}", own, protocol.root(),
                        holder, e.getMessage());
                retryLater();
                return false;
            }
        }
        String refused = takeClaim(claim);
        if (refused != null) {
            // the guard stays fenced; give the id back rather than hold it unusable
            LOG.error("Claimed machine id {} under {} but cannot use it ({}); gave it back, the lease stays fenced"
                    + " (it held machine id {} before)", claim.id(), protocol.root(), refused, own);
            protocol.deleteGuaranteed(claim.id());
            retryLater();
            return false;
        }
        return true;
    }

    private void retryLater() {
        if (!closed && !worker.isShutdown()) {
            worker.schedule(this::revalidate, retryMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void watchNode() throws Exception {
        long id = machineId();
        CuratorWatcher watcher = (WatchedEvent event) -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted && !closed) {
                synchronized (lock) {
                    if (machineId() == id && nodeOurs) { // a watch on an id held before is void
                        lose("the lease node " + protocol.leasePath(id) + " was deleted");
                    }
                }
            }
        };
        protocol.watch(id, watcher);
    }

    /**
     * Takes a claim (the first, or one made again after a fence): checks its skew, records this
     * holder's fence offset, skew bound and the start with the id (before the fence can open, so a
     * later holder reads them), then hands the guard the claim's expiry and its start: above where
     * every earlier holder's fence lay and above the recorded mark ({@link ZkLeaseProtocol#claimMark}).
     * The guard moves the generator to the id. Caller holds the lock (or the lease is not shared yet).
     *
     * @return {@code null} if taken, else why not (the guard is fenced; the caller gives the id back)
     */
    private String takeClaim(ZkLeaseProtocol.Claim claim) throws Exception {
        ZkLeaseProtocol.MarkRecord recorded = protocol.readMark(claim.id()); // creates the node, so a close can record
        sessionId = claim.session(); // the node is this session's whatever follows: a close deletes it
        if (!guard().acceptSkew(claim.mtime(), claim.before(), claim.after())) {
            return "the local clock is " + claim.skew() + " ms from ZooKeeper's (node "
                    + protocol.leasePath(claim.id()) + "), beyond the allowed "
                    + guard().timings().maxClockSkew().toMillis() + " ms";
        }
        LeaseTimings timings = guard().timings();
        long mark = ZkLeaseProtocol.claimMark(claim.mtime(), timings.maxClockSkew().toMillis(), recorded);
        protocol.writeMark(claim.id(), mark, true);
        long expiry = ZkLeaseProtocol.expiry(claim.mtime(), claim.sentNanos(), claim.ackedNanos(),
                timings.ttl().toMillis());
        try {
            // the claim is the first contact: it opens nothing, the next does
            guard().claimed(claim.id(), expiry, mark);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        nodeVersion = claim.version();
        nonce = claim.nonce();
        startedMillis = claim.startedMillis();
        unanswered.clear();
        reportedAckNanos = claim.ackedNanos();
        previousExpiry = NONE;
        lastExpiry = expiry;
        nodeOurs = true;
        return null;
    }

    /**
     * Starts watching and, in the background unless turned off, contacting; returns once the second
     * contact has opened the fence.
     */
    private void start(long renewEveryMillis, boolean background) throws Exception {
        CuratorFramework client = protocol.client();
        client.getConnectionStateListenable().addListener(listener);
        client.getCuratorListenable().addListener(closing);
        if (!client.getZookeeperClient().isConnected()) {
            // the connection dropped before the listener was in place: fence, wait for RECONNECTED
            connected = false;
            guard().lost("ZooKeeper connection lost while claiming");
            reportedAckNanos = NONE;
        }
        watchNode();
        // wait until a follower has surely told the leader of the claim, then contact again
        pause(lagNanos);
        contact();
        if (background) {
            worker.scheduleWithFixedDelay(this::tick, renewEveryMillis, renewEveryMillis, TimeUnit.MILLISECONDS);
        }
    }

    private static void pause(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Shuts the fence at once (this process may be one of several copies of one image), then, on
     * the lease's worker, contacts ZooKeeper at once and again once a follower has surely told the
     * leader of the first: each contact rotates the node's nonce by compare-and-set, so a copy that
     * still holds the claim opens its fence within about {@code serverTickTime / 2 + safetyMargin},
     * and a copy that another renewed before claims another id as a new holder.
     */
    @Override
    public void afterRestore() {
        super.afterRestore();
        synchronized (lock) {
            reportedAckNanos = NONE;
        }
        try {
            worker.execute(() -> {
                synchronized (lock) {
                    if (nodeOurs && connected) {
                        contact();
                    } else {
                        recover();
                    }
                }
                worker.schedule(this::contact, lagNanos, TimeUnit.NANOSECONDS);
            });
        } catch (RejectedExecutionException closing) {
            // closed meanwhile
        }
    }

    /**
     * Tests: a second lease as a copy of this process image would hold one: the same session, node
     * version, nonce, expiries and mark, sharing the Curator client (a restored image resumes the
     * same session), with no background contacts. Attach a generator of its own.
     */
    ZkMachineIdLease copyOfImage() throws Exception {
        synchronized (lock) {
            ZkMachineIdLease copy = new ZkMachineIdLease(protocol, guard().timings(), clock, machineId(),
                    TimeUnit.NANOSECONDS.toMillis(lagNanos), retryMillis, markEveryNanos, reclaimAnyId, maxMachineId);
            copy.sessionId = sessionId;
            copy.nodeVersion = nodeVersion;
            copy.nonce = nonce;
            copy.startedMillis = startedMillis;
            copy.unanswered.addAll(unanswered);
            copy.guard().claimed(machineId(), previousExpiry != NONE ? previousExpiry : lastExpiry,
                    guard().markToRecord());
            if (previousExpiry != NONE) {
                copy.guard().acknowledged(lastExpiry, NO_MARK);
            }
            copy.previousExpiry = previousExpiry;
            copy.lastExpiry = lastExpiry;
            copy.reportedAckNanos = reportedAckNanos;
            copy.nodeOurs = nodeOurs;
            copy.connected = connected;
            CuratorFramework client = protocol.client();
            client.getConnectionStateListenable().addListener(copy.listener);
            client.getCuratorListenable().addListener(copy.closing);
            copy.watchNode();
            return copy;
        }
    }

    /** Tests: the watch the guard asks before each contact (a fake process id, say). */
    void watchIncarnation(IncarnationWatch watch) {
        guard().watchIncarnation(watch);
    }

    private void tick() {
        try {
            synchronized (lock) {
                if (contact() && System.nanoTime() - lastMarkNanos >= markEveryNanos) {
                    recordMark();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Contact for machine id {} under {} failed", machineId(), protocol.root(), e);
        }
    }

    /**
     * Configures and acquires a {@link ZkMachineIdLease}. Holds configuration only; the claim is the
     * protocol's. The timings, owner, clock and id range are the shared {@link LeaseSettings}, with
     * ZooKeeper's defaults where they differ (see each setter). Not thread-safe.
     */
    public static final class Builder {
        /** The margin when none is given: ZooKeeper's own TTL is short, a tenth of it would be too little. */
        private static final Duration DEFAULT_MARGIN = Duration.ofMillis(100);

        private final CuratorFramework client;
        private String path = "/idgen";
        /**
         * The shared settings check every value as it is given and keep the id range, clock, owner
         * and background flag. The timings' defaults depend on the session timeout, known only when
         * {@link #acquire()} reads it, so the timings given are also kept here ({@code null}: not
         * given) and the checked {@link LeaseTimings} are made there.
         */
        private final LeaseSettings settings = new LeaseSettings(Duration.ofSeconds(30), 1023);
        private Duration ttl;
        private Duration renewEvery;
        private Duration safetyMargin;
        private Duration maxClockSkew;
        private Duration serverTick = Duration.ZERO;
        private Duration markEvery = Duration.ofSeconds(5);
        private Duration retryEvery = Duration.ofMillis(500);
        private LongConsumer beforeClaim = id -> { };
        private long exactId = -1;

        private Builder(CuratorFramework client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param path the namespace of this set of ids, e.g. {@code /idgen/orders}; default
         *     {@code /idgen}
         * @return this builder
         */
        public Builder path(String path) {
            if (path == null || !path.startsWith("/") || path.endsWith("/") || path.contains("//")) {
                throw new IllegalArgumentException("ZooKeeper path '" + path + "' must start with / and not end with /");
            }
            this.path = path;
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
         * How long one acknowledged contact lasts at the least: default, and at most, the client's
         * negotiated session timeout (ZooKeeper expires a session only that long after it last heard
         * from it). A shorter one fences earlier than it must; {@link #acquire()} refuses a longer
         * one, naming both.
         *
         * @param ttl the TTL, at least 100 ms; see {@link LeaseTimings} for what it must exceed
         * @return this builder
         */
        public Builder ttl(Duration ttl) {
            settings.ttl(ttl);
            this.ttl = ttl;
            return this;
        }

        /**
         * How often the lease writes its node (a contact) to move the fence; default a third of
         * {@code sessionTimeout - 2 x maxClockSkew - safetyMargin}, and at least
         * {@code serverTickTime / 2 + safetyMargin}. {@link #acquire()} checks the inequalities.
         *
         * @param renewEvery the interval, positive
         * @return this builder
         */
        public Builder renewEvery(Duration renewEvery) {
            settings.renewEvery(renewEvery);
            this.renewEvery = renewEvery;
            return this;
        }

        /**
         * The margin for what the lease cannot measure: the drift of the leader's clock over one
         * session, the spread between the servers' clocks (a new leader's {@code mtime}), and any
         * delay beyond half a tick before a follower reports a contact to the leader; default 100 ms.
         *
         * @param margin the margin, zero or more
         * @return this builder
         */
        public Builder safetyMargin(Duration margin) {
            settings.safetyMargin(margin);
            this.safetyMargin = margin;
            return this;
        }

        /**
         * The largest difference allowed between the local clock and ZooKeeper's; default 1 s. The
         * fence stands this far before ZooKeeper's earliest expiry of the session, and a new holder
         * starts this far before its claim, so either holder's clock may be off by this much.
         *
         * @param max the skew bound, zero or more
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            settings.maxClockSkew(max);
            this.maxClockSkew = max;
            return this;
        }

        /**
         * @param clock the local wall clock compared with ZooKeeper's: the generator's clock; default
         *     the system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            settings.clock(clock);
            return this;
        }

        /**
         * @param owner the holder's name stored in the lease node; default host, process id and a
         *     random suffix ({@link LeaseGuard#defaultOwner()})
         * @return this builder
         */
        public Builder owner(String owner) {
            settings.owner(owner);
            return this;
        }

        /**
         * Whether the lease contacts ZooKeeper on a thread of its own. Without it the caller renews
         * ({@link ZkMachineIdLease#renewNow()}); for tests. The fence never needs a thread; the
         * lease still reacts to connection events and re-claims on its worker.
         *
         * @param background default {@code true}
         * @return this builder
         */
        Builder background(boolean background) {
            settings.background(background);
            return this;
        }

        /**
         * The ZooKeeper servers' {@code tickTime}. A follower reports the sessions it heard from to
         * the leader when the leader pings it, every half tick, so a contact counts once another
         * follows it that much (plus the margin) after it was acknowledged. Default: half the
         * negotiated session timeout, the longest tick a server with the default
         * {@code minSessionTimeout} (2 ticks) can have granted it; set the real value to shorten
         * {@link #acquire()} and allow shorter sessions.
         *
         * @param tick the servers' tickTime, 1 ms to 1 hour
         * @return this builder
         */
        public Builder serverTickTime(Duration tick) {
            this.serverTick = checked("serverTickTime", tick, Duration.ofMillis(1));
            return this;
        }

        /**
         * @param every how often the high-water mark is recorded; default 5 s
         * @return this builder
         */
        public Builder markEvery(Duration every) {
            this.markEvery = checked("markEvery", every, Duration.ofMillis(1));
            return this;
        }

        /**
         * @param every the pause between attempts to claim the id again after losing it; default 500 ms
         * @return this builder
         */
        public Builder retryEvery(Duration every) {
            this.retryEvery = checked("retryEvery", every, Duration.ofMillis(1));
            return this;
        }

        private static Duration checked(String name, Duration d, Duration min) {
            Objects.requireNonNull(d, name);
            if (d.compareTo(min) < 0 || d.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException(name + " " + d.toMillis() + " ms is outside " + min.toMillis()
                        + " ms to 1 hour");
            }
            return d;
        }

        /**
         * What the lease does when it finds its id taken by another holder (its session expired, or
         * another copy of this process image renewed first): with {@code true}, claim its own id if
         * free, else the lowest free one, and carry its generator on under that id; with
         * {@code false}, only its own id again, fenced until it is free (for a fixed id per process).
         *
         * @param anyId default {@code true}
         * @return this builder
         */
        public Builder reclaimAnyId(boolean anyId) {
            settings.reclaimAnyId(anyId);
            return this;
        }

        /** Tests: runs with each free id the claim is about to create the node of. */
        Builder beforeClaim(LongConsumer beforeClaim) {
            this.beforeClaim = Objects.requireNonNull(beforeClaim, "beforeClaim");
            return this;
        }

        /**
         * Checks the timings against the client's negotiated session timeout, creates the lease node
         * of the lowest free id, then contacts ZooKeeper once more after
         * {@code serverTickTime / 2 + safetyMargin}, which opens the fence: so it takes about that
         * long.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is taken, ZooKeeper cannot be reached, or the
         *     clocks differ by more than {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException if the timings fail
         *     {@code ttl > 2 x renewEvery + 2 x maxClockSkew + safetyMargin},
         *     {@code renewEvery >= serverTickTime / 2 + safetyMargin} or {@code ttl <= sessionTimeout};
         *     the message names the numbers
         */
        public ZkMachineIdLease acquire() {
            if (exactId > settings.maxMachineId()) {
                throw new IllegalArgumentException("machineId = " + exactId + " is above maxMachineId = "
                        + settings.maxMachineId() + "; allowed: 0.." + settings.maxMachineId());
            }
            long[] lag = new long[1];
            LeaseTimings timings = timings(lag);
            ZkLeaseProtocol protocol = new ZkLeaseProtocol(client, path, settings.ownerOrDefault(), settings.clock(),
                    timings.fenceOffsetMillis(), timings.maxClockSkew().toMillis());
            try {
                ZkLeaseProtocol.Claim claim = exactId >= 0 ? protocol.claimExact(exactId)
                        : protocol.claimLowestFree(settings.maxMachineId(), beforeClaim);
                return claimed(protocol, claim, timings, lag[0]);
            } catch (MachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new MachineIdLeaseException("Could not claim a machine id under " + path + "/leases: " + e, e);
            }
        }

        /** The timings for the client's negotiated session timeout, checked before anything is claimed. */
        private LeaseTimings timings(long[] lagOut) {
            long session;
            try {
                if (!client.getZookeeperClient().isConnected()) {
                    throw new MachineIdLeaseException("The Curator client is not connected to ZooKeeper; start it"
                            + " and wait until it is (blockUntilConnected) before claiming a machine id");
                }
                session = client.getZookeeperClient().getZooKeeper().getSessionTimeout();
            } catch (MachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                throw new MachineIdLeaseException("Could not read the negotiated ZooKeeper session timeout: " + e, e);
            }
            long ttlMillis = ttl != null ? ttl.toMillis() : session;
            if (ttlMillis > session) {
                throw new IllegalArgumentException("ttl " + ttlMillis + " ms exceeds the negotiated ZooKeeper session timeout "
                        + session + " ms: a session may expire that long after the server last heard from it; use at"
                        + " most " + session + " ms, or leave ttl unset");
            }
            Duration skew = maxClockSkew != null ? maxClockSkew : LeaseTimings.DEFAULT_MAX_CLOCK_SKEW;
            Duration margin = safetyMargin != null ? safetyMargin : DEFAULT_MARGIN;
            long m = margin.toMillis();
            long lag = ZkLeaseProtocol.lagMillis(serverTick.toMillis(), session, m);
            long every = renewEvery != null ? renewEvery.toMillis()
                    : Math.max(lag, (ttlMillis - 2 * skew.toMillis() - m) / 3);
            if (every < lag) {
                throw new IllegalArgumentException("renewEvery " + every + " ms is shorter than the " + lag
                        + " ms a ZooKeeper follower may take to report a contact to the leader (serverTickTime "
                        + (serverTick.isZero() ? "unset, taken as half the session timeout" : serverTick.toMillis()
                        + " ms") + " / 2 + safetyMargin " + m + " ms); use at least " + lag + " ms");
            }
            lagOut[0] = lag;
            try {
                return LeaseTimings.of(Duration.ofMillis(ttlMillis), Duration.ofMillis(Math.max(1, every)), margin, skew);
            } catch (IllegalArgumentException e) {
                if (!e.getMessage().startsWith("Lease timings do not fit")) {
                    throw e; // a value out of range on its own: its message says so
                }
                throw new IllegalArgumentException("ZooKeeper session timeout " + session + " ms (as negotiated;"
                        + " serverTickTime " + (serverTick.isZero() ? "unset, taken as " + session / 2
                        : serverTick.toMillis()) + " ms, so contacts every " + every + " ms) is too short: "
                        + e.getMessage(), e);
            }
        }

        private ZkMachineIdLease claimed(ZkLeaseProtocol protocol, ZkLeaseProtocol.Claim claim, LeaseTimings timings,
                long lag) throws Exception {
            ZkMachineIdLease lease = new ZkMachineIdLease(protocol, timings, settings.clock(), claim.id(), lag,
                    retryEvery.toMillis(), markEvery.toNanos(), exactId < 0 && settings.reclaimAnyId(), // an exact id never moves
                    settings.maxMachineId());
            String refused;
            synchronized (lease.lock) {
                refused = lease.takeClaim(claim);
            }
            if (refused != null) {
                lease.close();
                throw new MachineIdLeaseException("Could not use machine id " + claim.id() + " once claimed: "
                        + refused + "; fix the clock (NTP) before claiming a machine id, or widen the layout");
            }
            LOG.info("Claimed machine id {} under {} (session 0x{}, high-water mark {}, clock skew {} ms, contact"
                    + " every {} ms)", claim.id(), path, Long.toHexString(claim.session()), LeaseGuard.markText(lease.highWaterMark()),
                    claim.skew(), timings.renewEvery().toMillis());
            try {
                lease.start(timings.renewEvery().toMillis(), settings.background());
            } catch (Exception e) {
                lease.close();
                throw e;
            }
            return lease;
        }
    }
}
