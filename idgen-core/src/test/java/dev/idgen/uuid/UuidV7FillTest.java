package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.random.RandomSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link UuidV7Generator#fill(UUID[])}. */
class UuidV7FillTest {

    private static final long T0 = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();
    private static final Comparator<UUID> ORDER = Uuids.unsignedOrder();

    private static long millisOf(UUID u) {
        return u.getMostSignificantBits() >>> 16;
    }

    private static long counterOf(UUID u) {
        return (u.getMostSignificantBits() & 0xFFF) << 4 | (u.getLeastSignificantBits() >>> 58 & 0xF);
    }

    @Test
    void aFillIsConsecutiveCountersWithFreshRandomBitsAcrossARollover() {
        ScriptedClock clock = new ScriptedClock(1_000_000, T0);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(3)).build();
        UUID before = ids.next();
        UUID[] out = new UUID[70_000]; // more than one ms holds (at most 65,536)
        ids.fill(out);
        assertTrue(ORDER.compare(before, out[0]) < 0);
        assertEquals(counterOf(before) + 1, counterOf(out[0]));
        Set<Long> randomBits = new HashSet<>();
        for (int i = 0; i < out.length; i++) {
            UUID u = out[i];
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            randomBits.add(u.getLeastSignificantBits() & ((1L << 58) - 1));
            if (i > 0) {
                UUID p = out[i - 1];
                assertTrue(ORDER.compare(p, u) < 0, "at " + i);
                if (millisOf(p) == millisOf(u)) {
                    assertEquals(counterOf(p) + 1, counterOf(u), "at " + i);
                } else {
                    assertEquals(0xFFFF, counterOf(p), "moves on only when the ms is used up");
                    assertEquals(millisOf(p) + 1, millisOf(u));
                    assertTrue(counterOf(u) < 1 << 15);
                }
            }
        }
        assertEquals(T0 + 1, millisOf(out[out.length - 1]), "ran ahead into the next ms");
        assertEquals(out.length, randomBits.size(), "58 random bits fresh for each UUID");
        assertTrue(ORDER.compare(out[out.length - 1], ids.next()) < 0);
    }

    @Test
    void aFillWithoutMonotonicOrderCarriesTheClock() {
        ScriptedClock clock = new ScriptedClock(1_000_000, T0);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).monotonic(false)
                .randomness(RandomSource.seeded(4)).build();
        UUID[] out = new UUID[50];
        ids.fill(out);
        Set<UUID> distinct = new HashSet<>(List.of(out));
        assertEquals(50, distinct.size());
        for (UUID u : out) {
            assertEquals(T0, millisOf(u));
            assertEquals(7, u.version());
        }
    }

    @Test
    void blocksFromManyThreadsNeverOverlap() throws Exception {
        int threads = 4;
        int perThread = 30_000;
        ScriptedClock clock = ScriptedClock.creeping(T0, 40);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(5))
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5))).build();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<UUID>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int size = 1 + 17 * t;
                results.add(pool.submit((Callable<List<UUID>>) () -> {
                    List<UUID> mine = new ArrayList<>(perThread);
                    start.await();
                    while (mine.size() < perThread) {
                        UUID[] block = new UUID[size];
                        ids.fill(block);
                        mine.addAll(List.of(block));
                    }
                    return mine;
                }));
            }
            start.countDown();
            Set<UUID> all = new HashSet<>();
            int total = 0;
            for (Future<List<UUID>> f : results) {
                List<UUID> mine = f.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < mine.size(); i++) {
                    assertTrue(ORDER.compare(mine.get(i - 1), mine.get(i)) < 0, "a thread's UUIDs increase at " + i);
                }
                all.addAll(mine);
                total += mine.size();
            }
            assertEquals(total, all.size(), "no UUID twice");
        } finally {
            pool.shutdownNow();
        }
    }
}
