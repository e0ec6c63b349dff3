package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.LeaseSettings;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The lease's conversation with ZooKeeper, and nothing else: claim (create the ephemeral lease
 * node), renew (a contact: a versioned write of that node), read and raise the mark node, release
 * (delete the node), and the arithmetic of what a contact proves. ZooKeeper lets only one create of
 * a node succeed, so two claimers never hold one id; every write returns the leader's
 * {@code mtime}, which the lease compares with the local clock read before and after.
 *
 * <p>Nodes under the namespace {@code root}:
 * <ul>
 *   <li>{@code root/leases/<id>}, ephemeral: {@code owner=}, {@code started=}, {@code nonce=} (a
 *       random 64-bit number, new on every write, in hex) and {@code offset=} (the writer's fence
 *       offset, ms). Every contact is a versioned {@code setData} carrying a fresh nonce: the
 *       version is the compare-and-set, so of two writers holding the same version (two copies of
 *       one process image share session and version) only one succeeds; the nonce names the writer,
 *       so a copy that reads the node afterwards tells its own write (one whose answer was lost)
 *       from the other copy's, which the version alone cannot.</li>
 *   <li>{@code root/marks/<id>}, persistent: {@code mark=} (the id's high-water mark, Unix ms),
 *       {@code offset=} and {@code skew=} (the fence offset and skew bound of the id's last
 *       claimer, ms; the next claimer starts below its claim by no more than that skew bound, see
 *       {@link #claimMark}). These outlive the session, so
 *       the next holder finds them after the ephemeral node is gone; a node holding only a decimal
 *       number (the format before) is read as a mark with no offset. Versioned writes; a mark is
 *       never recorded above the server's clock plus the writer's skew bound, so a bad clock cannot
 *       lock the id out.</li>
 * </ul>
 * Contacts and marks go to the raw ZooKeeper handle, so no Curator retry hides a long wait.
 * Thread-safe (no state but configuration).
 */
final class ZkLeaseProtocol {

    private final CuratorFramework client;
    private final String root;
    private final String owner;
    private final InstantSource clock;
    private final long fenceOffset;
    private final long maxSkew;
    /** Not a seeded generator: copies of one process image must not draw the same nonces. */
    private static final SecureRandom NONCES = new SecureRandom();

    /** The offset a node written before offsets were recorded holds: none. */
    static final long NO_OFFSET = -1;

    /**
     * @param fenceOffset this writer's {@code maxClockSkew + safetyMargin}, recorded with each claim
     * @param maxSkew this writer's {@code maxClockSkew}, recorded with each claim
     */
    ZkLeaseProtocol(CuratorFramework client, String root, String owner, InstantSource clock, long fenceOffset,
            long maxSkew) {
        this.client = client;
        this.root = root;
        this.owner = owner;
        this.clock = clock;
        this.fenceOffset = fenceOffset;
        this.maxSkew = maxSkew;
    }

    long fenceOffset() {
        return fenceOffset;
    }

    /** {@return a fresh nonce} */
    static long newNonce() {
        return NONCES.nextLong();
    }

    /** {@return what the lease node holds: owner, start, nonce and fence offset} */
    byte[] leaseData(long startedMillis, long nonce) {
        return ("owner=" + owner + "\nstarted=" + Instant.ofEpochMilli(startedMillis) + "\nnonce="
                + Long.toHexString(nonce) + "\noffset=" + fenceOffset + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** {@return the nonce in a lease node's data, or {@code null} if it holds none} */
    static Long nonceOf(byte[] data) {
        String v = field(data, "nonce");
        return v == null ? null : Long.parseUnsignedLong(v, 16);
    }

    /**
     * The persistent record of an id.
     *
     * @param mark the high-water mark, Unix ms, or {@link MachineIdLease#NO_MARK}
     * @param offset the fence offset of the id's last claimer, ms, or {@link #NO_OFFSET}
     * @param skew the skew bound of the id's last claimer, ms, or {@link #NO_OFFSET}
     */
    record MarkRecord(long mark, long offset, long skew) {
        byte[] bytes() {
            return ((mark == MachineIdLease.NO_MARK ? "" : "mark=" + mark + "\n")
                    + (offset == NO_OFFSET ? "" : "offset=" + offset + "\n")
                    + (skew == NO_OFFSET ? "" : "skew=" + skew + "\n")).getBytes(StandardCharsets.US_ASCII);
        }

        static MarkRecord parse(byte[] data) {
            if (data == null || data.length == 0) {
                return new MarkRecord(MachineIdLease.NO_MARK, NO_OFFSET, NO_OFFSET);
            }
            String text = new String(data, StandardCharsets.US_ASCII).strip();
            if (!text.contains("=")) {
                return new MarkRecord(text.isEmpty() ? MachineIdLease.NO_MARK : Long.parseLong(text), NO_OFFSET,
                        NO_OFFSET);
            }
            String m = field(data, "mark");
            String o = field(data, "offset");
            String k = field(data, "skew");
            return new MarkRecord(m == null ? MachineIdLease.NO_MARK : Long.parseLong(m),
                    o == null ? NO_OFFSET : Long.parseLong(o), k == null ? NO_OFFSET : Long.parseLong(k));
        }

        /**
         * How far past the server's clock a mark may lie: the larger of the reader's skew bound and
         * the recorded claimer's, so a holder with a wider bound than the reader's keeps its marks.
         */
        long ceilingAbove(long maxSkewMillis) {
            return Math.max(maxSkewMillis, skew == NO_OFFSET ? 0 : skew);
        }
    }

    private static String field(byte[] data, String name) {
        if (data == null) {
            return null;
        }
        for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith(name + "=")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        return null;
    }

    CuratorFramework client() {
        return client;
    }

    String root() {
        return root;
    }

    String owner() {
        return owner;
    }

    String leasePath(long id) {
        return root + "/leases/" + id;
    }

    /**
     * What creating a lease node told us: the first contact of a claim, and the node's identity.
     *
     * @param id the machine id
     * @param session the session that owns the node
     * @param version the node's version after the create
     * @param data what the node holds
     * @param nonce the nonce in {@code data}
     * @param startedMillis when the claim was made, local clock
     * @param mtime the leader's clock when it ordered the create
     * @param sentNanos the local monotonic clock just before the create
     * @param ackedNanos the local monotonic clock just after it was acknowledged
     * @param before the local wall clock just before the create
     * @param after the local wall clock just after it was acknowledged
     */
    record Claim(long id, long session, int version, byte[] data, long nonce, long startedMillis, long mtime, long sentNanos, long ackedNanos,
            long before, long after) {
        long skew() {
            return mtime - (before + (after - before) / 2);
        }
    }

    /**
     * What an acknowledged contact told us.
     *
     * @param session our session when the contact was sent
     * @param sessionTimeoutMillis that session's negotiated timeout
     * @param stat the node's state after the write
     * @param sentNanos the local monotonic clock just before the write
     * @param ackedNanos the local monotonic clock just after it was acknowledged
     * @param before the local wall clock just before the write
     * @param after the local wall clock just after it was acknowledged
     */
    record Contact(long session, long sessionTimeoutMillis, Stat stat, long sentNanos, long ackedNanos, long before, long after) {
        /** Whether the node is owned by the session the contact was sent on. */
        boolean ours(long expectedSession) {
            return session == expectedSession && stat.getEphemeralOwner() == session;
        }
    }

    /**
     * A mark write: the leader's clock when it ordered it, the local clock around it, and what the
     * node holds afterwards.
     */
    record MarkWrite(long mtime, long before, long after, MarkRecord recorded) {
    }

    /**
     * Creates the lease node of the lowest free id up to {@code maxMachineId}.
     *
     * @param beforeClaim runs with each free id before its node is created (tests)
     * @return the claim
     * @throws MachineIdLeaseException if every id is held by a live session, or the race for the free
     *     ones was lost more often than {@link LeaseSettings#claimRounds(long)} allows
     */
    Claim claimLowestFree(long maxMachineId, LongConsumer beforeClaim) throws Exception {
        String leases = root + "/leases";
        client.createContainers(leases);
        long rounds = LeaseSettings.claimRounds(maxMachineId);
        for (long round = 0; round < rounds; round++) {
            Set<Long> taken = new HashSet<>();
            for (String child : client.getChildren().forPath(leases)) {
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
                beforeClaim.accept(id);
                try {
                    return create(id);
                } catch (KeeperException.NodeExistsException e) {
                    // another client was faster
                }
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
    }

    /**
     * Creates the lease node of exactly {@code id}, for an id given by configuration.
     *
     * @return the claim
     * @throws MachineIdLeaseException naming the holder (its owner, start and session) if a live
     *     session holds the id
     */
    Claim claimExact(long id) throws Exception {
        client.createContainers(root + "/leases");
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return create(id);
            } catch (KeeperException.NodeExistsException e) {
                Stat stat = new Stat();
                byte[] data = readLease(id, stat);
                if (data == null) {
                    continue; // its holder went meanwhile: try again
                }
                String holder = new String(data, java.nio.charset.StandardCharsets.UTF_8).lines()
                        .filter(l -> l.startsWith("owner=") || l.startsWith("started=")).reduce((a, b) -> a + ", " + b)
                        .orElse("an unknown owner");
                throw new MachineIdLeaseException("Machine id " + id + " under " + root + "/leases is held by "
                        + holder + " (ZooKeeper session 0x" + Long.toHexString(stat.getEphemeralOwner())
                        + "); it is free once that session ends (within its session timeout after the holder"
                        + " stops). Give this process another id, or stop the holder");
            }
        }
        throw new MachineIdLeaseException("Lost the race for machine id " + id + " under " + root
                + "/leases three times over, each to another client; try again");
    }

    /**
     * Creates the ephemeral lease node of {@code id}.
     *
     * @throws KeeperException.NodeExistsException if another session holds it
     */
    Claim create(long id) throws Exception {
        long before = clock.millis();
        long nonce = newNonce();
        byte[] data = leaseData(before, nonce);
        Stat stat = new Stat();
        long sent = System.nanoTime();
        client.create().storingStatIn(stat).creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(leasePath(id), data);
        long acked = System.nanoTime();
        long after = clock.millis();
        return new Claim(id, stat.getEphemeralOwner(), stat.getVersion(), data, nonce, before, stat.getMtime(), sent,
                acked, before, after);
    }

    /**
     * One contact: writes the lease node at {@code version} (so only the writer of that version
     * succeeds), on the raw handle.
     *
     * @throws KeeperException.NoNodeException if the node is gone
     * @throws KeeperException.BadVersionException if another client wrote it
     */
    Contact contact(long id, byte[] data, int version) throws Exception {
        ZooKeeper zk = zookeeper();
        long session = zk.getSessionId();
        long timeout = zk.getSessionTimeout();
        long before = clock.millis();
        long sent = System.nanoTime(); // before the request leaves: the server hears it later
        Stat stat = zk.setData(fullPath(leasePath(id)), data, version);
        long acked = System.nanoTime();
        long after = clock.millis();
        return new Contact(session, timeout, stat, sent, acked, before, after);
    }

    /** {@return the id of the current ZooKeeper session} */
    long sessionId() throws Exception {
        return zookeeper().getSessionId();
    }

    /** {@return the lease node's data, its state into {@code stat}; {@code null} if it does not exist} */
    byte[] readLease(long id, Stat stat) throws Exception {
        try {
            return zookeeper().getData(fullPath(leasePath(id)), false, stat);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** Sets a watch on the lease node (it fires once). */
    void watch(long id, CuratorWatcher watcher) throws Exception {
        client.checkExists().usingWatcher(watcher).forPath(leasePath(id));
    }

    /** Deletes the lease node if {@code session} owns it. */
    void release(long id, long session) throws Exception {
        ZooKeeper zk = zookeeper();
        Stat stat = zk.exists(fullPath(leasePath(id)), false);
        if (stat != null && stat.getEphemeralOwner() == session) {
            zk.delete(fullPath(leasePath(id)), stat.getVersion());
        }
    }

    /** Deletes the lease node whoever owns it, retried by Curator (a claim we give back at once). */
    void deleteGuaranteed(long id) throws Exception {
        client.delete().guaranteed().forPath(leasePath(id));
    }

    /** Reads the record of {@code id}, creating its node first so a close can record into it. */
    MarkRecord readMark(long id) throws Exception {
        String path = root + "/marks/" + id;
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                    .forPath(path, new byte[0]);
        } catch (KeeperException.NodeExistsException e) {
            // an earlier holder left it
        }
        return MarkRecord.parse(client.getData().forPath(path));
    }

    /**
     * Records {@code mark} for {@code id}, and with a claim this writer's fence offset and skew bound
     * (otherwise the recorded ones stay). The server's clock is read first by a versioned write of
     * the node as it is (a touch, whose {@code mtime} is at or before the second write's); the node
     * then gets {@code min(max(stored, mark), mtime + bound)} by a second write at the version the
     * touch left, {@code bound} the larger of this writer's skew bound and the recorded one
     * ({@link MarkRecord#ceilingAbove}). So the mark only rises, except that a mark beyond the
     * server's clock plus the bound, which no holder within its bound could have covered, comes down
     * to it: the record heals. Either write losing to another writer starts over.
     *
     * @param claim whether this write is a claim's: it records this writer's offset and skew bound
     * @return the second write's leader clock and the local clock around the touch
     */
    MarkWrite writeMark(long id, long mark, boolean claim) throws Exception {
        ZooKeeper zk = zookeeper();
        String path = fullPath(root + "/marks/" + id);
        for (;;) {
            Stat stat = new Stat();
            byte[] data = zk.getData(path, false, stat);
            MarkRecord stored = MarkRecord.parse(data);
            long before = clock.millis();
            try {
                Stat touched = zk.setData(path, data, stat.getVersion());
                long after = clock.millis();
                long ceiling = touched.getMtime() + stored.ceilingAbove(maxSkew);
                long target = Math.min(Math.max(stored.mark(), mark), ceiling);
                MarkRecord next = claim ? new MarkRecord(target, fenceOffset, maxSkew)
                        : new MarkRecord(target, stored.offset(), stored.skew());
                Stat written = zk.setData(path, next.bytes(), touched.getVersion());
                return new MarkWrite(written.getMtime(), before, after, next);
            } catch (KeeperException.BadVersionException e) {
                // another writer wrote meanwhile: read again
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
     * Where a new holder of an id starts (the last millisecond it must not issue). Two bounds:
     *
     * <ul>
     *   <li>the floor, {@code claimMtime - min(maxSkew, recordedSkew) - 1}: the earlier holder's
     *       IDs lay below its fence, {@code expiry - recordedSkew - recordedMargin}, and the node is
     *       created again only after that session expired, at an {@code mtime} no earlier than
     *       {@code expiry - recordedMargin} (the margin covers the leader's clock rate over one
     *       session). So {@code claimMtime - recordedSkew} is at or above that fence. The
     *       claimer's own skew bound alone would start below it when the earlier holder's bound was
     *       smaller (mixed settings); with nothing recorded (a node from before bounds were
     *       recorded) the claimer's own bound is taken, as it always was;</li>
     *   <li>the recorded mark, but no higher than {@code claimMtime + max(maxSkew, recordedSkew)}: a
     *       holder within its skew bound issued nothing beyond that, so a higher mark is a bad
     *       clock's and would lock the id out.</li>
     * </ul>
     * The start is the higher of the two.
     */
    static long claimMark(long claimMtime, long maxSkewMillis, MarkRecord recorded) {
        long skew = recorded.skew() == NO_OFFSET ? maxSkewMillis : Math.min(maxSkewMillis, recorded.skew());
        long floor = claimMtime - skew - 1;
        if (recorded.mark() == MachineIdLease.NO_MARK) {
            return floor;
        }
        return Math.max(floor, Math.min(recorded.mark(), claimMtime + recorded.ceilingAbove(maxSkewMillis)));
    }

    /** How long after a contact is acknowledged the next must be sent to confirm it. */
    static long lagMillis(long serverTickMillis, long sessionTimeoutMillis, long marginMillis) {
        long tick = serverTickMillis > 0 ? serverTickMillis : sessionTimeoutMillis / 2;
        return (tick + 1) / 2 + marginMillis;
    }

    private ZooKeeper zookeeper() throws Exception {
        return client.getZookeeperClient().getZooKeeper();
    }

    private String fullPath(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
    }
}
