package dev.idgen.segment.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.SegmentUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ZkSegmentSource} on a real, in-process ZooKeeper server (Curator's TestingServer). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZkSegmentSourceTest {

    private TestingServer server;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
    }

    @AfterEach
    void stop() throws Exception {
        Collections.reverse(cleanup);
        Exception failed = null; // every client closed, then the first failure fails the test
        for (AutoCloseable c : cleanup) {
            try {
                c.close();
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        server.close();
        if (failed != null) {
            throw failed;
        }
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                .sessionTimeoutMs(4000).connectionTimeoutMs(1000).retryPolicy(new RetryNTimes(3, 100)).build();
        c.start();
        assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));
        cleanup.add(c);
        return c;
    }

    @Test
    void grantsFromManyClientsAndThreadsNeverOverlapAndLeaveNoHole() throws Exception {
        int clients = 3;
        int threads = 4;
        int grants = 60;
        long step = 7;
        ExecutorService pool = Executors.newFixedThreadPool(clients * threads);
        try {
            List<Future<List<SegmentGrant>>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                ZkSegmentSource source = ZkSegmentSource.builder(client()).path("/seg-test").build();
                for (int t = 0; t < threads; t++) {
                    Callable<List<SegmentGrant>> task = () -> {
                        List<SegmentGrant> mine = new ArrayList<>();
                        for (int i = 0; i < grants; i++) {
                            mine.add(source.grant("orders", step));
                        }
                        return mine;
                    };
                    results.add(pool.submit(task));
                }
            }
            long[] firsts = new long[clients * threads * grants];
            int n = 0;
            for (Future<List<SegmentGrant>> f : results) {
                for (SegmentGrant g : f.get(60, TimeUnit.SECONDS)) {
                    assertEquals(step, g.size());
                    firsts[n++] = g.first();
                }
            }
            Arrays.sort(firsts);
            for (int i = 0; i < n; i++) {
                assertEquals(1 + i * step, firsts[i], "ranges tile 1.. with no overlap and no hole");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void eachGrantCarriesTheServersWriteTimeAndNowWritesTheClockNode() throws Exception {
        CuratorFramework c = client();
        ZkSegmentSource source = ZkSegmentSource.builder(c).path("/seg-time").build();
        long before = System.currentTimeMillis();
        SegmentGrant g = source.grant("invoices", 10);
        Instant now = source.now();
        long after = System.currentTimeMillis();
        // the in-process server shares this machine's clock, so its mtime falls inside the call
        assertTrue(g.storeTime().toEpochMilli() >= before - 5 && g.storeTime().toEpochMilli() <= after + 5, g.toString());
        assertTrue(now.toEpochMilli() >= g.storeTime().toEpochMilli() && now.toEpochMilli() <= after + 5, now.toString());
        assertEquals("10", new String(c.getData().forPath("/seg-time/invoices"), StandardCharsets.US_ASCII));
    }

    @Test
    void aServerRestartMidRunRepeatsNothingAndCallersFailOnlyOnceEveryRangeIsSpent() throws Exception {
        ZkSegmentSource source = ZkSegmentSource.builder(client()).path("/seg-restart").build();
        List<Long> got = new ArrayList<>();
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(50)
                .prefetch(1, 1).maxWait(Duration.ofMillis(300)).retryPause(Duration.ofMillis(20)).build()) {
            for (int i = 0; i < 120; i++) {
                got.add(g.nextLong());
            }
            server.stop();
            long left = g.numbersLeft();
            assertTrue(left > 0, "a range is held while the server is down");
            for (long i = 0; i < left; i++) {
                got.add(g.nextLong()); // what was fetched is handed out while the server is down
            }
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getMessage().contains("zookeeper path /seg-restart"), e.getMessage());
            assertTrue(e.getMessage().contains("'orders'"), e.getMessage());
            server.restart();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (got.size() < 400) {
                try {
                    got.add(g.nextLong());
                } catch (SegmentUnavailableException again) {
                    assertTrue(System.nanoTime() < end, "the generator never recovered: " + again.getMessage());
                }
            }
        }
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i) > got.get(i - 1), "increasing across the restart at " + i + ": " + got);
        }
    }

    @Test
    void badInputAndAForeignNodeAreNamed() throws Exception {
        CuratorFramework c = client();
        IllegalArgumentException path = assertThrows(IllegalArgumentException.class,
                () -> ZkSegmentSource.builder(c).path("relative/path"));
        assertTrue(path.getMessage().startsWith("path 'relative/path' is not a ZooKeeper path"), path.getMessage());
        c.create().creatingParentsIfNeeded().forPath("/seg-foreign/orders", "hello".getBytes(StandardCharsets.US_ASCII));
        ZkSegmentSource source = ZkSegmentSource.builder(c).path("/seg-foreign").build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> source.grant("orders", 5));
        assertEquals("znode /seg-foreign/orders holds 'hello', not a segment counter (the last number granted, 0 or"
                + " more); is another program using this path?", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> source.grant(" ", 5));
        assertThrows(IllegalArgumentException.class, () -> source.grant("orders", 0));
    }

    @Test
    void thePatternOfANameIsRecordedOnceBelowItsCounter() throws Exception {
        ZkSegmentSource source = ZkSegmentSource.builder(client()).path("/seg-pattern").build();
        assertEquals(3, source.grant("invoice", 3).last());
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMddNN"));
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMNNNN"), "the first one stays");
        assertEquals(4, source.grant("invoice", 1).first(), "recording left the counter alone");
        assertEquals("ORD-yyyy-NNN", source.recordPattern("order", "ORD-yyyy-NNN"));
        assertEquals(1, source.grant("order", 1).first(), "a node made by recording starts at 0");
    }
}
