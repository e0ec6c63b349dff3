package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.IdGenerators;
import dev.idgen.random.RandomSource;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UuidV7GeneratorTest {

    private static final long T0 = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    private static final long SEED = 0x5EED_0007L;

    private static long millisOf(UUID u) {
        return u.getMostSignificantBits() >>> 16;
    }

    /** The 16-bit counter: rand_a, then the top 4 bits of rand_b. */
    private static long counterOf(UUID u) {
        return (u.getMostSignificantBits() & 0xFFF) << 4 | (u.getLeastSignificantBits() >>> 58 & 0xF);
    }

    private static void assertV7(UUID u, String why) {
        assertEquals(7, u.version(), why);
        assertEquals(2, u.variant(), why);
        UuidInfo info = Uuids.decode(u);
        assertEquals(UuidVariant.RFC_9562, info.variant(), why);
        assertEquals(7, info.version(), why);
    }

    @Test
    void frontDoorGivesAMonotonicSecureGenerator() {
        UuidV7Generator ids = IdGenerators.uuidV7();
        assertTrue(ids.isMonotonic());
        assertEquals(RandomSource.secure(), ids.randomness());
        assertEquals(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(10)), ids.policy());
        UUID a = ids.next();
        UUID b = ids.next();
        assertV7(a, a.toString());
        assertTrue(Uuids.unsignedOrder().compare(a, b) < 0, a + " then " + b);
    }

    @Test
    void fieldsAreTheClockTheCounterAndFreshRandomBits() {
        ScriptedClock clock = new ScriptedClock(1, T0, T0, T0, T0, T0 + 1); // build() reads the first
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        UUID a = ids.next();
        UUID b = ids.next();
        UUID c = ids.next();
        UUID d = ids.next();
        assertEquals(T0, millisOf(a));
        assertEquals(T0, millisOf(c));
        assertEquals(T0 + 1, millisOf(d));
        assertEquals(counterOf(a) + 1, counterOf(b), "same ms: counter + 1");
        assertEquals(counterOf(b) + 1, counterOf(c));
        assertTrue(counterOf(a) < 1 << 15, "a new ms starts its counter below 2^15: " + counterOf(a));
        assertTrue(counterOf(d) < 1 << 15, "a new ms starts its counter below 2^15: " + counterOf(d));
        long randomMask = (1L << 58) - 1;
        assertFalse((a.getLeastSignificantBits() & randomMask) == (b.getLeastSignificantBits() & randomMask),
                "58 random bits are fresh for every ID");
        assertEquals(Instant.ofEpochMilli(T0), Uuids.decode(a).time().orElseThrow());
    }

    @Test
    void seededRandomnessReproducesTheSameUuids() {
        List<UUID> first = new ArrayList<>();
        List<UUID> second = new ArrayList<>();
        for (List<UUID> out : List.of(first, second)) {
            UuidV7Generator ids = UuidV7Generator.builder().clock(new ScriptedClock(3, T0))
                    .randomness(RandomSource.seeded(SEED)).build();
            for (int i = 0; i < 1000; i++) {
                out.add(ids.next());
            }
        }
        assertEquals(first, second);
    }

    /**
     * Property: whatever the clock does (steps forward, stands still, steps back by up to a
     * second), the UUIDs are v7, unique, strictly increasing, their times never go back and never
     * run more than the bound ahead of the highest reading so far, nor fall behind the reading of
     * their own call.
     */
    @Test
    void monotonicUnderAnyClockScript() {
        for (int run = 0; run < 200; run++) {
            long seed = SEED + run;
            SplittableRandom r = new SplittableRandom(seed);
            long[] script = new long[2 + r.nextInt(400)];
            long now = T0 + r.nextInt(1_000_000);
            for (int i = 0; i < script.length; i++) {
                int move = r.nextInt(20);
                // half stand still, most others step forward a little, some jump, one in 20 steps back
                now += move < 10 ? 0 : move < 17 ? 1 + r.nextInt(3) : move < 19 ? r.nextInt(2000) : -r.nextInt(3000);
                script[i] = now;
            }
            long boundMillis = 1000 + r.nextInt(10_000);
            checkMonotonic(seed, script, boundMillis, 1 + r.nextInt(4) * 3_000);
        }
    }

    private static void checkMonotonic(long seed, long[] script, long boundMillis, int calls) {
        ScriptedClock clock = new ScriptedClock(50, script);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(seed))
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofMillis(boundMillis))).build();
        int readsBefore = clock.reads();
        UUID previous = null;
        long highestReading = Long.MIN_VALUE;
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            UUID u;
            try {
                u = ids.next();
            } catch (ClockMovedBackwardsException e) {
                List<Long> readings = clock.readingsSince(readsBefore);
                readsBefore = clock.reads();
                long reading = readings.get(readings.size() - 1);
                String why = "seed " + seed + ", call " + i + ", readings " + readings + ", last " + previous;
                assertTrue(e.millisBehind() > boundMillis, "refused within the bound: " + why);
                assertEquals(millisOf(previous) - reading, e.millisBehind(), why);
                continue;
            }
            List<Long> readings = clock.readingsSince(readsBefore);
            readsBefore = clock.reads();
            String why = "seed " + seed + ", call " + i + ", uuid " + u + ", readings " + readings;
            assertV7(u, why);
            assertTrue(seen.add(u), "duplicate: " + why);
            long lowestReading = Long.MAX_VALUE;
            for (long reading : readings) {
                highestReading = Math.max(highestReading, reading);
                lowestReading = Math.min(lowestReading, reading);
            }
            long millis = millisOf(u);
            assertTrue(millis >= lowestReading, "time behind this call's clock: " + why);
            assertTrue(millis <= highestReading + boundMillis, "time ran ahead past the bound: " + why);
            if (previous != null) {
                assertTrue(Uuids.unsignedOrder().compare(previous, u) < 0, "not increasing after " + previous + ": " + why);
                assertTrue(previous.compareTo(u) < 0, "UUID.compareTo disagrees after " + previous + ": " + why);
                assertTrue(millisOf(previous) <= millis, "time went back: " + why);
            }
            previous = u;
        }
    }

    @Test
    void counterRolloverTakesTheNextMillisecondAhead() {
        // the clock never moves: 300,000 IDs need about 5 to 9 milliseconds of counter space
        ScriptedClock clock = new ScriptedClock(Integer.MAX_VALUE, T0);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        long[] perMilli = new long[20];
        UUID previous = null;
        for (int i = 0; i < 300_000; i++) {
            UUID u = ids.next();
            if (previous != null && Uuids.unsignedOrder().compare(previous, u) >= 0) {
                fail("seed " + SEED + ", call " + i + ": " + u + " after " + previous);
            }
            perMilli[(int) (millisOf(u) - T0)]++;
            previous = u;
        }
        int last = (int) (millisOf(previous) - T0);
        assertTrue(last >= 4 && last <= 9, "ran " + last + " ms ahead for 300,000 IDs");
        for (int ms = 0; ms < last; ms++) {
            // a ms starts below 2^15 and ends at 2^16 - 1: between 2^15 + 1 and 2^16 IDs
            assertTrue(perMilli[ms] > 1 << 15 && perMilli[ms] <= 1 << 16, "ms " + ms + " held " + perMilli[ms]);
        }
    }

    @Test
    void runAheadIsBoundedThenWaitsForTheClock() {
        // a bound of 2 ms and a clock that moves 1 ms every 100,000 reads
        ScriptedClock clock = ScriptedClock.creeping(T0, 100_000);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED))
                .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofMillis(2))).build();
        UUID previous = null;
        for (int i = 0; i < 400_000; i++) {
            UUID u = ids.next();
            long reading = clock.lastReading();
            assertTrue(millisOf(u) <= reading + 2, "call " + i + ": " + millisOf(u) + " vs clock " + reading);
            if (previous != null) {
                assertTrue(Uuids.unsignedOrder().compare(previous, u) < 0, "call " + i);
            }
            previous = u;
        }
    }

    @Test
    void stepBackWithinTheBoundCarriesOnFromTheLastMillisecond() {
        // build() reads the first; a reading behind the last ms is read again before it is believed
        ScriptedClock clock = new ScriptedClock(1, T0 + 5000, T0 + 5000, T0, T0, T0 + 4999, T0 + 4999,
                T0 + 1, T0 + 1, T0 + 5001);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        UUID a = ids.next(); // T0 + 5000
        UUID b = ids.next(); // T0: 5 s back, within 10 s: carries on at T0 + 5000
        UUID c = ids.next(); // 1 ms back
        UUID d = ids.next(); // 4999 ms back
        UUID e = ids.next(); // the clock has passed the last ms again
        for (UUID u : List.of(b, c, d)) {
            assertEquals(T0 + 5000, millisOf(u), u.toString());
        }
        assertEquals(T0 + 5001, millisOf(e));
        assertEquals(counterOf(a) + 1, counterOf(b));
        assertEquals(counterOf(c) + 1, counterOf(d));
        assertTrue(Uuids.unsignedOrder().compare(d, e) < 0);
    }

    @Test
    void stepBackBeyondTheBoundRefusesThenRecovers() {
        ScriptedClock clock = new ScriptedClock(1, T0 + 20_000, T0 + 20_000, T0, T0, T0 + 15_000, T0 + 15_000);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        UUID a = ids.next();
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::next);
        assertEquals(20_000, e.millisBehind());
        assertEquals("Clock moved backwards. Refusing to generate id for 20000 milliseconds (policy runAhead(10000 ms))",
                e.getMessage());
        UUID b = ids.next(); // 5 s behind now: within the bound
        assertEquals(T0 + 20_000, millisOf(b));
        assertTrue(Uuids.unsignedOrder().compare(a, b) < 0);
    }

    @Test
    void refusePolicyNeverRunsAhead() {
        ScriptedClock clock = new ScriptedClock(1, T0 + 1, T0 + 1, T0, T0);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED))
                .onClockBackwards(ClockBackwardsPolicy.refuse()).build();
        ids.next();
        assertThrows(ClockMovedBackwardsException.class, ids::next);
    }

    @Test
    void clockOutsideTheRangeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UuidV7Generator.builder().clock(new ScriptedClock(1, -1)).build());
        assertEquals("UUIDv7 cannot be made with this clock: Clock reads 1969-12-31T23:59:59.999Z, before the range "
                + "this generator can encode: 1970-01-01T00:00:00Z to " + UuidV7Generator.LAST_MONOTONIC_INSTANT,
                e.getMessage());
        long past = UuidV7Generator.LAST_MONOTONIC_INSTANT.toEpochMilli() + 1;
        assertThrows(IllegalArgumentException.class,
                () -> UuidV7Generator.builder().clock(new ScriptedClock(1, past)).build());
        // not monotonic: the whole 48-bit field
        UuidV7Generator unordered = UuidV7Generator.builder().clock(new ScriptedClock(1, past, past)).monotonic(false).build();
        assertEquals(past, millisOf(unordered.next()));
        long beyond = (1L << 48);
        e = assertThrows(IllegalArgumentException.class,
                () -> UuidV7Generator.builder().clock(new ScriptedClock(1, beyond)).monotonic(false).build());
        assertTrue(e.getMessage().endsWith("outside the range UUIDv7 can encode: 1970-01-01T00:00:00Z to "
                + "+10889-08-02T05:31:50.655Z"), e.getMessage());
        ScriptedClock late = new ScriptedClock(1, T0, past);
        UuidV7Generator ids = UuidV7Generator.builder().clock(late).build();
        IllegalStateException s = assertThrows(IllegalStateException.class, ids::next);
        assertTrue(s.getMessage().startsWith("Clock reads " + Instant.ofEpochMilli(past) + ", after the range"),
                s.getMessage());
    }

    @Test
    void lastMonotonicInstantIsInTheYear6429() {
        assertEquals(Instant.parse("6429-10-17T02:45:55.327Z"), UuidV7Generator.LAST_MONOTONIC_INSTANT);
        assertEquals(Instant.parse("+10889-08-02T05:31:50.655Z"), UuidV7Generator.LAST_INSTANT);
    }

    @Test
    void notMonotonicHasTheClockAndSeventyFourRandomBits() {
        ScriptedClock clock = new ScriptedClock(1, T0, T0 - 3, T0 + 7);
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).monotonic(false)
                .randomness(RandomSource.seeded(SEED)).build();
        assertFalse(ids.isMonotonic());
        // build() took the first reading
        UUID a = ids.next();
        UUID b = ids.next();
        assertEquals(T0 - 3, millisOf(a), "no state: a step back shows");
        assertEquals(T0 + 7, millisOf(b));
        assertV7(a, a.toString());
        assertV7(b, b.toString());
        Set<Long> randA = new HashSet<>();
        UuidV7Generator frozen = UuidV7Generator.builder().clock(new ScriptedClock(Integer.MAX_VALUE, T0))
                .monotonic(false).randomness(RandomSource.seeded(SEED)).build();
        for (int i = 0; i < 1000; i++) {
            randA.add(frozen.next().getMostSignificantBits() & 0xFFF);
        }
        assertTrue(randA.size() > 700, "rand_a is random, not a counter: " + randA.size() + " distinct of 1000");
    }

    @Test
    void everyUuidHasVersionSevenAndTheRfcVariant() {
        for (boolean monotonic : new boolean[] {true, false}) {
            UuidV7Generator ids = UuidV7Generator.builder().monotonic(monotonic).build();
            for (int i = 0; i < 50_000; i++) {
                UUID u = ids.next();
                if (u.version() != 7 || u.variant() != 2) {
                    fail("monotonic=" + monotonic + ", call " + i + ": " + u);
                }
            }
        }
    }

    @Test
    void manyThreadsGetUniqueUuidsEachIncreasing() throws Exception {
        int threads = 4;
        int perThread = 50_000;
        AtomicLong reads = new AtomicLong();
        // a clock that moves 1 ms every 500 reads, whoever reads it
        UuidV7Generator ids = UuidV7Generator.builder()
                .clock(new java.time.InstantSource() {
                    @Override
                    public long millis() {
                        return T0 + reads.getAndIncrement() / 500;
                    }

                    @Override
                    public Instant instant() {
                        return Instant.ofEpochMilli(millis());
                    }
                })
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<List<UUID>>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    List<UUID> mine = new ArrayList<>(perThread);
                    for (int i = 0; i < perThread; i++) {
                        mine.add(ids.next());
                    }
                    return mine;
                });
            }
            Set<UUID> all = new HashSet<>();
            int t = 0;
            for (Future<List<UUID>> f : pool.invokeAll(tasks)) {
                List<UUID> mine = f.get();
                for (int i = 1; i < mine.size(); i++) {
                    assertTrue(Uuids.unsignedOrder().compare(mine.get(i - 1), mine.get(i)) < 0,
                            "thread " + t + ", call " + i + ": " + mine.get(i) + " after " + mine.get(i - 1));
                }
                all.addAll(mine);
                t++;
            }
            assertEquals(threads * perThread, all.size(), "duplicates among " + threads * perThread);
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
        }
    }

    @Test
    void afterAForwardBlipTheDefaultRefusesForAsLongAsTheBlipAndRebasingCarriesOn() {
        long blip = T0 + Duration.ofHours(1).toMillis();
        for (boolean rebase : new boolean[] {false, true}) {
            ScriptedClock clock = new ScriptedClock(1, T0, blip, T0, T0, T0 + 1, T0 + 2, T0 + 3); // build() reads once
            UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED))
                    .rebaseAfterStepBack(rebase).build();
            assertEquals(rebase, ids.rebasesAfterStepBack());
            UUID during = ids.next(); // the clock an hour ahead, for one read
            assertEquals(blip, millisOf(during));
            if (!rebase) {
                ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::next);
                assertEquals(Duration.ofHours(1).toMillis(), e.millisBehind());
                assertEquals(1, ids.clockStats().refusals());
                continue;
            }
            UUID first = ids.next();
            assertEquals(T0, millisOf(first), "re-based on the clock");
            assertTrue(Uuids.unsignedOrder().compare(first, during) < 0, "order given up across that one step");
            UUID previous = first;
            for (int i = 0; i < 50; i++) {
                UUID u = ids.next();
                assertTrue(Uuids.unsignedOrder().compare(u, previous) > 0, "increasing again after the step");
                assertFalse(u.equals(during));
                previous = u;
            }
            assertEquals(0, ids.clockStats().refusals());
            assertEquals(1, ids.clockStats().stepsBack());
        }
    }

    @Test
    void clockStatsCountOnlyWhatLeftTheFastPath() {
        ScriptedClock clock = new ScriptedClock(1, T0, T0, T0 + 1, T0 + 2, T0 - 20_000, T0 - 20_000); // build() reads once
        UuidV7Generator ids = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        ids.next();
        ids.next();
        ids.next();
        assertEquals(dev.idgen.clock.ClockStats.NONE, ids.clockStats());
        assertThrows(ClockMovedBackwardsException.class, ids::next); // 20 s back, beyond runAhead(10 s)
        dev.idgen.clock.ClockStats stats = ids.clockStats();
        assertEquals(1, stats.stepsBack());
        assertEquals(20_002, stats.maxStepBackMillis());
        assertEquals(1, stats.refusals());
        assertEquals(T0 - 20_000, stats.lastRefusalMillis());
        assertEquals(dev.idgen.clock.ClockStats.NONE,
                UuidV7Generator.builder().monotonic(false).build().clockStats());
    }
}
