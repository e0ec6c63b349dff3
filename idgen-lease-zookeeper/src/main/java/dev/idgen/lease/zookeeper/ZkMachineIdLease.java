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
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
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
 * <p><b>Fencing.</b> The lease is held only while Curator's connection is {@code CONNECTED} or
 * {@code RECONNECTED} with the session that created the node. On {@code SUSPENDED} (no answer from
 * the server for two thirds of the session timeout, when the ZooKeeper client gives up on the
 * connection) or {@code LOST}, {@link #isHeld()} turns false at once. The server cannot expire the
 * session, and so cannot let anyone else create the node, before the full session timeout has passed
 * without hearing from the client, so the fence comes about a third of the session timeout early.
 * After {@code RECONNECTED} the node is checked: still ours (same session), the lease is held again;
 * gone, the lease creates it again as soon as it is free; taken by another holder, it stays fenced
 * and keeps trying. A deleted node (an operator) fences too.
 *
 * <p><b>High-water mark.</b> The persistent node {@code <path>/marks/<id>} keeps the last Unix
 * millisecond any holder of the id covered with an ID, raised (never lowered, by versioned writes)
 * from the generator's {@link MachineIdUser#highWaterMark()} every {@link Builder#markEvery(Duration)}
 * and on {@link #close()}. A new holder reads it after creating the lease node and its generator
 * starts above it.
 *
 * <p><b>Clock skew.</b> Every write (the lease node, each mark) returns the server's modification
 * time ({@code mtime}); the difference from the local clock is {@link #clockSkew()}. Beyond
 * {@link Builder#maxClockSkew(Duration)} a claim fails and a held lease is fenced until the clocks
 * agree again.
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
    private final ConnectionStateListener listener = this::stateChanged;
    private final ScheduledExecutorService worker;
    private final Object lock = new Object();
    /** Counts connection-state events; a decision to hold made under an older count is void. */
    private final AtomicLong epoch = new AtomicLong();

    /** What generators read on every ID. Set true only after the mark of the id is applied. */
    private volatile boolean held;
    private volatile boolean connected = true;
    private volatile boolean skewOk = true;
    private volatile boolean nodeOurs = true;
    private volatile long sessionId;
    private final LeaseMark highWater;
    private volatile long skewMillis;
    private volatile String state = "held";
    private volatile boolean closed;

    private ZkMachineIdLease(Builder b, long machineId, long sessionId, long mark, long skew) {
        this.client = b.client;
        this.root = b.path;
        this.machineId = machineId;
        this.owner = b.owner;
        this.maxSkewMillis = b.maxClockSkew.toMillis();
        this.clock = b.clock;
        this.retryMillis = b.retryEvery.toMillis();
        this.sessionId = sessionId;
        this.highWater = new LeaseMark("machine id " + machineId + " under " + root, mark);
        this.skewMillis = skew;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idgen-lease-zk-" + machineId);
            t.setDaemon(true);
            return t;
        });
        this.held = true;
        highWater.fenceFrom(Long.MAX_VALUE); // interim: the fence follows the held flag
    }

    /**
     * A builder for leases under {@code client}, which must be started. The client's session
     * timeout sets how fast the lease fences: keep it a few seconds.
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

    @Override
    public boolean isHeld() {
        return held;
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

    /** @return the owner string stored in the lease node */
    public String owner() {
        return owner;
    }

    /**
     * Records the generator's high-water mark now and re-checks the clock skew (the lease does this
     * every {@link Builder#markEvery(Duration)} on its own).
     *
     * @return whether the lease is held afterwards
     */
    public boolean recordMarkNow() {
        synchronized (lock) {
            if (closed || !connected || !nodeOurs) {
                return false;
            }
            try {
                long skew = writeMark(highWater.toRecord());
                skewMillis = skew;
                skewOk = Math.abs(skew) <= maxSkewMillis;
                update("the local clock is " + skew + " ms from ZooKeeper's, beyond the allowed " + maxSkewMillis + " ms");
            } catch (Exception e) {
                LOG.warn("Recording the high-water mark of machine id {} under {} failed: {}", machineId, root,
                        e.toString());
            }
            return held;
        }
    }

    /**
     * Fences the generator, records its high-water mark and deletes the lease node so the id is
     * free at once. Stop making IDs first: a call that passed the lease check just before may still
     * finish with an ID.
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
            highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
        }
        client.getConnectionStateListenable().removeListener(listener);
        worker.shutdownNow();
        try {
            if (nodeOurs && connected) {
                writeMark(highWater.toRecord());
                Stat stat = client.checkExists().forPath(leasePath());
                if (stat != null && stat.getEphemeralOwner() == sessionId) {
                    client.delete().withVersion(stat.getVersion()).forPath(leasePath());
                }
                LOG.info("Released machine id {} under {} (high-water mark {})", machineId, root, highWater.millis());
            }
        } catch (Exception e) {
            LOG.warn("Releasing machine id {} under {} failed; it frees itself when the session ends: {}",
                    machineId, root, e.toString());
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper lease on machine id " + machineId + " at " + leasePath() + " by " + owner + ", " + state;
    }

    private String leasePath() {
        return root + "/leases/" + machineId;
    }

    /**
     * Held is the conjunction of the conditions; turning true applies the mark first. A
     * connection-state event that lands while this runs (it fences without taking the lock) bumps
     * the epoch, and the re-check after the write undoes a hold decided before it.
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
        state = ok ? "held" : "fenced: " + why;
        held = ok;
        highWater.fenceFrom(ok ? Long.MAX_VALUE : Long.MIN_VALUE); // interim: the fence follows the held flag
        if (ok && epoch.get() != seen) {
            state = "fenced: the ZooKeeper connection changed while checking";
            held = false;
            highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
        }
    }

    private void stateChanged(CuratorFramework c, ConnectionState s) {
        epoch.incrementAndGet();
        switch (s) {
            case SUSPENDED, LOST -> {
                // first thing, on Curator's event thread: no ID may be made from here on
                connected = false;
                state = "fenced: ZooKeeper connection " + s;
                held = false;
                highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
                LOG.warn("Machine id {} under {} is fenced: ZooKeeper connection {}", machineId, root, s);
            }
            case CONNECTED, RECONNECTED -> worker.execute(this::revalidate);
            default -> {
                // READ_ONLY: writes impossible, treat as suspended
                connected = false;
                state = "fenced: ZooKeeper connection " + s;
                held = false;
                highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
            }
        }
    }

    /** After a reconnection: is the node still ours? If gone, create it again; then hold. */
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
                } else if (stat == null) {
                    long skew = createNode(client, leasePath(), owner, clock);
                    sessionId = session;
                    skewMillis = skew;
                    skewOk = Math.abs(skew) <= maxSkewMillis;
                    highWater.raiseTo(readMark(client, root, machineId));
                    LOG.info("Claimed machine id {} under {} again (high-water mark {})", machineId, root, highWater.millis());
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

    private void start(Duration markEvery) throws Exception {
        client.getConnectionStateListenable().addListener(listener);
        if (!client.getZookeeperClient().isConnected()) {
            // the connection dropped before the listener was in place: fence, wait for RECONNECTED
            connected = false;
            state = "fenced: ZooKeeper connection lost while claiming";
            held = false;
            highWater.fenceFrom(Long.MIN_VALUE); // interim: the fence follows the held flag
        }
        watchNode();
        long every = markEvery.toMillis();
        worker.scheduleWithFixedDelay(() -> {
            try {
                recordMarkNow();
            } catch (RuntimeException e) {
                LOG.warn("Recording the high-water mark of machine id {} under {} failed", machineId, root, e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /** Raises the mark node to at least {@code mark} by versioned writes; returns the measured skew. */
    private long writeMark(long mark) throws Exception {
        String path = root + "/marks/" + machineId;
        for (;;) {
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            long stored = parseMark(data);
            long target = Math.max(stored, mark);
            highWater.raiseTo(target);
            long before = clock.millis();
            try {
                Stat written = client.setData().withVersion(stat.getVersion())
                        .forPath(path, Long.toString(target).getBytes(StandardCharsets.US_ASCII));
                long after = clock.millis();
                return written.getMtime() - (before + (after - before) / 2);
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

    /** Creates the ephemeral lease node; returns the skew measured from its mtime. */
    private static long createNode(CuratorFramework client, String path, String owner, InstantSource clock)
            throws Exception {
        long before = clock.millis();
        byte[] data = ("owner=" + owner + "\nstarted=" + Instant.ofEpochMilli(before) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Stat stat = new Stat();
        client.create().storingStatIn(stat).creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(path, data);
        long after = clock.millis();
        return stat.getMtime() - (before + (after - before) / 2);
    }

    /** Configures and acquires a {@link ZkMachineIdLease}. Not thread-safe. */
    public static final class Builder {
        private final CuratorFramework client;
        private String path = "/idgen";
        private long maxMachineId = 1023;
        private Duration maxClockSkew = Duration.ofSeconds(1);
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
         * @param max the largest difference allowed between the local clock and ZooKeeper's; default 1 s
         * @return this builder
         */
        public Builder maxClockSkew(Duration max) {
            if (max.isNegative()) {
                throw new IllegalArgumentException("maxClockSkew must not be negative");
            }
            this.maxClockSkew = max;
            return this;
        }

        /**
         * @param every how often the high-water mark is recorded and the skew checked; default 5 s
         * @return this builder
         */
        public Builder markEvery(Duration every) {
            if (every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("markEvery must be positive");
            }
            this.markEvery = every;
            return this;
        }

        /**
         * @param every the pause between attempts to claim the id again after losing it; default 500 ms
         * @return this builder
         */
        public Builder retryEvery(Duration every) {
            if (every.isNegative() || every.isZero()) {
                throw new IllegalArgumentException("retryEvery must be positive");
            }
            this.retryEvery = every;
            return this;
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
         * Creates the lease node of the lowest free id.
         *
         * @return the lease, held
         * @throws ZkMachineIdLeaseException if every id is taken, ZooKeeper cannot be reached, or the
         *     clocks differ by more than {@link #maxClockSkew(Duration)}
         */
        public ZkMachineIdLease acquire() {
            String leases = path + "/leases";
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
                        long skew;
                        try {
                            skew = createNode(client, leases + "/" + id, owner, clock);
                        } catch (KeeperException.NodeExistsException e) {
                            continue; // another client was faster
                        }
                        return claimed(id, skew);
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

        private ZkMachineIdLease claimed(long id, long skew) throws Exception {
            long session = client.getZookeeperClient().getZooKeeper().getSessionId();
            long mark = readMark(client, path, id);
            ZkMachineIdLease lease = new ZkMachineIdLease(this, id, session, mark, skew);
            if (Math.abs(skew) > maxClockSkew.toMillis()) {
                lease.close();
                throw new ZkMachineIdLeaseException("The local clock is " + skew + " ms from ZooKeeper's (node "
                        + path + "/leases/" + id + "), beyond the allowed " + maxClockSkew.toMillis()
                        + " ms; fix the clock (NTP) before claiming a machine id");
            }
            LOG.info("Claimed machine id {} under {} (session 0x{}, high-water mark {}, clock skew {} ms)", id, path,
                    Long.toHexString(session), mark, skew);
            lease.start(markEvery);
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
