package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RedisLeaseStore} against the machine's Redis, operation by operation, as
 * {@code InMemoryLeaseStore} behaves: what each script writes, what it leaves alone, and that the
 * 64-bit numbers come back exactly (a script that computed with them would round them to doubles).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisLeaseStoreTest {

    /** 2^53 and 2^53 + 1 are one double: a script that compared them as numbers would take one for the other. */
    private static final long TWO_53 = 1L << 53;

    private TestRedis redis;
    private RedisLeaseStore store;
    private RedisCommands<String, String> sync;

    @BeforeEach
    void connect() {
        redis = TestRedis.shared("store");
        store = new RedisLeaseStore(redis.connect(), redis.prefix, InstantSource.system(), Duration.ofSeconds(5));
        sync = redis.connect().sync();
    }

    @AfterEach
    void cleanUp() {
        redis.close();
    }

    private static LeaseRecord record(String owner, long nonce) {
        return new LeaseRecord(owner, 3, nonce, 1_800_000_000_000L, Long.MIN_VALUE, 700);
    }

    @Test
    void theNamespaceRecordIsWrittenOnceAndReadBackAsWritten() throws Exception {
        assertNull(store.readNamespace(), "a prefix no lease used has no namespace record");
        NamespaceRecord ns = new NamespaceRecord("epoch=1288834974657 tick=1ms time41|machine10|seq12 'x'", -1,
                Long.MIN_VALUE + 1, Long.MIN_VALUE);
        assertTrue(store.createNamespace(ns));
        assertEquals(ns, store.readNamespace());
        assertFalse(store.createNamespace(new NamespaceRecord("other", 5, 9, 0)), "written once");
        assertEquals(ns, store.readNamespace());
        assertEquals(Map.of("layout", ns.layout(), "highestId", "-1", "nonce", Long.toString(Long.MIN_VALUE + 1),
                "trustedFrom", Long.toString(Long.MIN_VALUE)), sync.hgetall("{" + redis.prefix + "}namespace"));
    }

    @Test
    void extendReplacesTheNamespaceWhereItsNonceMatchesAndCreatesOnlyTheMissingRecords() throws Exception {
        assertFalse(store.extend(5, new NamespaceRecord("L", 1, 6, 0), 0, 1, record("", 11)),
                "no namespace record: nothing to extend");
        assertEquals(0, sync.exists(store.namespaceKey(), store.idKey(0), store.idKey(1)));

        store.createNamespace(new NamespaceRecord("L", -1, TWO_53, Long.MIN_VALUE));
        assertFalse(store.extend(TWO_53 + 1, new NamespaceRecord("L", 1, 6, 0), 0, 1, record("", 11)),
                "another nonce, one a double cannot tell from it");
        assertEquals(new NamespaceRecord("L", -1, TWO_53, Long.MIN_VALUE), store.readNamespace());
        assertEquals(Map.of(), store.read(0, 1023));

        assertTrue(store.extend(TWO_53, new NamespaceRecord("L", 1, 6, 0), 0, 1, record("", 11)));
        assertEquals(new NamespaceRecord("L", 1, 6, 0), store.readNamespace());
        assertEquals(Map.of(0L, record("", 11), 1L, record("", 11)), store.read(0, 1023));
        assertTrue(store.replace(1, 11, record("holder", 12)));

        assertTrue(store.extend(6, new NamespaceRecord("L", 3, 7, 0), 0, 3, record("", 13)));
        assertEquals(Map.of(0L, record("", 11), 1L, record("holder", 12), 2L, record("", 13), 3L, record("", 13)),
                store.read(0, 3), "the records that existed are left as they were");
        assertTrue(store.extend(7, new NamespaceRecord("M", 3, 8, 0), 0, -1, record("", 14)), "no id: the namespace only");
        assertEquals(new NamespaceRecord("M", 3, 8, 0), store.readNamespace());
        assertEquals(4, store.read(0, 1023).size());
        assertThrows(IllegalArgumentException.class,
                () -> store.extend(8, new NamespaceRecord("M", 64, 9, 0), 0, 64, record("", 15)));
    }

    @Test
    void replaceComparesAllSixtyFourBitsOfTheNonceAndNeverCreatesARecord() throws Exception {
        assertFalse(store.replace(0, 1, record("a", 2)), "no record");
        assertEquals(0, sync.exists(store.idKey(0)));
        store.createNamespace(new NamespaceRecord("L", -1, 1, Long.MIN_VALUE));
        store.extend(1, new NamespaceRecord("L", 0, 2, Long.MIN_VALUE), 0, 0, record("", TWO_53));
        assertFalse(store.replace(0, TWO_53 + 1, record("a", 5)));
        assertTrue(store.replace(0, TWO_53, record("a", Long.MAX_VALUE)));
        assertFalse(store.replace(0, TWO_53, record("b", 6)), "the nonce moved on");
        LeaseRecord extreme = new LeaseRecord("ü/ß \"quoted\"", Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE,
                Long.MAX_VALUE, 0);
        assertTrue(store.replace(0, Long.MAX_VALUE, extreme));
        assertEquals(extreme, store.read(0, 0).get(0L));
    }

    @Test
    void readGivesTheRecordsThatExistOfUpTo1024Ids() throws Exception {
        store.createNamespace(new NamespaceRecord("L", -1, 1, Long.MIN_VALUE));
        for (int chunk = 0; chunk < 3; chunk++) {
            long from = 64L * chunk;
            assertTrue(store.extend(chunk + 1, new NamespaceRecord("L", from + 63, chunk + 2, 0), from, from + 63,
                    record("", 100 + chunk)));
        }
        sync.del(store.idKey(7));
        SortedMap<Long, LeaseRecord> all = store.read(0, 1023);
        assertEquals(191, all.size());
        assertFalse(all.containsKey(7L));
        assertEquals(record("", 102), all.get(191L));
        assertEquals(List.of(5L, 6L, 8L), List.copyOf(store.read(5, 8).keySet()));
        assertEquals(Map.of(), store.read(9, 8));
        assertThrows(IllegalArgumentException.class, () -> store.read(0, 1024));
    }

    @Test
    void everyKeyOfAPrefixIsInOneHashSlotAndNoneExpires() throws Exception {
        store.createNamespace(new NamespaceRecord("L", -1, 1, Long.MIN_VALUE));
        store.extend(1, new NamespaceRecord("L", 63, 2, 0), 0, 63, record("", 1));
        int slot = SlotHash.getSlot(store.namespaceKey());
        assertEquals(slot, SlotHash.getSlot(store.idKey(0)));
        assertEquals(slot, SlotHash.getSlot(store.idKey(Integer.MAX_VALUE)));
        assertEquals("{" + redis.prefix + "}17", store.idKey(17));
        assertEquals(-1, sync.pttl(store.namespaceKey()), "no time to live");
        assertEquals(-1, sync.pttl(store.idKey(63)), "no time to live");
    }

    @Test
    void timeIsRedissClockBracketedByTheLocalOneWithTheRestartWhenThereIsNoAppendOnlyFile() throws Exception {
        long redisBefore = redisNow();
        StoreTime t = store.time();
        long redisAfter = redisNow();
        assertTrue(t.storeMillis() >= redisBefore && t.storeMillis() <= redisAfter,
                redisBefore + " <= " + t.storeMillis() + " <= " + redisAfter);
        assertTrue(t.localBeforeMillis() <= t.localAfterMillis());
        assertTrue(t.hasClock());
        String persistence = sync.info("persistence");
        long uptime = Long.parseLong(field(sync.info("server"), "uptime_in_seconds"));
        if (field(persistence, "aof_enabled").equals("1")) {
            assertEquals(Long.MIN_VALUE, t.restartedAtMillis(), "an append-only file keeps what was acknowledged");
        } else {
            // a second later than uptime_in_seconds says, as that can run a second ahead of the real uptime
            long restarted = t.storeMillis() - t.restartedAtMillis();
            assertTrue(restarted >= (uptime - 2) * 1000 && restarted <= uptime * 1000,
                    "restarted " + restarted + " ms ago, uptime_in_seconds " + uptime);
        }
    }

    @Test
    void aHashNotWrittenByTheLeaseIsNamedNotMisread() throws Exception {
        sync.hset(store.idKey(4), Map.of("owner", "x", "token", "1", "nonce", "abc", "expires", "0", "mark", "0",
                "fenceOffset", "0"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.read(0, 10));
        assertEquals("Redis hash {" + redis.prefix + "}4 holds 'abc' as its field nonce, not a whole number: it was"
                + " not written by this lease; delete it or use another key prefix", e.getMessage());
    }

    private long redisNow() {
        List<String> t = sync.time();
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + info);
    }
}
