package dev.idgen.lease.zookeeper;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import dev.idgen.machine.MachineIdLeaseException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Lease records in persistent znodes under one path: {@code <path>/namespace}, {@code <path>/ids/<n>}
 * (text, {@link ZkRecords}) and {@code <path>/clock}, which is written only to read the leader's clock.
 *
 * <p>Each method makes at most one write (one {@code setData}, {@code create} or multi-op), and a
 * write that depends on what was read is conditional on it. ZooKeeper orders every write at its
 * leader and refuses a {@code setData} whose expected version is not the znode's, so a
 * compare-and-set is: read the znode and its version, compare the nonce, write at that version. Every
 * write changes both the version and the nonce, so the write lands only on the record as compared:
 * the method is as atomic as one operation would be. A read may come from a follower
 * that lags, but never behind this session's own last write, and a stale read only makes the
 * versioned write fail. The requests go to the raw ZooKeeper handle: no Curator retry repeats a
 * write whose answer was lost (the life looks again instead), and none hides a long wait. Sessions
 * play no part: nothing is ephemeral, and a new session reads and writes the records as the old did.
 */
final class ZkLeaseStore implements LeaseStore {

    private static final byte[] EMPTY = new byte[0];

    private final CuratorFramework client;
    private final String path;
    private final InstantSource clock;

    /**
     * @param client a started Curator client
     * @param path the namespace's znode, e.g. {@code /idgen}
     * @param clock the local clock that brackets each reading of ZooKeeper's
     */
    ZkLeaseStore(CuratorFramework client, String path, InstantSource clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = Objects.requireNonNull(path, "path");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String describe() {
        return "under ZooKeeper path " + path;
    }

    /** The leader's clock: the {@code mtime} it stamps on a write of {@code <path>/clock} when it orders it. */
    @Override
    public StoreTime time() throws Exception {
        ZooKeeper zk = zk();
        String node = full("clock");
        for (;;) {
            long before = clock.millis();
            try {
                Stat stat = zk.setData(node, EMPTY, -1);
                return StoreTime.of(stat.getMtime(), before, clock.millis());
            } catch (KeeperException.NoNodeException e) {
                createPersistent(zk, node, EMPTY); // the first reading, or the path was deleted: read again
            }
        }
    }

    @Override
    public NamespaceRecord readNamespace() throws Exception {
        String node = full("namespace");
        try {
            return ZkRecords.namespace(node, zk().getData(node, false, null));
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    @Override
    public boolean createNamespace(NamespaceRecord namespace) throws Exception {
        ZooKeeper zk = zk();
        createPersistent(zk, full("ids"), EMPTY);
        try {
            zk.create(full("namespace"), ZkRecords.encode(namespace), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        }
    }

    /**
     * One multi-op: {@code setData} of the namespace at the version whose nonce was compared, and a
     * {@code create} of each absent id's znode. An id's znode created by another client since it was
     * read absent fails the whole (NodeExists), as a namespace written since does (BadVersion).
     */
    @Override
    public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws Exception {
        ZooKeeper zk = zk();
        String ns = full("namespace");
        Stat stat = new Stat();
        try {
            if (ZkRecords.namespace(ns, zk.getData(ns, false, stat)).nonce() != expectedNonce) {
                return false;
            }
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
        List<Op> ops = new ArrayList<>();
        ops.add(Op.setData(ns, ZkRecords.encode(next), stat.getVersion()));
        if (fromId <= toId) {
            byte[] data = ZkRecords.encode(initial);
            getEach(zk, fromId, toId, (id, found) -> {
                if (found == null) {
                    ops.add(Op.create(idPath(id), data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                }
            });
        }
        try {
            zk.multi(ops);
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException e) {
            return false;
        } catch (KeeperException.NoNodeException e) {
            createPersistent(zk, full("ids"), EMPTY); // the namespace went, or only <path>/ids did: look again
            return false;
        }
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws Exception {
        SortedMap<Long, LeaseRecord> records = new TreeMap<>();
        if (fromId <= toId) {
            getEach(zk(), fromId, toId, (id, found) -> {
                if (found != null) {
                    records.put(id, ZkRecords.lease(idPath(id), found.getData()));
                }
            });
        }
        return Collections.unmodifiableSortedMap(records);
    }

    @Override
    public boolean replace(long id, long expectedNonce, LeaseRecord next) throws Exception {
        ZooKeeper zk = zk();
        String node = idPath(id);
        Stat stat = new Stat();
        try {
            if (ZkRecords.lease(node, zk.getData(node, false, stat)).nonce() != expectedNonce) {
                return false;
            }
            zk.setData(node, ZkRecords.encode(next), stat.getVersion());
            return true;
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
            return false;
        }
    }

    /**
     * Refuses a path that holds leases of idgen before 0.1.0 ({@code <path>/leases/<id>}, ephemeral):
     * their holders do not see these records, nor these holders theirs, so both would use one id.
     */
    void refuseLeasesOfTheOldLayout() throws Exception {
        String old = full("leases");
        try {
            List<String> held = zk().getChildren(old, false);
            if (!held.isEmpty()) {
                throw new MachineIdLeaseException("Machine ids " + held + " under " + old + " are held by leases of"
                        + " idgen before 0.1.0 (ephemeral znodes), which do not see the records this version keeps"
                        + " under " + full("ids") + ": both would use one id. Stop the old processes first (their"
                        + " znodes go with their sessions), or give this lease another path");
            }
        } catch (KeeperException.NoNodeException e) {
            // no old leases
        }
    }

    /** Reads the znodes of ids {@code fromId..toId} in one read-only multi-op; an absent one is passed as null. */
    private void getEach(ZooKeeper zk, long fromId, long toId, IdResult each) throws Exception {
        List<Op> reads = new ArrayList<>();
        for (long id = fromId; id <= toId; id++) {
            reads.add(Op.getData(idPath(id)));
        }
        List<OpResult> results = zk.multi(reads);
        for (int i = 0; i < results.size(); i++) {
            OpResult r = results.get(i);
            if (r instanceof OpResult.GetDataResult found) {
                each.accept(fromId + i, found);
            } else if (r instanceof OpResult.ErrorResult e && e.getErr() == KeeperException.Code.NONODE.intValue()) {
                each.accept(fromId + i, null);
            } else if (r instanceof OpResult.ErrorResult e) {
                throw KeeperException.create(KeeperException.Code.get(e.getErr()), idPath(fromId + i));
            } else {
                throw new IllegalStateException("ZooKeeper answered a read of " + idPath(fromId + i) + " with " + r);
            }
        }
    }

    @FunctionalInterface
    private interface IdResult {
        void accept(long id, OpResult.GetDataResult found) throws Exception;
    }

    /** Creates {@code node} and any missing parent, all persistent; one that exists stays as it is. */
    private static void createPersistent(ZooKeeper zk, String node, byte[] data) throws Exception {
        try {
            zk.create(node, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // another client made it
        } catch (KeeperException.NoNodeException e) {
            createPersistent(zk, ZKPaths.getPathAndNode(node).getPath(), EMPTY);
            createPersistent(zk, node, data);
        }
    }

    private String idPath(long id) {
        return full("ids/" + id);
    }

    /** The full znode path of {@code <path>/<child>}, with the Curator client's namespace if it has one. */
    private String full(String child) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path + "/" + child);
    }

    private ZooKeeper zk() throws Exception {
        return client.getZookeeperClient().getZooKeeper();
    }
}
