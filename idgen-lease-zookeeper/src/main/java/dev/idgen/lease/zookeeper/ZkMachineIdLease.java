package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.GuardedLease;
import dev.idgen.machine.spi.LeaseGuard;
import dev.idgen.machine.spi.LeaseSettings;
import dev.idgen.machine.spi.LeaseTimings;
import dev.idgen.machine.spi.MachineIdUser;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
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
 * <p><b>Fencing by time.</b> Every {@link Builder#contactEvery(Duration)} the lease writes its node
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
 * {@code serverTickTime / 2 + margin} after it was acknowledged. The argument, as inequalities, is
 * in {@code docs/lease-safety-zookeeper.md}.
 *
 * <p>Besides, the lease shuts the fence at once on Curator's {@code SUSPENDED}, {@code LOST} or
 * {@code READ_ONLY}, when its node is deleted or taken, when the clocks differ by more than
 * {@link Builder#maxClockSkew(Duration)}, and when the Curator client is closed under it. After
 * {@code RECONNECTED} it checks its node (still ours: contacts resume; gone: created again; another
 * holder's: fenced, retrying) and the fence opens again on the next two contacts.
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
 * <p>{@link #timings()} gives the negotiated session timeout as the TTL and the contact interval as
 * the renewal interval, with the margin and the skew bound.
 */
public final class ZkMachineIdLease extends GuardedLease {

    private static final Logger LOG = LoggerFactory.getLogger(ZkMachineIdLease.class);
    private static final long NONE = Long.MIN_VALUE;

    private final CuratorFramework client;
    private final String root;
    private final String owner;
    private final InstantSource clock;
    private final long retryMillis;
    private final long markEveryNanos;
    private final long lagNanos;
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
    private final byte[] nodeData;

    private volatile boolean connected = true;
    private volatile boolean nodeOurs = true;
    private volatile long sessionId;
    /** The lease node's version after our last write: a contact writes only that version. */
    private volatile int nodeVersion;
    private volatile boolean closed;
    /** When the last contact given to the guard was acknowledged (System.nanoTime); NONE after a loss. */
    private volatile long reportedAckNanos = NONE;
    private long lastMarkNanos;

    private ZkMachineIdLease(Builder b, long machineId, Claim claim, LeaseGuard guard, long lagMillis) {
        super(machineId, guard);
        this.client = b.client;
        this.root = b.path;
        this.owner = b.owner;
        this.clock = b.clock;
        this.retryMillis = b.retryEvery.toMillis();
        this.markEveryNanos = b.markEvery.toNanos();
        this.lagNanos = TimeUnit.MILLISECONDS.toNanos(lagMillis);
        this.sessionId = claim.session;
        this.nodeVersion = claim.version;
        this.nodeData = claim.data;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idgen-lease-zk-" + machineId);
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

    /** @return the owner string stored in the lease node */
    public String owner() {
        return owner;
    }

    /**
     * Writes the lease node now (a contact: may move the fence, re-checks the clock skew) and
     * records the generator's high-water mark. The lease does both on its own, every
     * {@link Builder#contactEvery(Duration)} and {@link Builder#markEvery(Duration)}.
     *
     * @return whether the lease is held afterwards
     */
    public boolean recordMarkNow() {
        synchronized (lock) {
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
            try {
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                long session = zk.getSessionId();
                long timeout = Math.min(zk.getSessionTimeout(), guard().timings().ttl().toMillis());
                long before = clock.millis();
                long sent = System.nanoTime(); // before the request leaves: the server hears it later
                Stat stat = zk.setData(fullPath(leasePath()), nodeData, nodeVersion);
                long acked = System.nanoTime();
                long after = clock.millis();
                nodeVersion = stat.getVersion();
                if (session != sessionId || stat.getEphemeralOwner() != session) {
                    lose("the lease node " + leasePath() + " belongs to session 0x"
                            + Long.toHexString(stat.getEphemeralOwner()) + ", not to ours");
                    return false;
                }
                if (guard().acceptSkew(stat.getMtime(), before, after)) {
                    report(sent, acked, expiry(stat.getMtime(), sent, acked, timeout));
                } else {
                    reportedAckNanos = NONE; // the guard forgot this claim's expiries
                }
                return true;
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
                lose("the lease node " + leasePath() + " was deleted or written by another client");
                return false;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.debug("Contact for machine id {} under {} failed: {}", machineId(), root, e.toString());
                return false;
            }
        }
    }

    /**
     * ZooKeeper's earliest possible expiry of the session after a write it acknowledged: the leader
     * ordered the write at {@code mtime} on its clock, and heard from the session no earlier than
     * one round trip before; it expires a session only a full timeout after it last heard from it.
     */
    static long expiry(long mtimeMillis, long sentNanos, long ackedNanos, long sessionTimeoutMillis) {
        long rttMillis = Math.max(0, (ackedNanos - sentNanos + 999_999) / 1_000_000);
        return mtimeMillis - rttMillis + sessionTimeoutMillis;
    }

    /**
     * Where a new holder starts: every earlier holder's fence lay at or before
     * {@code expiry - maxClockSkew - margin}, and the node is created again only after the expiry,
     * so at an {@code mtime} past it. The last millisecond not to issue is one before.
     */
    static long claimMark(long claimMtime, long maxSkewMillis) {
        return claimMtime - maxSkewMillis - 1;
    }

    /** How long after a contact is acknowledged the next must be sent to confirm it. */
    static long lagMillis(long serverTickMillis, long sessionTimeoutMillis, long marginMillis) {
        long tick = serverTickMillis > 0 ? serverTickMillis : sessionTimeoutMillis / 2;
        return (tick + 1) / 2 + marginMillis;
    }

    /**
     * Hands an acknowledged contact to the guard: the first after a loss as a fresh start (the
     * guard forgets older expiries), a later one only if sent long enough after the last one handed
     * over to prove the leader had applied that one's touch; the guard pairs them.
     */
    private void report(long sentNanos, long ackedNanos, long expiresMillis) {
        long last = reportedAckNanos;
        if (last == NONE) {
            guard().claimed(expiresMillis, NO_MARK);
        } else if (sentNanos - last >= lagNanos) {
            guard().acknowledged(expiresMillis, NO_MARK);
        } else {
            return; // too soon: proves the node ours, but the guard would pair it with an unconfirmed one
        }
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
            writeMark(guard().markToRecord());
            lastMarkNanos = System.nanoTime();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Recording the high-water mark of machine id {} under {} failed: {}", machineId(), root,
                    e.toString());
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
        client.getConnectionStateListenable().removeListener(listener);
        client.getCuratorListenable().removeListener(closing);
        worker.shutdownNow();
        try {
            if (nodeOurs && connected) {
                // the node goes only once the mark is recorded: else it waits for the session to end,
                // which the fence already covers
                writeMark(mark);
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                Stat stat = zk.exists(fullPath(leasePath()), false);
                if (stat != null && stat.getEphemeralOwner() == sessionId) {
                    zk.delete(fullPath(leasePath()), stat.getVersion());
                }
                LOG.info("Released machine id {} under {} (high-water mark {})", machineId(), root, mark);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Releasing machine id {} under {} failed; it frees itself when the session ends: {}",
                    machineId(), root, e.toString());
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper lease on machine id " + machineId() + " at " + leasePath() + " by " + owner + ", "
                + guard().state();
    }

    private String leasePath() {
        return root + "/leases/" + machineId();
    }

    private String fullPath(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
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

    /** After a reconnection or a loss: is the node still ours? If gone, create it again; then contact. */
    private void revalidate() {
        synchronized (lock) {
            long seen = epoch.get();
            if (closed || !client.getZookeeperClient().isConnected()) {
                return;
            }
            try {
                long session = client.getZookeeperClient().getZooKeeper().getSessionId();
                Stat stat = client.checkExists().forPath(leasePath());
                if (stat != null && stat.getEphemeralOwner() == session) {
                    sessionId = session;
                    nodeVersion = stat.getVersion();
                    reportedAckNanos = NONE; // start over: the next contact is a first one
                } else if (stat == null) {
                    Claim claim = createNode(client, leasePath(), owner, clock);
                    if (!guard().acceptSkew(claim.mtime, claim.before, claim.after)) {
                        // the guard fenced; give the id back rather than hold it unusable
                        client.delete().guaranteed().forPath(leasePath());
                        retryLater();
                        return;
                    }
                    sessionId = claim.session;
                    nodeVersion = claim.version;
                    guard().claimed(expiry(claim.mtime, claim.sentNanos, claim.ackedNanos,
                            guard().timings().ttl().toMillis()), Math.max(readMark(client, root, machineId()),
                            claimMark(claim.mtime, maxSkewMillis())));
                    reportedAckNanos = claim.ackedNanos;
                    LOG.info("Claimed machine id {} under {} again (high-water mark {})", machineId(), root,
                            guard().highWaterMark());
                } else {
                    nodeOurs = false;
                    guard().lost("machine id " + machineId() + " is held by another session (0x"
                            + Long.toHexString(stat.getEphemeralOwner()) + "); retrying");
                    retryLater();
                    return;
                }
                watchNode();
                if (epoch.get() != seen) {
                    return; // the connection changed meanwhile; the next event decides
                }
                nodeOurs = true;
                connected = true;
                contact();
                // one more once a follower has surely told the leader of the last: that opens the fence
                worker.schedule(this::contact, lagNanos, TimeUnit.NANOSECONDS);
            } catch (KeeperException.NodeExistsException e) {
                retryLater();
            } catch (Exception e) {
                LOG.warn("Checking machine id {} under {} after reconnecting failed: {}", machineId(), root, e.toString());
                retryLater();
            }
        }
    }

    private long maxSkewMillis() {
        return guard().timings().maxClockSkew().toMillis();
    }

    private void retryLater() {
        if (!closed && !worker.isShutdown()) {
            worker.schedule(this::revalidate, retryMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void watchNode() throws Exception {
        CuratorWatcher watcher = (WatchedEvent event) -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted && !closed) {
                synchronized (lock) {
                    lose("the lease node " + leasePath() + " was deleted");
                }
            }
        };
        client.checkExists().usingWatcher(watcher).forPath(leasePath());
    }

    /** Starts watching and contacting; returns once the second contact has opened the fence. */
    private void start(long contactEveryMillis) throws Exception {
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
        long end = System.nanoTime() + lagNanos;
        for (long left = lagNanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        contact();
        worker.scheduleWithFixedDelay(this::tick, contactEveryMillis, contactEveryMillis, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            synchronized (lock) {
                if (contact() && System.nanoTime() - lastMarkNanos >= markEveryNanos) {
                    recordMark();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Contact for machine id {} under {} failed", machineId(), root, e);
        }
    }

    /** Raises the mark node to at least {@code mark} by versioned writes; checks the skew. */
    private void writeMark(long mark) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        String path = fullPath(root + "/marks/" + machineId());
        for (;;) {
            Stat stat = new Stat();
            long stored = parseMark(zk.getData(path, false, stat));
            long target = Math.max(stored, mark);
            long before = clock.millis();
            try {
                Stat written = zk.setData(path, Long.toString(target).getBytes(StandardCharsets.US_ASCII),
                        stat.getVersion());
                if (!closed && !guard().acceptSkew(written.getMtime(), before, clock.millis())) {
                    reportedAckNanos = NONE;
                }
                return;
            } catch (KeeperException.BadVersionException e) {
                // another writer raised it meanwhile: read again
            }
        }
    }

    private static long parseMark(byte[] data) {
        if (data == null || data.length == 0) {
            return NO_MARK;
        }
        return Long.parseLong(new String(data, StandardCharsets.US_ASCII).strip());
    }

    private static long readMark(CuratorFramework client, String root, long id) throws Exception {
        String path = root + "/marks/" + id;
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                    .forPath(path, new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            // an earlier holder left it
        }
        return parseMark(client.getData().forPath(path));
    }

    /** What creating the lease node told us: the first contact of a claim, and the node's identity. */
    private record Claim(long session, int version, byte[] data, long mtime, long sentNanos, long ackedNanos,
            long before, long after) {
        long skew() {
            return mtime - (before + (after - before) / 2);
        }
    }

    /** Creates the ephemeral lease node. */
    private static Claim createNode(CuratorFramework client, String path, String owner, InstantSource clock)
            throws Exception {
        long before = clock.millis();
        byte[] data = ("owner=" + owner + "\nstarted=" + Instant.ofEpochMilli(before) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Stat stat = new Stat();
        long sent = System.nanoTime();
        client.create().storingStatIn(stat).creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(path, data);
        long acked = System.nanoTime();
        long after = clock.millis();
        return new Claim(stat.getEphemeralOwner(), stat.getVersion(), data, stat.getMtime(), sent, acked, before,
                after);
    }

    /** Configures and acquires a {@link ZkMachineIdLease}. Not thread-safe. */
    public static final class Builder {
        private final CuratorFramework client;
        private String path = "/idgen";
        private long maxMachineId = 1023;
        private Duration maxClockSkew = LeaseTimings.DEFAULT_MAX_CLOCK_SKEW;
        private Duration margin = Duration.ofMillis(100);
        private Duration serverTick = Duration.ZERO;
        private Duration contactEvery = Duration.ZERO;
        private Duration markEvery = Duration.ofSeconds(5);
        private Duration retryEvery = Duration.ofMillis(500);
        private InstantSource clock = InstantSource.system();
        private String owner = LeaseGuard.defaultOwner();
        private LongConsumer beforeClaim = id -> { };

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
            this.maxMachineId = LeaseSettings.checkMaxMachineId(maxMachineId);
            return this;
        }

        /**
         * The largest difference allowed between the local clock and ZooKeeper's; default 1 s. The
         * fence stands this far before ZooKeeper's earliest expiry of the session, and a new holder
         * starts this far before its claim, so either holder's clock may be off by this much.
         *
         * @param max the skew bound, 0 to 1 hour
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            this.maxClockSkew = checked("maxClockSkew", max, Duration.ZERO);
            return this;
        }

        /**
         * The margin for what the lease cannot measure: the drift of the leader's clock over one
         * session, the spread between the servers' clocks (a new leader's {@code mtime}), and any
         * delay beyond half a tick before a follower reports a contact to the leader; default 100 ms.
         *
         * @param margin the margin, 0 to 1 hour
         * @return this builder
         */
        public Builder margin(Duration margin) {
            this.margin = checked("margin", margin, Duration.ZERO);
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
         * How often the lease writes its node to move the fence; default a third of
         * {@code sessionTimeout - 2 x maxClockSkew - margin}, and at least
         * {@code serverTickTime / 2 + margin}. {@link #acquire()} checks the inequalities.
         *
         * @param every the interval, 1 ms to 1 hour
         * @return this builder
         */
        public Builder contactEvery(Duration every) {
            this.contactEvery = checked("contactEvery", every, Duration.ofMillis(1));
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
         * @param clock the local wall clock compared with ZooKeeper's: the generator's clock; default
         *     the system clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param owner the holder's name stored in the lease node; default host, process id and a
         *     random suffix
         * @return this builder
         */
        public Builder owner(String owner) {
            this.owner = Objects.requireNonNull(owner, "owner");
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
         * {@code serverTickTime / 2 + margin}, which opens the fence: so it takes about that long.
         *
         * @return the lease, held
         * @throws MachineIdLeaseException if every id is taken, ZooKeeper cannot be reached, or the
         *     clocks differ by more than {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException if the timings fail
         *     {@code sessionTimeout > 2 x contactEvery + 2 x maxClockSkew + margin} or
         *     {@code contactEvery >= serverTickTime / 2 + margin}; the message names the numbers
         */
        public ZkMachineIdLease acquire() {
            String leases = path + "/leases";
            long[] lag = new long[1];
            LeaseTimings timings = timings(lag);
            try {
                client.createContainers(leases);
                long rounds = LeaseSettings.claimRounds(maxMachineId);
                for (long round = 0; round < rounds; round++) {
                    List<String> children = client.getChildren().forPath(leases);
                    Set<Long> taken = new HashSet<>();
                    for (String child : children) {
                        try {
                            taken.add(Long.parseLong(child));
                        } catch (NumberFormatException e) {
                            // not ours: ignore
                        }
                    }
                    boolean anyFree = false;
                    for (long id = 0; id <= maxMachineId; id++) {
                        if (taken.contains(id)) {
                            continue;
                        }
                        anyFree = true;
                        Claim claim;
                        beforeClaim.accept(id);
                        try {
                            claim = createNode(client, leases + "/" + id, owner, clock);
                        } catch (KeeperException.NodeExistsException e) {
                            continue; // another client was faster
                        }
                        return claimed(id, claim, timings, lag[0]);
                    }
                    if (!anyFree) {
                        throw new MachineIdLeaseException("Every machine id 0.." + maxMachineId + " under " + leases
                                + " is held by a live session; free one, or widen the space: raise maxMachineId (up"
                                + " to the layout's maxMachineId()) or use a layout with more machine-id bits (e.g."
                                + " SnowflakeLayout.SONYFLAKE, 0..65535)");
                    }
                }
                throw new MachineIdLeaseException("Lost the race for the free machine ids 0.." + maxMachineId
                        + " under " + leases + " " + rounds + " times over, each to another client; ids are freed"
                        + " as fast as others take them, try again");
            } catch (MachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new MachineIdLeaseException("Could not claim a machine id under " + leases + ": " + e, e);
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
            long skew = maxClockSkew.toMillis();
            long m = margin.toMillis();
            long lag = lagMillis(serverTick.toMillis(), session, m);
            long every = contactEvery.isZero() ? Math.max(lag, (session - 2 * skew - m) / 3) : contactEvery.toMillis();
            if (every < lag) {
                throw new IllegalArgumentException("contactEvery " + every + " ms is shorter than the " + lag
                        + " ms a ZooKeeper follower may take to report a contact to the leader (serverTickTime "
                        + (serverTick.isZero() ? "unset, taken as half the session timeout" : serverTick.toMillis()
                        + " ms") + " / 2 + margin " + m + " ms); use at least " + lag + " ms");
            }
            lagOut[0] = lag;
            try {
                return new LeaseTimings(Duration.ofMillis(session), Duration.ofMillis(every), margin, maxClockSkew);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ZooKeeper session timeout " + session + " ms (as negotiated;"
                        + " serverTickTime " + (serverTick.isZero() ? "unset, taken as " + session / 2
                        : serverTick.toMillis()) + " ms, so contacts every " + every + " ms) is too short: "
                        + e.getMessage(), e);
            }
        }

        private ZkMachineIdLease claimed(long id, Claim claim, LeaseTimings timings, long lag) throws Exception {
            String name = "machine id " + id + " under " + path;
            LeaseGuard guard = new LeaseGuard(name, timings, clock);
            long stored = readMark(client, path, id); // creates the mark node, so a close can record
            ZkMachineIdLease lease = new ZkMachineIdLease(this, id, claim, guard, lag);
            if (!guard.acceptSkew(claim.mtime, claim.before, claim.after)) {
                lease.close();
                throw new MachineIdLeaseException("The local clock is " + claim.skew() + " ms from ZooKeeper's (node "
                        + path + "/leases/" + id + "), beyond the allowed " + maxClockSkew.toMillis()
                        + " ms; fix the clock (NTP) before claiming a machine id");
            }
            long mark = Math.max(stored, claimMark(claim.mtime, maxClockSkew.toMillis()));
            // the claim is the first contact: it opens nothing, the second does (see start)
            guard.claimed(expiry(claim.mtime, claim.sentNanos, claim.ackedNanos, timings.ttl().toMillis()), mark);
            lease.reportedAckNanos = claim.ackedNanos;
            LOG.info("Claimed machine id {} under {} (session 0x{}, high-water mark {}, clock skew {} ms, contact"
                    + " every {} ms)", id, path, Long.toHexString(claim.session), mark, claim.skew(),
                    timings.renewEvery().toMillis());
            try {
                lease.start(timings.renewEvery().toMillis());
            } catch (Exception e) {
                lease.close();
                throw e;
            }
            return lease;
        }
    }
}
