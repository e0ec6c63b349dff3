package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.LeaseSettings;
import java.nio.charset.StandardCharsets;
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
 * <p>Nodes under the namespace {@code root}: {@code root/leases/<id>}, ephemeral, holds the owner's
 * name and start; {@code root/marks/<id>}, persistent, the id's high-water mark in decimal Unix
 * milliseconds, only ever raised (versioned writes). Contacts and marks go to the raw ZooKeeper
 * handle, so no Curator retry hides a long wait. Thread-safe (no state but configuration).
 */
final class ZkLeaseProtocol {

    private final CuratorFramework client;
    private final String root;
    private final String owner;
    private final InstantSource clock;

    ZkLeaseProtocol(CuratorFramework client, String root, String owner, InstantSource clock) {
        this.client = client;
        this.root = root;
        this.owner = owner;
        this.clock = clock;
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
     * @param data what the node holds; contacts write it again
     * @param mtime the leader's clock when it ordered the create
     * @param sentNanos the local monotonic clock just before the create
     * @param ackedNanos the local monotonic clock just after it was acknowledged
     * @param before the local wall clock just before the create
     * @param after the local wall clock just after it was acknowledged
     */
    record Claim(long id, long session, int version, byte[] data, long mtime, long sentNanos, long ackedNanos,
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

    /** A mark write: the leader's clock when it ordered it, and the local clock around it. */
    record MarkWrite(long mtime, long before, long after) {
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
     * Creates the ephemeral lease node of {@code id}.
     *
     * @throws KeeperException.NodeExistsException if another session holds it
     */
    Claim create(long id) throws Exception {
        long before = clock.millis();
        byte[] data = ("owner=" + owner + "\nstarted=" + Instant.ofEpochMilli(before) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        Stat stat = new Stat();
        long sent = System.nanoTime();
        client.create().storingStatIn(stat).creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(leasePath(id), data);
        long acked = System.nanoTime();
        long after = clock.millis();
        return new Claim(id, stat.getEphemeralOwner(), stat.getVersion(), data, stat.getMtime(), sent, acked, before,
                after);
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

    /** {@return the lease node's state, or {@code null} if it does not exist} */
    Stat leaseNode(long id) throws Exception {
        return client.checkExists().forPath(leasePath(id));
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

    /** Reads the mark of {@code id}, creating its node first so a close can record into it. */
    long readMark(long id) throws Exception {
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
     * Raises the mark node of {@code id} to at least {@code mark} by versioned writes; never lowers
     * it.
     *
     * @return the leader's clock on the write that succeeded, with the local clock around it
     */
    MarkWrite writeMark(long id, long mark) throws Exception {
        ZooKeeper zk = zookeeper();
        String path = fullPath(root + "/marks/" + id);
        for (;;) {
            Stat stat = new Stat();
            long stored = parseMark(zk.getData(path, false, stat));
            long target = Math.max(stored, mark);
            long before = clock.millis();
            try {
                Stat written = zk.setData(path, Long.toString(target).getBytes(StandardCharsets.US_ASCII),
                        stat.getVersion());
                return new MarkWrite(written.getMtime(), before, clock.millis());
            } catch (KeeperException.BadVersionException e) {
                // another writer raised it meanwhile: read again
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

    private ZooKeeper zookeeper() throws Exception {
        return client.getZookeeperClient().getZooKeeper();
    }

    private String fullPath(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
    }

    private static long parseMark(byte[] data) {
        if (data == null || data.length == 0) {
            return MachineIdLease.NO_MARK;
        }
        return Long.parseLong(new String(data, StandardCharsets.US_ASCII).strip());
    }
}
