package dev.idgen.testkit.stress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StressHarnessTest {

    private static StressHarness harness(int threads, int ids) {
        return StressHarness.builder().threads(threads).idsPerThread(ids).timeout(Duration.ofSeconds(30)).build();
    }

    @Test
    void collectsEveryIdOfACorrectGenerator() {
        AtomicLong counter = new AtomicLong();
        LongIdGenerator ids = counter::incrementAndGet;
        StressResult r = harness(4, 5_000).run(ids);
        assertEquals(20_000, r.totalIds());
        assertEquals(4, r.threads());
        long[] all = r.allIds();
        java.util.Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            assertEquals(i + 1, all[i]);
        }
        assertTrue(r.idsPerSecond() > 0);
        assertTrue(r.toString().startsWith("20000 ids from 4 threads on 1 generator(s) in "), r.toString());
    }

    @Test
    void threadsShareOutSeveralGenerators() {
        AtomicLong even = new AtomicLong();
        AtomicLong odd = new AtomicLong();
        LongIdGenerator a = () -> 2 * even.incrementAndGet();
        LongIdGenerator b = () -> 2 * odd.incrementAndGet() + 1;
        StressResult r = harness(4, 1_000).run(List.of(a, b));
        assertEquals(2, r.generators());
        assertEquals(0, r.ids(0)[0] % 2, "thread 0 uses generator 0");
        assertEquals(1, r.ids(3)[0] % 2, "thread 3 uses generator 1");
        assertEquals(2_000, even.get());
    }

    @Test
    void failsOnADuplicate() {
        AtomicLong counter = new AtomicLong();
        LongIdGenerator twice = () -> counter.getAndIncrement() / 2; // every value comes out twice
        AssertionError e = assertThrows(AssertionError.class, () -> harness(2, 100).run(twice));
        assertTrue(e.getMessage().startsWith("duplicate id "), e.getMessage());
    }

    @Test
    void failsWhenAThreadSeesIdsGoDown() {
        AtomicLong counter = new AtomicLong();
        LongIdGenerator down = () -> -counter.incrementAndGet();
        AssertionError e = assertThrows(AssertionError.class, () -> harness(2, 100).run(down));
        assertTrue(e.getMessage().startsWith("thread 0 (generator 0): ids not strictly increasing at index 1"),
                e.getMessage());
        StressHarness unordered = StressHarness.builder().threads(2).idsPerThread(100).increasingPerThread(false).build();
        assertEquals(200, unordered.run(down).totalIds());
    }

    @Test
    void reportsAGeneratorThatThrows() {
        AtomicLong counter = new AtomicLong();
        LongIdGenerator failing = () -> {
            if (counter.incrementAndGet() > 50) {
                throw new IllegalStateException("lease lost");
            }
            return counter.get();
        };
        AssertionError e = assertThrows(AssertionError.class, () -> harness(1, 100).run(failing));
        assertEquals("thread 0 failed after 50 of 100 ids: java.lang.IllegalStateException: lease lost", e.getMessage());
    }

    @Test
    void stopsARunThatDoesNotFinishInTime() {
        // never returns until interrupted, as a generator spinning for a clock that does not move
        LongIdGenerator stuck = () -> {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
            throw new IllegalStateException("interrupted");
        };
        StressHarness quick = StressHarness.builder().threads(2).idsPerThread(10).timeout(Duration.ofMillis(200)).build();
        AssertionError e = assertThrows(AssertionError.class, () -> quick.run(stuck));
        assertEquals("run did not finish within PT0.2S; ids made per thread (of 10): [0, 0]", e.getMessage());
    }

    @Test
    void runsUuidGenerators() {
        AtomicLong counter = new AtomicLong();
        IdGenerator<UUID> ordered = () -> new UUID(0x8000_0000_0000_0000L, counter.incrementAndGet());
        UuidStressResult r = harness(3, 1_000).runUuids(ordered);
        assertEquals(3_000, r.totalIds());
        assertEquals(1_000, r.uuids(2).size());
        IdGenerator<UUID> same = () -> new UUID(1, 1);
        AssertionError e = assertThrows(AssertionError.class, () -> harness(1, 2).runUuids(same));
        assertTrue(e.getMessage().startsWith("thread 0: uuids not strictly increasing"), e.getMessage());
        StressHarness unordered = StressHarness.builder().threads(2).idsPerThread(2).increasingPerThread(false).build();
        AssertionError dup = assertThrows(AssertionError.class, () -> unordered.runUuids(same));
        assertTrue(dup.getMessage().startsWith("duplicate uuid 00000000-0000-0001-0000-000000000001"), dup.getMessage());
    }

    @Test
    void refusesBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> StressHarness.builder().threads(0));
        assertThrows(IllegalArgumentException.class, () -> StressHarness.builder().idsPerThread(0));
        assertThrows(IllegalArgumentException.class, () -> StressHarness.builder().timeout(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> harness(1, 1).run(List.of()));
        assertArrayEquals(new long[] {1}, harness(1, 1).run(() -> 1L).ids(0));
    }
}
