package dev.idgen.segment.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.segment.BusinessNumberFormat;
import dev.idgen.segment.BusinessNumberGenerator;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.SegmentUnavailableException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link EtcdSegmentSource} on a real, private etcd server. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EtcdSegmentSourceTest {

    private static EtcdCluster etcd;
    private static final List<Client> CLIENTS = new ArrayList<>();

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.start(1);
    }

    @AfterAll
    static void stopEtcd() {
        CLIENTS.forEach(Client::close);
        if (etcd != null) {
            etcd.close();
        }
    }

    private static Client client() {
        Client c = Client.builder().endpoints(etcd.endpoints()).build();
        CLIENTS.add(c);
        return c;
    }

    @Test
    void grantsFromManyClientsAndThreadsNeverOverlapAndLeaveNoHole() throws Exception {
        int clients = 3;
        int threads = 3;
        int grants = 40;
        long step = 11;
        ExecutorService pool = Executors.newFixedThreadPool(clients * threads);
        try {
            List<Future<List<SegmentGrant>>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                EtcdSegmentSource source = EtcdSegmentSource.builder(client()).namespace("/seg-tile").build();
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
            String stored = client().getKVClient().get(ByteSequence.from("/seg-tile/orders", StandardCharsets.UTF_8))
                    .get(10, TimeUnit.SECONDS).getKvs().get(0).getValue().toString(StandardCharsets.UTF_8);
            assertEquals(Long.toString(n * step), stored);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aServerKilledAndRestartedMidRunRepeatsNothingAndCallersFailOnlyOnceEveryRangeIsSpent() throws Exception {
        EtcdSegmentSource source = EtcdSegmentSource.builder(client()).namespace("/seg-restart")
                .timeout(Duration.ofMillis(500)).build();
        List<Long> got = new ArrayList<>();
        try (SegmentGenerator g = SegmentGenerator.builder().source(source).name("orders").step(50)
                .prefetch(1, 1).maxWait(Duration.ofMillis(700)).retryPause(Duration.ofMillis(50)).build()) {
            for (int i = 0; i < 120; i++) {
                got.add(g.nextLong());
            }
            etcd.kill(0);
            long left = g.numbersLeft();
            assertTrue(left > 0, "a range is held while the server is down");
            for (long i = 0; i < left; i++) {
                got.add(g.nextLong());
            }
            SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::nextLong);
            assertTrue(e.getMessage().contains("etcd namespace /seg-restart"), e.getMessage());
            etcd.restart(0);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (got.size() < 400) {
                try {
                    got.add(g.nextLong());
                } catch (SegmentUnavailableException again) {
                    assertTrue(System.nanoTime() < end, "the generator never recovered: " + again.getMessage());
                }
            }
        }
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i) > got.get(i - 1), "increasing across the restart at " + i);
        }
    }

    @Test
    void businessNumbersAreRefusedBecauseEtcdTellsNoTime() {
        EtcdSegmentSource source = EtcdSegmentSource.builder(client()).namespace("/seg-business").build();
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(source).name("invoices")
                .format(BusinessNumberFormat.builder().prefix("INV").group(dev.idgen.segment.DateGroup.DAY).width(6).build())
                .build();
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertTrue(e.getMessage().contains("could not read the clock of etcd namespace /seg-business"), e.getMessage());
    }

    @Test
    void badInputIsNamed() {
        Client c = client();
        IllegalArgumentException ns = assertThrows(IllegalArgumentException.class,
                () -> EtcdSegmentSource.builder(c).namespace("/trailing/"));
        assertTrue(ns.getMessage().startsWith("namespace '/trailing/' must be"), ns.getMessage());
        EtcdSegmentSource source = EtcdSegmentSource.builder(c).build();
        assertThrows(IllegalArgumentException.class, () -> source.grant("orders", 0));
    }

    @Test
    void thePatternOfANameIsRecordedOnce() {
        EtcdSegmentSource source = EtcdSegmentSource.builder(client()).namespace("/seg-pattern").build();
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMddNN"));
        assertEquals("INVyyyyMMddNN", source.recordPattern("invoice", "INVyyyyMMNNNN"), "the first one stays");
        assertEquals("ORD-yyyy-NNN", source.recordPattern("order", "ORD-yyyy-NNN"));
        assertEquals(1, source.grant("invoice", 1).first(), "a pattern is no counter");
    }
}
