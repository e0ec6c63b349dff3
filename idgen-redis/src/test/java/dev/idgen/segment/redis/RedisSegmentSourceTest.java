package dev.idgen.segment.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import dev.idgen.segment.SegmentUnavailableException;
import dev.idgen.testsupport.Missing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redis segment store on the machine's real Redis, under a key prefix of this class and run. */
class RedisSegmentSourceTest {

    private static final String URI = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    private final String prefix = "idgen:test:segment:" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8)
            + ":";
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    @BeforeEach
    void connect() {
        RedisURI uri = RedisURI.create(URI);
        uri.setTimeout(Duration.ofSeconds(5));
        client = RedisClient.create(uri);
        try {
            connection = client.connect();
            connection.sync().ping();
        } catch (RuntimeException e) {
            client.shutdown();
            throw Missing.server("Redis", URI + " does not answer: " + e.getMessage(), Missing.apt("redis-server"));
        }
    }

    @AfterEach
    void cleanUp() {
        if (connection != null) {
            List<String> keys = connection.sync().keys(prefix + "*");
            if (!keys.isEmpty()) {
                connection.sync().del(keys.toArray(String[]::new));
            }
            connection.close();
        }
        client.shutdown();
    }

    private RedisSegmentSource source() {
        return RedisSegmentSource.builder(connection).keyPrefix(prefix).allowLossyStore(true).build();
    }

    @Test
    void grantsFromManyThreadsNeverOverlapAndLeaveNoHole() throws Exception {
        RedisSegmentSource source = source();
        int threads = 4;
        int grantsEach = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<SegmentGrant>>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                List<SegmentGrant> mine = new ArrayList<>();
                for (int i = 0; i < grantsEach; i++) {
                    mine.add(source.grant("orders", 9));
                }
                return mine;
            }));
        }
        start.countDown();
        List<SegmentGrant> all = new ArrayList<>();
        for (Future<List<SegmentGrant>> f : futures) {
            all.addAll(f.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        all.sort(Comparator.comparingLong(SegmentGrant::first));
        long expectedFirst = 1;
        for (SegmentGrant g : all) {
            assertEquals(expectedFirst, g.first(), "ranges overlap or leave a hole at " + g);
            assertEquals(9, g.size());
            expectedFirst = g.last() + 1;
        }
        assertEquals(threads * grantsEach * 9L, expectedFirst - 1);
        assertEquals(String.valueOf(expectedFirst - 1), connection.sync().get(prefix + "orders"),
                "the key holds the last number granted");
    }

    @Test
    void twoGeneratorsWithTwoThreadsEachGetDistinctNumbers() throws Exception {
        RedisSegmentSource source = source();
        int each = 100_000;
        ExecutorService fetcher = Executors.newFixedThreadPool(2);
        List<SegmentGenerator> gens = List.of(
                SegmentGenerator.builder().source(source).name("orders").step(100).executor(fetcher)
                        .maxWait(Duration.ofSeconds(10)).build(),
                SegmentGenerator.builder().source(source).name("orders").step(100).executor(fetcher)
                        .maxWait(Duration.ofSeconds(10)).build());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<long[]>> futures = new ArrayList<>();
        for (SegmentGenerator g : gens) {
            for (int t = 0; t < 2; t++) {
                futures.add(pool.submit(() -> {
                    long[] mine = new long[each];
                    for (int i = 0; i < each; i++) {
                        mine[i] = g.nextLong();
                    }
                    return mine;
                }));
            }
        }
        long[] all = new long[4 * each];
        int k = 0;
        for (Future<long[]> f : futures) {
            long[] mine = f.get(120, TimeUnit.SECONDS);
            for (int i = 1; i < mine.length; i++) {
                assertTrue(mine[i] > mine[i - 1], "a thread saw " + mine[i - 1] + " then " + mine[i]);
            }
            System.arraycopy(mine, 0, all, k, each);
            k += each;
        }
        pool.shutdown();
        gens.forEach(SegmentGenerator::close);
        fetcher.shutdown();
        assertTrue(fetcher.awaitTermination(30, TimeUnit.SECONDS));
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            assertTrue(all[i] != all[i - 1], "repeated " + all[i]);
        }
        long granted = Long.parseLong(connection.sync().get(prefix + "orders"));
        assertTrue(all[0] >= 1 && all[all.length - 1] <= granted);
        assertEquals(granted, all.length + gens.get(0).numbersLeft() + gens.get(1).numbersLeft(),
                "granted = handed out + still held");
    }

    @Test
    void theServersTimeComesBackWithEachGrant() {
        RedisSegmentSource source = source();
        Instant before = Instant.now();
        SegmentGrant g = source.grant("clock", 1);
        Instant now = source.now();
        // the server runs on this machine: its clock agrees with ours to well within a minute
        assertTrue(Duration.between(before, g.storeTime()).abs().toSeconds() < 60, g.storeTime() + " vs " + before);
        assertTrue(!now.isBefore(g.storeTime()), now + " before " + g.storeTime());
    }

    @Test
    void anUnreachableServerFailsWithinTheTimeoutNamingKeyAndStore() {
        {
            // a connection that was up and was closed: every command is refused
            StatefulRedisConnection<String, String> c = client.connect();
            RedisSegmentSource source = RedisSegmentSource.builder(c).keyPrefix(prefix)
                    .timeout(Duration.ofMillis(300)).allowLossyStore(true).build();
            c.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> source.grant("orders", 5));
            assertTrue(e.getMessage().contains("'orders'") && e.getMessage().contains("INCRBY " + prefix + "orders")
                    && e.getMessage().contains("redis key prefix " + prefix), e.getMessage());
            // and a generator over it, with nothing buffered, says so once its wait is spent
            try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(5)
                    .maxWait(Duration.ofMillis(200)).retryPause(Duration.ofMillis(50)).build()) {
                SegmentUnavailableException u = assertThrows(SegmentUnavailableException.class, g::nextLong);
                assertTrue(u.getMessage().contains("redis key prefix " + prefix), u.getMessage());
            }
        }
    }

    @Test
    void badInputIsNamed() {
        RedisSegmentSource.Builder b = RedisSegmentSource.builder(connection);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.keyPrefix("a b")).getMessage()
                .contains("key prefix 'a b' must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.timeout(Duration.ZERO)).getMessage()
                .contains("timeout PT0S is out of range"));
        assertThrows(IllegalArgumentException.class, () -> source().grant("orders", 0));
    }

    @Test
    void theSharedServerWithoutPersistenceIsRefusedNamingTheSetting() {
        // the machine's Redis keeps nothing on disk (.ci/run starts it with appendonly no, save "")
        RedisSegmentSource strict = RedisSegmentSource.builder(connection).keyPrefix(prefix).build();
        SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                () -> strict.grant("orders", 5));
        assertTrue(e.getMessage().startsWith("redis key prefix " + prefix + " is refused: it may lose a grant after"
                + " acknowledging it, and numbers would then repeat: appendonly is no (the counters live in memory"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("Change the setting, or accept such a store with allowLossyStore(true)"),
                e.getMessage());
        assertTrue(connection.sync().keys(prefix + "*").isEmpty(), "nothing written before the refusal");
        assertThrows(SegmentStoreRefusedException.class, strict::checkStore, "checkStore says the same at start-up");
    }

    @Test
    void aCounterLostWhileTheNamespaceRecordKeepsItIsRefusedNamingTheValue() {
        RedisSegmentSource source = source();
        assertEquals(1000, source.grant("orders", 1000).last());
        assertEquals("1000", connection.sync().hget(prefix, "counter:orders"), "the namespace record follows");
        connection.sync().del(prefix + "orders"); // deleted, evicted: the record is still there
        SegmentStoreRefusedException e = assertThrows(SegmentStoreRefusedException.class,
                () -> source.grant("orders", 1000));
        assertEquals("redis counter 'orders' (key " + prefix + "orders) is missing, but the namespace record " + prefix
                + " says it granted up to 1000: the key was deleted, evicted or lost while the record was kept."
                + " Numbers up to 1000 may be in use, so none are granted; set the key to at least 1000 (SET " + prefix
                + "orders 1000) to go on", e.getMessage());
        assertEquals(0, connection.sync().exists(prefix + "orders"), "the refusal wrote nothing");

        connection.sync().set(prefix + "orders", "400"); // set back by hand: below the record
        SegmentStoreRefusedException back = assertThrows(SegmentStoreRefusedException.class,
                () -> source.grant("orders", 1000));
        assertTrue(back.getMessage().contains("is at 400, below the namespace record " + prefix + " says it granted up"
                + " to 1000: it was set back"), back.getMessage());

        connection.sync().set(prefix + "orders", "1000"); // what the message says to do
        assertEquals(1001, source.grant("orders", 10).first());
        connection.sync().set(prefix + "orders", "5000"); // raised by hand (after a restore, say): followed
        assertEquals(5001, source.grant("orders", 10).first());
        assertEquals("5010", connection.sync().hget(prefix, "counter:orders"));
        assertEquals(1, source.grant("other", 1).first(), "a name never used starts at 1");
    }

    @Test
    void countersNearTheTopAreCopiedWithoutLosingDigits() {
        RedisSegmentSource source = source();
        long high = SegmentGrant.MAX_LAST - 10; // far above 2^53, where Lua's numbers lose digits
        connection.sync().set(prefix + "big", Long.toString(high));
        SegmentGrant g = source.grant("big", 3);
        assertEquals(high + 1, g.first());
        assertEquals(high + 3, g.last());
        assertEquals(Long.toString(high + 3), connection.sync().hget(prefix, "counter:big"));
        assertEquals(high + 4, source.grant("big", 1).first());
    }

    @Test
    void thePatternOfANameIsRecordedOnce() {
        RedisSegmentSource source = source();
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMddNN"));
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMNNNN"));
        assertEquals("INVyyyyMMddNN", connection.sync().hget(prefix, "pattern:invoice"));
        assertEquals(1, source.grant("invoice", 1).first(), "a pattern is no counter");
    }
}
