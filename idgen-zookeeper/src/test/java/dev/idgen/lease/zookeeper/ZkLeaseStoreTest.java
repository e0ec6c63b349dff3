package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import dev.idgen.machine.MachineIdLeaseException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ZkLeaseStore} on a real, in-process ZooKeeper server: each operation does what
 * {@code InMemoryLeaseStore} does, in znodes that no session owns. Each test has a path of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZkLeaseStoreTest {

    private static ZkTestServer zk;
    private static CuratorFramework client;

    @BeforeAll
    static void start() throws Exception {
        zk = new ZkTestServer();
        client = zk.client();
    }

    @AfterAll
    static void stop() throws Exception {
        zk.close();
    }

    private static ZkLeaseStore store(String path) {
        return new ZkLeaseStore(client, path, InstantSource.system());
    }

    /** {@return a store at {@code path} with the namespace record ("L", nonce 2) and records of ids 0..highestId, nonce 5} */
    private static ZkLeaseStore withIds(String path, long highestId) throws Exception {
        ZkLeaseStore store = store(path);
        assertTrue(store.createNamespace(new NamespaceRecord("L", -1, 1, Long.MIN_VALUE)));
        assertTrue(store.extend(1, new NamespaceRecord("L", highestId, 2, Long.MIN_VALUE), 0, highestId,
                LeaseRecord.unclaimed(5, LeaseRecord.NEVER)));
        return store;
    }

    private static LeaseRecord held(String owner, long nonce) {
        return new LeaseRecord(owner, 1, nonce, 1_800_000_003_000L, 1_800_000_000_500L, 1_200);
    }

    @Test
    void theNamespaceRecordIsWrittenOnceAndExtendedOnlyAtTheNonceRead() throws Exception {
        ZkLeaseStore store = store("/store-namespace");
        assertNull(store.readNamespace());
        NamespaceRecord first = new NamespaceRecord("time-machine-sequence 41/10/12 tick 1 ms epoch 0", -1, 7,
                Long.MIN_VALUE);
        assertTrue(store.createNamespace(first));
        assertFalse(store.createNamespace(new NamespaceRecord("other", -1, 8, 0)), "a second create loses");
        assertEquals(first, store.readNamespace());

        LeaseRecord initial = LeaseRecord.unclaimed(11, LeaseRecord.NEVER);
        NamespaceRecord upTo3 = new NamespaceRecord(first.layout(), 3, 9, Long.MIN_VALUE);
        assertFalse(store.extend(8, upTo3, 0, 3, initial), "a nonce not the namespace's");
        assertEquals(Map.of(), store.read(0, 10));
        assertTrue(store.extend(7, upTo3, 0, 3, initial));
        assertEquals(upTo3, store.readNamespace());
        assertEquals(Map.of(0L, initial, 1L, initial, 2L, initial, 3L, initial), store.read(0, 10));

        // ids that exist stay as they are; the absent ones are created
        LeaseRecord mine = held("A", 12);
        assertTrue(store.replace(2, 11, mine));
        NamespaceRecord upTo5 = new NamespaceRecord(first.layout(), 5, 10, Long.MIN_VALUE);
        assertTrue(store.extend(9, upTo5, 2, 5, LeaseRecord.unclaimed(13, 99)));
        assertEquals(Map.of(0L, initial, 1L, initial, 2L, mine, 3L, initial, 4L, LeaseRecord.unclaimed(13, 99),
                5L, LeaseRecord.unclaimed(13, 99)), store.read(0, 5));

        // an empty range replaces only the namespace record
        NamespaceRecord named = new NamespaceRecord("named", 5, 14, Long.MIN_VALUE);
        assertTrue(store.extend(10, named, 0, -1, initial));
        assertEquals(named, store.readNamespace());
    }

    @Test
    void anExtendFailsWhenTheNamespaceRecordIsGone() throws Exception {
        ZkLeaseStore store = store("/store-gone");
        assertFalse(store.extend(1, new NamespaceRecord("x", 0, 2, 0), 0, 0, LeaseRecord.unclaimed(3, 0)));
        assertNull(store.readNamespace());
        assertEquals(Map.of(), store.read(0, 0));
    }

    @Test
    void aRecordIsReplacedOnlyWhereItStillHasTheNonce() throws Exception {
        ZkLeaseStore store = withIds("/store-replace", 1);
        LeaseRecord a = held("A", 6);
        assertFalse(store.replace(0, 4, a), "not the record's nonce");
        assertTrue(store.replace(0, 5, a));
        assertFalse(store.replace(0, 5, held("B", 7)), "the same nonce a second time");
        assertFalse(store.replace(7, 5, a), "an id with no record");
        LeaseRecord owner = new LeaseRecord("a name\nwith a newline and = signs", 2, -6, 1, 2, 3);
        assertTrue(store.replace(0, 6, owner));
        assertEquals(Map.of(0L, owner, 1L, LeaseRecord.unclaimed(5, LeaseRecord.NEVER)), store.read(0, 1));
    }

    @Test
    void theRecordsArePersistentZnodesOfText() throws Exception {
        ZkLeaseStore store = withIds("/store-text", 0);
        assertTrue(store.replace(0, 5, new LeaseRecord("api-7", 4, 5, 1_800_000_003_000L, 1_800_000_000_500L, 1_200)));
        Stat stat = new Stat();
        String text = new String(client.getData().storingStatIn(stat).forPath("/store-text/ids/0"),
                StandardCharsets.UTF_8);
        assertEquals("token=4\nnonce=5\nexpires=1800000003000\nmark=1800000000500\noffset=1200\nowner=api-7\n", text);
        assertEquals(0, stat.getEphemeralOwner(), "no session owns a record");
        text = new String(client.getData().storingStatIn(stat).forPath("/store-text/namespace"), StandardCharsets.UTF_8);
        assertEquals("highestId=0\nnonce=2\ntrustedFrom=-9223372036854775808\nlayout=L\n", text);
        assertEquals(0, stat.getEphemeralOwner());
    }

    @Test
    void aZnodeThatHoldsNoRecordIsNamedWithWhatItHolds() throws Exception {
        ZkLeaseStore store = store("/store-foreign");
        assertTrue(store.createNamespace(new NamespaceRecord("x", 0, 1, Long.MIN_VALUE)));
        client.create().forPath("/store-foreign/ids/0", "42".getBytes(StandardCharsets.UTF_8));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.read(0, 0));
        assertEquals("The znode /store-foreign/ids/0 holds '42', not an idgen lease record (expected the line"
                + " token=...); is another program using this path? Give the lease a path of its own", e.getMessage());
    }

    @Test
    void theTimeIsTheLeadersClockWhenItOrderedAWriteOfTheClockZnode() throws Exception {
        ZkLeaseStore store = store("/store-time");
        StoreTime first = store.time(); // creates the clock znode
        StoreTime t = store.time();
        // the in-process server reads the same system clock as the test
        assertTrue(t.localBeforeMillis() <= t.storeMillis() && t.storeMillis() <= t.localAfterMillis(), t.toString());
        assertTrue(t.storeMillis() >= first.storeMillis(), first + " then " + t);
        assertTrue(t.hasClock());
        client.delete().deletingChildrenIfNeeded().forPath("/store-time");
        StoreTime again = store.time(); // the clock znode is made again
        assertTrue(again.storeMillis() >= t.storeMillis());
        assertEquals(0, client.checkExists().forPath("/store-time/clock").getEphemeralOwner());
    }

    @Test
    void aCuratorNamespaceIsPrefixedToEveryZnode() throws Exception {
        try (CuratorFramework scoped = CuratorFrameworkFactory.builder().connectString(zk.server().getConnectString())
                .namespace("tenant").retryPolicy(new RetryOneTime(100)).build()) {
            scoped.start();
            assertTrue(scoped.blockUntilConnected(20, TimeUnit.SECONDS));
            ZkLeaseStore store = new ZkLeaseStore(scoped, "/scoped", InstantSource.system());
            assertTrue(store.createNamespace(new NamespaceRecord("x", -1, 1, Long.MIN_VALUE)));
            store.time();
            assertEquals(List.of("clock", "ids", "namespace"),
                    client.getChildren().forPath("/tenant/scoped").stream().sorted().toList());
        }
    }

    @Test
    void aPathHoldingLeasesOfTheOldLayoutIsRefusedUntilTheirSessionsEnd() throws Exception {
        CuratorFramework old = zk.client();
        old.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/store-old/leases/3");
        old.create().creatingParentsIfNeeded().forPath("/store-old/marks/3", "1800000000000".getBytes(
                StandardCharsets.US_ASCII));
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> ZkTestServer.lease(client, "/store-old").acquire());
        assertEquals("Machine ids [3] under /store-old/leases are held by leases of idgen before 0.1.0 (ephemeral"
                + " znodes), which do not see the records this version keeps under /store-old/ids: both would use"
                + " one id. Stop the old processes first (their znodes go with their sessions), or give this lease"
                + " another path", e.getMessage());
        old.close(); // its session ends, its ephemeral znode goes
        ZkTestServer.await("the old lease's znode is gone", ZkTestServer.TTL,
                () -> exists("/store-old/leases/3") == null);
        store("/store-old").refuseLeasesOfTheOldLayout();
    }

    private static Stat exists(String path) {
        try {
            return client.checkExists().forPath(path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
