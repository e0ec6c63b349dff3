package dev.idgen.ulid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.random.RandomSource;
import dev.idgen.uuid.UuidV7Generator;
import dev.idgen.uuid.Uuids;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UlidGeneratorTest {

    private static final long T0 = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();
    private static final long SEED = 0x0_1D_5EEDL;
    private static final Comparator<UUID> ORDER = Uuids.unsignedOrder();

    private static long counterOf(UUID ulid) {
        return ulid.getMostSignificantBits() & 0xFFFF;
    }

    private static UlidGenerator generator(TestClock clock, ClockBackwardsPolicy policy) {
        return UlidGenerator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).onClockBackwards(policy).build();
    }

    private static void assertIncreasing(UUID before, UUID after) {
        assertTrue(ORDER.compare(before, after) < 0, Ulids.toString(before) + " then " + Ulids.toString(after));
        assertTrue(Ulids.toString(before).compareTo(Ulids.toString(after)) < 0, "as text too");
    }

    @Test
    void frontDoorGivesASecureRunAheadGenerator() {
        UlidGenerator ids = IdGenerators.ulid();
        assertEquals(RandomSource.secure(), ids.randomness());
        assertEquals(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(10)), ids.policy());
        UUID a = ids.next();
        UUID b = ids.next();
        assertIncreasing(a, b);
        assertEquals(a, Ulids.parse(Ulids.toString(a)));
    }

    @Test
    void fieldsAreTheClockACounterAndFreshRandomBits() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        UUID a = ids.next();
        UUID b = ids.next();
        UUID c = ids.next();
        clock.set(T0 + 1);
        UUID d = ids.next();
        assertEquals(T0, Ulids.timestamp(a));
        assertEquals(T0, Ulids.timestamp(c));
        assertEquals(T0 + 1, Ulids.timestamp(d));
        assertEquals(Instant.ofEpochMilli(T0), Ulids.time(b));
        assertEquals(counterOf(a) + 1, counterOf(b), "same ms: the counter goes up by one");
        assertEquals(counterOf(b) + 1, counterOf(c));
        assertTrue(counterOf(a) < 1 << 15, "a new ms starts its counter below 2^15: " + counterOf(a));
        assertTrue(counterOf(d) < 1 << 15, "a new ms starts its counter below 2^15: " + counterOf(d));
        Set<Long> randoms = new HashSet<>(List.of(a.getLeastSignificantBits(), b.getLeastSignificantBits(),
                c.getLeastSignificantBits(), d.getLeastSignificantBits()));
        assertEquals(4, randoms.size(), "64 random bits fresh for every ULID");
        assertIncreasing(a, b);
        assertIncreasing(c, d);
    }

    @Test
    void theCounterStartsAtDifferentPlacesInDifferentMilliseconds() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        Set<Long> starts = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            clock.set(T0 + i);
            long counter = counterOf(ids.next());
            assertTrue(counter < 1 << 15, "below 2^15: " + counter);
            starts.add(counter);
        }
        assertTrue(starts.size() > 40, "random starts, seldom equal: " + starts.size() + " distinct of 50");
    }

    @Test
    void aCounterRolloverRunsIntoTheNextMillisecondAhead() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        UUID last = ids.next();
        int calls = 1;
        while (counterOf(last) != 0xFFFF) {
            UUID next = ids.next();
            assertEquals(T0, Ulids.timestamp(next));
            assertEquals(counterOf(last) + 1, counterOf(next));
            last = next;
            calls++;
        }
        assertTrue(calls >= 32_769, "at least 32,769 ULIDs fit one ms: " + calls);
        UUID rolled = ids.next(); // the clock still reads T0
        assertEquals(T0 + 1, Ulids.timestamp(rolled), "takes the next ms, ahead of the clock");
        assertTrue(counterOf(rolled) < 1 << 15);
        assertIncreasing(last, rolled);
        assertEquals(1, ids.clockStats().runAheads());
    }

    @Test
    void aCounterRolloverWaitsForTheClockUnderRefuse() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        UUID last = ids.next();
        while (counterOf(last) != 0xFFFF) {
            last = ids.next();
        }
        clock.afterEachRead(m -> m + 1); // the clock moves on while the generator waits
        UUID next = ids.next();
        assertEquals(T0 + 1, Ulids.timestamp(next));
        assertIncreasing(last, next);
        assertEquals(0, ids.clockStats().runAheads(), "never ahead of the clock under refuse");
    }

    @Test
    void aStepBackIsRefusedUnderRefuse() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        UUID a = ids.next();
        clock.set(T0 - 5);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::next);
        assertEquals(5, e.millisBehind());
        assertEquals(1, ids.clockStats().refusals());
        clock.set(T0);
        assertIncreasing(a, ids.next());
    }

    @Test
    void aStepBackIsWaitedOutUnderWaitUpTo() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(10)));
        UUID a = ids.next();
        clock.set(T0 - 5).afterEachRead(m -> m + 1); // back 5 ms, then catching up
        UUID b = ids.next();
        assertTrue(Ulids.timestamp(b) >= T0, "never back in time: " + Ulids.time(b));
        assertIncreasing(a, b);
        assertEquals(1, ids.clockStats().stepsBack());
        assertTrue(ids.clockStats().tickWaits() >= 1);

        clock.afterEachRead(m -> m).set(Ulids.timestamp(b) - 50);
        assertThrows(ClockMovedBackwardsException.class, ids::next, "further back than the bound");
    }

    @Test
    void aStepBackCarriesOnFromTheLastMillisecondUnderRunAhead() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        UUID a = ids.next();
        clock.set(T0 - 5);
        UUID b = ids.next();
        assertEquals(T0, Ulids.timestamp(b), "the time in a ULID does not go back");
        assertEquals(counterOf(a) + 1, counterOf(b));
        clock.set(T0 - 50);
        assertThrows(ClockMovedBackwardsException.class, ids::next);
        clock.set(T0 + 1);
        assertIncreasing(b, ids.next());
    }

    @Test
    void ulidsFromManyThreadsAreUniqueAndEachThreadsIncrease() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        AtomicLong reads = new AtomicLong();
        TestClock clock = new TestClock(T0).afterEachRead(m -> reads.incrementAndGet() % 50 == 0 ? m + 1 : m);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.refuse());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<UUID>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit((Callable<List<UUID>>) () -> {
                    List<UUID> mine = new ArrayList<>(perThread);
                    start.await();
                    while (mine.size() < perThread) {
                        if (thread % 2 == 0) {
                            mine.add(ids.next());
                        } else { // half the threads take blocks
                            UUID[] block = new UUID[Math.min(37, perThread - mine.size())];
                            ids.fill(block);
                            mine.addAll(List.of(block));
                        }
                    }
                    return mine;
                }));
            }
            start.countDown();
            Set<UUID> all = new HashSet<>();
            for (Future<List<UUID>> f : results) {
                List<UUID> mine = f.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < mine.size(); i++) {
                    assertTrue(ORDER.compare(mine.get(i - 1), mine.get(i)) < 0, "a thread's ULIDs increase at " + i);
                }
                all.addAll(mine);
            }
            assertEquals(threads * perThread, all.size(), "no ULID twice");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void fillGivesIncreasingUlidsAcrossARollover() {
        TestClock clock = new TestClock(T0);
        UlidGenerator ids = generator(clock, ClockBackwardsPolicy.runAhead(Duration.ofMillis(10)));
        UUID before = ids.next();
        UUID[] out = new UUID[70_000]; // more than one ms can hold (at most 65,536)
        ids.fill(out);
        assertIncreasing(before, out[0]);
        for (int i = 1; i < out.length; i++) {
            UUID a = out[i - 1];
            UUID b = out[i];
            assertTrue(ORDER.compare(a, b) < 0, "at " + i);
            if (Ulids.timestamp(a) == Ulids.timestamp(b)) {
                assertEquals(counterOf(a) + 1, counterOf(b), "a block is consecutive counters");
            } else {
                assertEquals(Ulids.timestamp(a) + 1, Ulids.timestamp(b));
                assertEquals(0xFFFF, counterOf(a), "a block moves on only when the ms is used up");
                assertTrue(counterOf(b) < 1 << 15);
            }
        }
        assertEquals(T0 + 1, Ulids.timestamp(out[out.length - 1]));
        assertNotEquals(out[0].getLeastSignificantBits(), out[1].getLeastSignificantBits());
        assertIncreasing(out[out.length - 1], ids.next());
        ids.fill(new UUID[0]); // nothing to do
    }

    @Test
    void aUlidAndAUuidV7OfTheSameInstantSortTheSameWay() {
        SplittableRandom random = new SplittableRandom(SEED);
        int n = 200;
        long[] millis = new long[n];
        List<UUID> ulids = new ArrayList<>();
        List<UUID> v7s = new ArrayList<>();
        List<UUID> mixed = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            millis[i] = T0 + random.nextLong(-1_000_000_000L, 1_000_000_000L) * 1000 + i; // distinct
            TestClock clock = new TestClock(millis[i]);
            UUID ulid = UlidGenerator.builder().clock(clock).randomness(RandomSource.seeded(i)).build().next();
            UUID v7 = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(~i)).build().next();
            ulids.add(ulid);
            v7s.add(v7);
            mixed.add(ulid);
            mixed.add(v7);
        }
        int[] byTime = IntStream.range(0, n).boxed().sorted(Comparator.comparingLong(i -> millis[i]))
                .mapToInt(Integer::intValue).toArray();
        int[] byUlid = IntStream.range(0, n).boxed().sorted((i, j) -> ORDER.compare(ulids.get(i), ulids.get(j)))
                .mapToInt(Integer::intValue).toArray();
        int[] byV7 = IntStream.range(0, n).boxed().sorted((i, j) -> ORDER.compare(v7s.get(i), v7s.get(j)))
                .mapToInt(Integer::intValue).toArray();
        int[] byUlidText = IntStream.range(0, n).boxed()
                .sorted(Comparator.comparing(i -> Ulids.toString(ulids.get(i)))).mapToInt(Integer::intValue).toArray();
        int[] byV7Text = IntStream.range(0, n).boxed()
                .sorted(Comparator.comparing(i -> Uuids.toString(v7s.get(i)))).mapToInt(Integer::intValue).toArray();
        assertArrayEqual(byTime, byUlid, "ULIDs as bytes");
        assertArrayEqual(byTime, byV7, "v7 as bytes");
        assertArrayEqual(byTime, byUlidText, "ULIDs as text");
        assertArrayEqual(byTime, byV7Text, "v7 as text");
        mixed.sort(ORDER);
        for (int i = 2; i < mixed.size(); i += 2) {
            // after sorting, each ms's ULID and v7 sit next to each other, before the next ms's pair
            assertEquals(Ulids.timestamp(mixed.get(i - 2)), Ulids.timestamp(mixed.get(i - 1)));
            assertTrue(Ulids.timestamp(mixed.get(i - 1)) < Ulids.timestamp(mixed.get(i)));
        }
    }

    private static void assertArrayEqual(int[] expected, int[] actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], what + ": position " + i);
        }
    }

    @Test
    void aClockOutsideTheRangeIsRefusedAtBuild() {
        IllegalArgumentException before = assertThrows(IllegalArgumentException.class,
                () -> UlidGenerator.builder().clock(new TestClock(-1)).build());
        assertTrue(before.getMessage().contains("1969-12-31T23:59:59.999Z"), before.getMessage());
        long past = UlidGenerator.LAST_INSTANT.toEpochMilli() + 1;
        IllegalArgumentException after = assertThrows(IllegalArgumentException.class,
                () -> UlidGenerator.builder().clock(new TestClock(past)).build());
        assertTrue(after.getMessage().contains("after the range"), after.getMessage());
        UUID last = UlidGenerator.builder().clock(new TestClock(past - 1)).build().next();
        assertEquals(past - 1, Ulids.timestamp(last));
        assertTrue(last.getMostSignificantBits() > 0, "the first bit stays 0, so UUID.compareTo agrees too");
    }
}
