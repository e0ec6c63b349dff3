package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.LeaseMark;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
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
 * <p><b>Fencing by time.</b> The lease writes its node every {@link Builder#contactEvery(Duration)}
 * (a <em>contact</em>). ZooKeeper orders a write only while the session lives, and expires a session
 * only when its leader has heard nothing from it for the whole session timeout; so each acknowledged
 * contact proves the node cannot be gone, nor the id be someone else's, before a time computed from
 * the write's {@code mtime}, its round trip and the session timeout. From that the lease sets the
 * generator's fence ({@link MachineIdUser#fenceFrom(long)}): the generator refuses, after taking its
 * (tick, sequence) pair, every ID whose own time reaches it. No thread has to run for this to hold: a
 * process stopped for longer than the session resumes with a clock past the fence and is refused,
 * and a forward clock step or a run-ahead generator is refused by the time its IDs carry. The
 * arguments, as inequalities, are in {@code docs/lease-safety-zookeeper.md}.
 *
 * <p>Besides, the lease closes the fence at once on Curator's {@code SUSPENDED} or {@code LOST},
 * when its node is deleted, when the clocks differ by more than
 * {@link Builder#maxClockSkew(Duration)}, and when the Curator client is closed under it; after
 * {@code RECONNECTED} it checks its node (still ours: contacts resume; gone: created again; another
 * holder's: fenced, retrying) and the fence opens on the next two contacts.
 *
 * <p><b>High-water mark.</b> The persistent node {@code <path>/marks/<id>} keeps the last Unix
 * millisecond any holder of the id covered with an ID, raised (never lowered, by versioned writes)
 * from the generator's {@link MachineIdUser#highWaterMark()} every {@link Builder#markEvery(Duration)}
 * and on {@link #close()}. A new holder starts above it, and above its own claim's {@code mtime}
 * minus the skew bound, which is where every earlier holder's fence lay.
 *
 * <p><b>Clock skew.</b> Every write returns the server's modification time ({@code mtime}); its
 * difference from the local clock is {@link #clockSkew()}. Beyond
 * {@link Builder#maxClockSkew(Duration)} a claim fails and a held lease is fenced until the clocks
 * agree again. The skew bound is what lets each holder's clock work near the fence; the fence and
 * the claim mark themselves are computed in ZooKeeper's time.
 */
public final class ZkMachineIdLease implements FencingLease, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZkMachineIdLease.class);

    private final CuratorFramework client;
    private final String root;
    private final long machineId;
    private final String owner;
    private final long maxSkewMillis;
    private final InstantSource clock;
    private final long retryMillis;
    private final long markEveryNanos;
    private final LeaseTimings timings;
    private final ContactFence contacts;
    private final ConnectionStateListener listener = this::stateChanged;
    private final CuratorListener closing = (c, event) -> {
        if (event.getType() == CuratorEventType.CLOSING) {
            close(); // the client is going, and its session with it: fence and release before it does
        }
    };
    private final ScheduledExecutorService worker;
    private final Object lock = new Object();
    /** Counts connection-state events; a decision to hold made under an older count is void. */
    private final AtomicLong epoch = new AtomicLong();
    private final LeaseMark highWater;
    private final byte[] nodeData;

    /** The conditions hold (connected, node ours, skew ok, not closed); the fence comes from contacts. */
    private volatile boolean held;
    private volatile boolean connected = true;
    private volatile boolean skewOk = true;
    private volatile boolean nodeOurs = true;
    private volatile long sessionId;
    /** The lease node's version after our last write: a contact writes only that version. */
    private volatile int nodeVersion;
    private volatile long skewMillis;
    private volatile String state = "held";
    private volatile boolean closed;
    private long lastMarkNanos;

    private ZkMachineIdLease(Builder b, long machineId, Claim claim, LeaseTimings timings, long mark) {
        this.client = b.client;
        this.root = b.path;
        this.machineId = machineId;
        this.owner = b.owner;
        this.maxSkewMillis = b.maxClockSkew.toMillis();
        this.clock = b.clock;
        this.retryMillis = b.retryEvery.toMillis();
        this.markEveryNanos = b.markEvery.toNanos();
        this.timings = timings;
        this.contacts = new ContactFence(maxSkewMillis, b.margin.toMillis(), b.serverTick.toMillis());
        this.sessionId = claim.session;
        this.nodeVersion = claim.version;
        this.nodeData = claim.data;
        this.highWater = new LeaseMark("machine id " + machineId + " under " + root, mark);
        this.skewMillis = claim.skew;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idgen-lease-zk-" + machineId);
            t.setDaemon(true);
            return t;
        });
        // the claim is the first contact; the fence opens on the second (see ContactFence)
        contacts.acknowledged(claim.session, claim.sentNanos, claim.ackedNanos, claim.mtime, timings.sessionMillis());
        this.held = true;
        this.lastMarkNanos = System.nanoTime();
    }

    /**
     * A builder for leases under {@code client}, which must be started. The client's session
     * timeout sets how fast the lease fences: keep it a few seconds (see
     * {@link Builder#acquire()} for the inequality it must meet).
     *
     * @param client a started Curator client
     * @return a new builder
     */
    public static Builder builder(CuratorFramework client) {
        return new Builder(client);
    }

    @Override
    public long machineId() {
        return machineId;
    }

    /**
     * Whether the generator may make IDs now: the lease is connected, its node is ours, the clocks
     * agree and the fence is still ahead of the clock. For health checks and logs; the generator
     * does not ask it per ID, it compares each ID's time with the fence.
     */
    @Override
    public boolean isHeld() {
        return held && clock.millis() < highWater.fenceMillis();
    }

    @Override
    public long highWaterMark() {
        return highWater.millis();
    }

    @Override
    public void attach(MachineIdUser generator) {
        highWater.attach(generator);
    }

    /**
     * The server's clock minus the local clock, from the last write (positive: the server is ahead).
     *
     * @return the skew
     */
    public Duration clockSkew() {
        return Duration.ofMillis(skewMillis);
    }

    /**
     * The fence now: the generator returns no ID whose time is at or past it.
     *
     * @return the first instant no ID may carry; {@link Instant#MIN} while the lease is fenced
     */
    public Instant fence() {
        long f = highWater.fenceMillis();
        return f == Long.MIN_VALUE ? Instant.MIN : Instant.ofEpochMilli(f);
    }

    /**
     * The interval between contacts, as configured or derived from the negotiated session timeout.
     *
     * @return the contact interval
     */
    public Duration contactEvery() {
        return Duration.ofMillis(timings.contactEveryMillis());
    }

    /** @return the owner string stored in the lease node */
    public String owner() {
        return owner;
    }

    /**
     * Writes the lease node now (a contact: moves the fence and re-checks the clock skew) and
     * records the generator's high-water mark. The lease does both on its own, every
     * {@link Builder#contactEvery(Duration)} and {@link Builder#markEvery(Duration)}.
     *
     * @return whether the lease is held afterwards
     */
    public boolean recordMarkNow() {
        synchronized (lock) {
            if (!contact()) {
                return false;
            }
            recordMark();
            return isHeld();
        }
    }

    /**
     * One contact: an acknowledged write of the lease node by the session that owns it. Moves the
     * fence forward (from the second-to-last contact), measures the skew, and finds out a node that
     * is no longer ours. A contact that fails leaves the fence where it was: it is a time, valid
     * whatever happens next.
     *
     * @return whether the write was acknowledged by our session on our node
     */
    boolean contact() {
        synchronized (lock) {
            if (closed || !connected || !nodeOurs) {
                return false;
            }
            try {
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                long session = zk.getSessionId();
                long timeout = zk.getSessionTimeout();
                long before = clock.millis();
                long sent = System.nanoTime(); // before the request leaves: the server heard from us after this
                Stat stat = zk.setData(fullPath(leasePath()), nodeData, nodeVersion);
                long acked = System.nanoTime();
                long after = clock.millis();
                nodeVersion = stat.getVersion();
                if (session != sessionId || stat.getEphemeralOwner() != session) {
                    nodeOurs = false;
                    update("the lease node " + leasePath() + " belongs to session 0x"
                            + Long.toHexString(stat.getEphemeralOwner()) + ", not ours");
                    worker.execute(this::revalidate);
                    return false;
                }
                measureSkew(stat.getMtime(), before, after, acked - sent);
                contacts.acknowledged(session, sent, acked, stat.getMtime(), Math.min(timeout, timings.sessionMillis()));
                update("the local clock is " + skewMillis + " ms from ZooKeeper's, beyond the allowed "
                        + maxSkewMillis + " ms");
                return true;
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
                nodeOurs = false;
                update("the lease node " + leasePath() + " was deleted or changed by another client");
                worker.execute(this::revalidate);
                return false;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                LOG.debug("Contact for machine id {} under {} failed: {}", machineId, root, e.toString());
                return false;
            }
        }
    }

    private void measureSkew(long mtime, long before, long after, long rttNanos) {
        long skew = mtime - (before + (after - before) / 2);
        skewMillis = skew;
        // the mtime was taken somewhere inside the round trip: half of it is unknown
        skewOk = Math.abs(skew) + (rttNanos / 1_000_000 + 1) / 2 <= maxSkewMillis;
    }

    private void recordMark() {
        try {
            writeMark(highWater.toRecord());
            lastMarkNanos = System.nanoTime();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Recording the high-water mark of machine id {} under {} failed: {}", machineId, root,
                    e.toString());
        }
    }

    /**
     * Fences the generator, records its high-water mark and deletes the lease node so the id is
     * free at once. Every ID the generator returns is below the mark recorded here: the fence is
     * closed before the mark is read, and the generator checks the fence after taking its ID.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            state = "released";
            held = false;
            highWater.fenceFrom(Long.MIN_VALUE);
        }
        client.getConnectionStateListenable().removeListener(listener);
        client.getCuratorListenable().removeListener(closing);
        worker.shutdownNow();
        try {
            if (nodeOurs && connected) {
                writeMark(highWater.toRecord());
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                Stat stat = zk.exists(fullPath(leasePath()), false);
                if (stat != null && stat.getEphemeralOwner() == sessionId) {
                    zk.delete(fullPath(leasePath()), stat.getVersion());
                }
                LOG.info("Released machine id {} under {} (high-water mark {})", machineId, root, highWater.millis());
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warn("Releasing machine id {} under {} failed; it frees itself when the session ends: {}",
                    machineId, root, e.toString());
        }
    }

    @Override
    public String toString() {
        String s = state;
        long f = highWater.fenceMillis();
        if (held && f != Long.MIN_VALUE && clock.millis() >= f) {
            s = "fenced: the fence " + Instant.ofEpochMilli(f) + " has passed with no newer acknowledged contact";
        }
        return "ZooKeeper lease on machine id " + machineId + " at " + leasePath() + " by " + owner + ", " + s;
    }

    private String leasePath() {
        return root + "/leases/" + machineId;
    }

    private String fullPath(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
    }

    /**
     * Held is the conjunction of the conditions; turning true applies the mark first. The fence is
     * the contacts' fence while held, closed otherwise. A connection-state event that lands while
     * this runs (it fences without taking the lock) bumps the epoch, and the re-check after the
     * write undoes a hold decided before it; a fence from contacts is valid whatever happened since.
     */
    private void update(String why) {
        long seen = epoch.get();
        boolean ok = connected && nodeOurs && skewOk && !closed;
        if (ok && !held) {
            highWater.applyToGenerator();
            LOG.info("Machine id {} under {} is held again", machineId, root);
        }
        if (!ok && held) {
            LOG.warn("Machine id {} under {} is fenced: {}", machineId, root, why);
        }
        // the reason first: whoever sees held turn false reads why
        state = ok ? "held" : closed ? "released" : "fenced: " + why;
        held = ok;
        highWater.fenceFrom(ok ? contacts.fenceMillis() : Long.MIN_VALUE);
        if (ok && epoch.get() != seen) {
            state = "fenced: the ZooKeeper connection changed while checking";
            held = false;
            highWater.fenceFrom(Long.MIN_VALUE);
        }
    }

    private void stateChanged(CuratorFramework c, ConnectionState s) {
        epoch.incrementAndGet();
        switch (s) {
            case CONNECTED, RECONNECTED -> worker.execute(this::revalidate);
            default -> {
                // SUSPENDED, LOST, READ_ONLY: first thing, on Curator's event thread, close the fence
                // early (the time fence would close it anyway) and start over from fresh contacts
                connected = false;
                state = "fenced: ZooKeeper connection " + s;
                held = false;
                contacts.reset();
                highWater.fenceFrom(Long.MIN_VALUE);
                LOG.warn("Machine id {} under {} is fenced: ZooKeeper connection {}", machineId, root, s);
            }
        }
    }

    /** After a reconnection: is the node still ours? If gone, create it again; then contact. */
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
                } else if (stat == null) {
                    Claim claim = createNode(client, leasePath(), owner, clock);
                    sessionId = claim.session;
                    nodeVersion = claim.version;
                    measureSkew(claim.mtime, claim.before, claim.after, claim.ackedNanos - claim.sentNanos);
                    highWater.raiseTo(Math.max(readMark(client, root, machineId), claimMark(claim.mtime, maxSkewMillis)));
                    contacts.reset();
                    contacts.acknowledged(claim.session, claim.sentNanos, claim.ackedNanos, claim.mtime,
                            timings.sessionMillis());
                    LOG.info("Claimed machine id {} under {} again (high-water mark {})", machineId, root,
                            highWater.millis());
                } else {
                    nodeOurs = false;
                    connected = true;
                    update("machine id " + machineId + " is held by another session (0x"
                            + Long.toHexString(stat.getEphemeralOwner()) + "); retrying");
                    retryLater();
                    return;
                }
                nodeOurs = true;
                watchNode();
                if (epoch.get() != seen) {
                    return; // the connection changed meanwhile; the next event decides
                }
                connected = true;
                update("held");
                contact();
                // a second contact once a follower has surely told the leader of the first opens the fence
                long lag = contacts.lagMillis(timings.sessionMillis());
                worker.schedule(this::contact, lag, TimeUnit.MILLISECONDS);
            } catch (KeeperException.NodeExistsException e) {
                retryLater();
            } catch (Exception e) {
                LOG.warn("Checking machine id {} under {} after reconnecting failed: {}", machineId, root, e.toString());
                retryLater();
            }
        }
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
                    nodeOurs = false;
                    update("the lease node " + leasePath() + " was deleted");
                }
                worker.execute(this::revalidate);
            }
        };
        client.checkExists().usingWatcher(watcher).forPath(leasePath());
    }

    /** Starts watching and contacting; returns once the second contact has opened the fence. */
    private void start() throws Exception {
        client.getConnectionStateListenable().addListener(listener);
        client.getCuratorListenable().addListener(closing);
        if (!client.getZookeeperClient().isConnected()) {
            // the connection dropped before the listener was in place: fence, wait for RECONNECTED
            connected = false;
            state = "fenced: ZooKeeper connection lost while claiming";
            held = false;
            contacts.reset();
        }
        watchNode();
        // wait until a follower has surely told the leader of the claim, then contact again
        long lagNanos = TimeUnit.MILLISECONDS.toNanos(contacts.lagMillis(timings.sessionMillis()));
        long end = System.nanoTime() + lagNanos;
        for (long left = lagNanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        contact();
        long every = timings.contactEveryMillis();
        worker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            synchronized (lock) {
                contact();
                if (System.nanoTime() - lastMarkNanos >= markEveryNanos && held) {
                    recordMark();
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Contact for machine id {} under {} failed", machineId, root, e);
        }
    }

    /** Raises the mark node to at least {@code mark} by versioned writes; measures the skew. */
    private void writeMark(long mark) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        String path = fullPath(root + "/marks/" + machineId);
        for (;;) {
            Stat stat = new Stat();
            byte[] data = zk.getData(path, false, stat);
            long stored = parseMark(data);
            long target = Math.max(stored, mark);
            highWater.raiseTo(target);
            long before = clock.millis();
            long sent = System.nanoTime();
            try {
                Stat written = zk.setData(path, Long.toString(target).getBytes(StandardCharsets.US_ASCII),
                        stat.getVersion());
                long rtt = System.nanoTime() - sent;
                measureSkew(written.getMtime(), before, clock.millis(), rtt);
                update("the local clock is " + skewMillis + " ms from ZooKeeper's, beyond the allowed "
                        + maxSkewMillis + " ms");
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

    /**
     * Where a new holder starts: every earlier holder's fence lay at or before the leader's clock
     * when the node could be created again, less the skew bound; the claim's {@code mtime} is
     * later than that. The last millisecond not to issue is one before.
     */
    static long claimMark(long claimMtime, long maxSkewMillis) {
        return claimMtime - maxSkewMillis - 1;
    }

    /** What creating the lease node told us: a contact, and the node's identity. */
    private record Claim(long session, int version, byte[] data, long mtime, long sentNanos, long ackedNanos,
            long before, long after, long skew) {
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
                after, stat.getMtime() - (before + (after - before) / 2));
    }

    /** Configures and acquires a {@link ZkMachineIdLease}. Not thread-safe. */
    public static final class Builder {
        private final CuratorFramework client;
        private String path = "/idgen";
        private long maxMachineId = 1023;
        private Duration maxClockSkew = Duration.ofSeconds(1);
        private Duration margin = Duration.ofMillis(100);
        private Duration serverTick = Duration.ZERO;
        private Duration contactEvery = Duration.ZERO;
        private Duration markEvery = Duration.ofSeconds(5);
        private Duration retryEvery = Duration.ofMillis(500);
        private InstantSource clock = InstantSource.system();
        private String owner = defaultOwner();

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
            if (maxMachineId < 0 || maxMachineId > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("maxMachineId " + maxMachineId + " is outside 0.." + Integer.MAX_VALUE);
            }
            this.maxMachineId = maxMachineId;
            return this;
        }

        /**
         * The largest difference allowed between the local clock and ZooKeeper's; default 1 s. The
         * fence is drawn this far before ZooKeeper's earliest expiry of the session, and a new
         * holder starts this far before its claim, so both holders' clocks may be off by this much.
         *
         * @param max the skew bound, 0 to 1 hour
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            this.maxClockSkew = checked("maxClockSkew", max, Duration.ZERO);
            return this;
        }

        /**
         * The margin for what the argument cannot measure: the drift of the leader's clock over one
         * session, the spread between the servers' clocks (a new leader's {@code mtime}), and the
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
         * the leader every half tick, so a contact counts once another follows it that much later.
         * Default: half the negotiated session timeout, the longest tick a server with the default
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
                throw new IllegalArgumentException(name + " " + d + " is outside " + min + " to PT1H");
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

        /**
         * Creates the lease node of the lowest free id, then contacts ZooKeeper once more after
         * {@code serverTickTime / 2 + margin}, which opens the fence; so it takes about that long.
         *
         * @return the lease, held
         * @throws ZkMachineIdLeaseException if every id is taken, ZooKeeper cannot be reached, or the
         *     clocks differ by more than {@link #maxClockSkew(Duration)}
         * @throws IllegalArgumentException if the negotiated session timeout does not meet
         *     {@code sessionTimeout - 2 x maxClockSkew - margin >= 2 x contactEvery} and
         *     {@code contactEvery >= serverTickTime / 2 + margin}; the message names the numbers
         */
        public ZkMachineIdLease acquire() {
            String leases = path + "/leases";
            LeaseTimings timings = timings();
            try {
                client.createContainers(leases);
                for (int round = 0; round < 8; round++) {
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
                        try {
                            claim = createNode(client, leases + "/" + id, owner, clock);
                        } catch (KeeperException.NodeExistsException e) {
                            continue; // another client was faster
                        }
                        return claimed(id, claim, timings);
                    }
                    if (!anyFree) {
                        break;
                    }
                }
                throw new ZkMachineIdLeaseException("Every machine id 0.." + maxMachineId + " under " + leases
                        + " is held by a live session; free one or widen the range");
            } catch (ZkMachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new ZkMachineIdLeaseException("Could not claim a machine id under " + leases + ": " + e, e);
            }
        }

        /** The timings for the client's negotiated session timeout, checked before anything is claimed. */
        private LeaseTimings timings() {
            long session;
            try {
                if (!client.getZookeeperClient().isConnected()) {
                    throw new ZkMachineIdLeaseException("The Curator client is not connected to ZooKeeper; start it"
                            + " and wait until it is (blockUntilConnected) before claiming a machine id");
                }
                session = client.getZookeeperClient().getZooKeeper().getSessionTimeout();
            } catch (ZkMachineIdLeaseException e) {
                throw e;
            } catch (Exception e) {
                throw new ZkMachineIdLeaseException("Could not read the negotiated session timeout: " + e, e);
            }
            ContactFence probe = new ContactFence(maxClockSkew.toMillis(), margin.toMillis(), serverTick.toMillis());
            return LeaseTimings.of(session, maxClockSkew.toMillis(), margin.toMillis(), probe.lagMillis(session),
                    contactEvery.toMillis());
        }

        private ZkMachineIdLease claimed(long id, Claim claim, LeaseTimings timings) throws Exception {
            long mark = Math.max(readMark(client, path, id), claimMark(claim.mtime, maxClockSkew.toMillis()));
            ZkMachineIdLease lease = new ZkMachineIdLease(this, id, claim, timings, mark);
            if (Math.abs(claim.skew) > maxClockSkew.toMillis()) {
                lease.close();
                throw new ZkMachineIdLeaseException("The local clock is " + claim.skew + " ms from ZooKeeper's (node "
                        + path + "/leases/" + id + "), beyond the allowed " + maxClockSkew.toMillis()
                        + " ms; fix the clock (NTP) before claiming a machine id");
            }
            LOG.info("Claimed machine id {} under {} (session 0x{}, high-water mark {}, clock skew {} ms, contact"
                    + " every {} ms)", id, path, Long.toHexString(claim.session), mark, claim.skew,
                    timings.contactEveryMillis());
            try {
                lease.start();
            } catch (Exception e) {
                lease.close();
                throw e;
            }
            return lease;
        }

        private static String defaultOwner() {
            String host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                host = "host";
            }
            return host + "/" + ProcessHandle.current().pid() + "/"
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        }
    }
}
