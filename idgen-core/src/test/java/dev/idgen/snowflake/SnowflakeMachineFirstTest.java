package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeLayout.FieldOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link FieldOrder#MACHINE_TIME_SEQUENCE} (machine id above the timestamp) next to the two
 * time-first orders: the shifts worked out by hand, encode and decode at the field limits, what a
 * layout in that order refuses, the per-machine range bounds, and generators in every order.
 */
class SnowflakeMachineFirstTest {

    private static final long TWEPOCH = 1288834974657L;
    private static final long T = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    private static final SnowflakeLayout TWITTER_MACHINE_FIRST =
            SnowflakeLayout.TWITTER.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE);

    /** A layout small enough to list every ID: 4 timestamp, 2 machine and 2 sequence bits. */
    private static SnowflakeLayout tiny(FieldOrder order) {
        return SnowflakeLayout.custom("tiny-" + order.hyphenated()).epoch(Instant.ofEpochMilli(T))
                .tick(Duration.ofMillis(10)).timestampBits(4).machineBits(2).sequenceBits(2).fieldOrder(order).build();
    }

    @Test
    void twitterWithTheMachineOnTopPutsTenMachineBitsAtFiftyThree() {
        SnowflakeLayout l = TWITTER_MACHINE_FIRST;
        assertEquals(FieldOrder.MACHINE_TIME_SEQUENCE, l.fieldOrder());
        assertEquals(12, l.timestampShift());
        assertEquals(41 + 12, l.machineShift());
        assertEquals(0, l.sequenceShift());
        assertEquals((1L << 63) - 1, l.maxId());
        assertEquals((1L << 41) - 1, l.maxTimestamp(), "63 bits: the whole timestamp field is usable");
        // 5 << 53 = 45035996273704960; 1000 << 12 = 4096000
        assertEquals(45035996273704960L + 4096000L + 7L, l.encode(1000, 5, 7));
        assertEquals(List.of(new SnowflakeLayout.Part("datacenter", 5), new SnowflakeLayout.Part("worker", 5)),
                l.machineParts());
        assertEquals("twitter (10 machine bits: datacenter 5, worker 5 | 41 bits of 1 ms ticks since"
                + " 2010-11-04T01:42:54.657Z | 12 sequence bits)", l.toString());
        assertNotEquals(SnowflakeLayout.TWITTER, l);
        assertSame(SnowflakeLayout.TWITTER, SnowflakeLayout.TWITTER.withFieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE));
        assertEquals(SnowflakeLayout.TWITTER, l.withFieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE));
    }

    @Test
    void theTimeFirstOrdersKeepTheirShifts() {
        SnowflakeLayout sony = SnowflakeLayout.SONYFLAKE;   // 39 | 8 | 16
        assertEquals(24, sony.timestampShift());
        assertEquals(0, sony.machineShift());
        assertEquals(16, sony.sequenceShift());
        assertEquals(22, SnowflakeLayout.TWITTER.timestampShift());
        assertEquals(12, SnowflakeLayout.TWITTER.machineShift());
        assertEquals(0, SnowflakeLayout.TWITTER.sequenceShift());
        SnowflakeLayout sonyMachineFirst = sony.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE);
        assertEquals(8, sonyMachineFirst.timestampShift());
        assertEquals(39 + 8, sonyMachineFirst.machineShift());
        assertEquals(0, sonyMachineFirst.sequenceShift());
    }

    @Test
    void decodeMasksTheTimestampBelowTheMachineId() {
        // without the mask the machine bits would land in the timestamp and move it by 1023 << 41 ms
        long id = TWITTER_MACHINE_FIRST.encode(123_456_789L, 1023, 4095);
        SnowflakeId d = TWITTER_MACHINE_FIRST.decode(id);
        assertEquals(Instant.ofEpochMilli(TWEPOCH + 123_456_789L), d.timestamp());
        assertEquals(1023, d.machineId());
        assertEquals(31, d.datacenterId());
        assertEquals(31, d.workerId());
        assertEquals(4095, d.sequence());
    }

    @Test
    void encodeAndDecodeRoundTripAtTheFieldLimitsInEveryOrder() {
        List<SnowflakeLayout> layouts = new ArrayList<>();
        for (FieldOrder order : FieldOrder.values()) {
            layouts.add(SnowflakeLayout.TWITTER.withFieldOrder(order));
            layouts.add(SnowflakeLayout.JS_SAFE.withFieldOrder(order));
            layouts.add(SnowflakeLayout.SONYFLAKE.withFieldOrder(order));
            layouts.add(tiny(order));
            layouts.add(SnowflakeLayout.custom("wide-machine").epoch(Instant.EPOCH).timestampBits(20)
                    .machineBits(31).sequenceBits(12).fieldOrder(order).build());
        }
        assertEquals(15, new HashSet<>(layouts).size(), "every layout differs from the others");
        for (SnowflakeLayout l : layouts) {
            Set<Long> seen = new HashSet<>();
            for (long t : new long[] {0, 1, l.maxTimestamp() - 1, l.maxTimestamp()}) {
                for (long m : new long[] {0, 1, l.maxMachineId()}) {
                    for (long s : new long[] {0, 1, l.maxSequence()}) {
                        long id = l.encode(t, m, s);
                        assertTrue(id >= 0 && id <= l.maxId(), l + ": " + id);
                        assertTrue(seen.add(id), l + ": two field triples made " + id);
                        SnowflakeId d = l.decode(id);
                        String where = l + " t=" + t + " m=" + m + " s=" + s;
                        assertEquals(l.epoch().plusMillis(t * l.tickMillis()), d.timestamp(), where);
                        assertEquals(m, d.machineId(), where);
                        assertEquals(s, d.sequence(), where);
                    }
                }
            }
            assertEquals(l.maxId(), l.encode(l.maxTimestamp(), l.maxMachineId(), l.maxSequence()), l.toString());
        }
    }

    @Test
    void aMachineFirstLayoutFillsAtMostSixtyThreeBitsAndHasMachineBits() {
        IllegalArgumentException discord = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.DISCORD.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE));
        assertEquals("layout discord: field order MACHINE_TIME_SEQUENCE with timestamp 42 + machine 10 + sequence 12"
                + " = 64 bits would make the sign bit a machine bit; allowed in this order: at most 63 bits (only a"
                + " timestamp may take the sign bit, in a time-first order)", discord.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.INSTAGRAM.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE));

        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("solo").epoch(Instant.EPOCH).timestampBits(41).machineBits(0)
                        .sequenceBits(12).fieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE).build());
        assertTrue(none.getMessage().startsWith("layout solo: field order MACHINE_TIME_SEQUENCE with 0 machine bits;")
                && none.getMessage().contains("1 or more machine bits"), none.getMessage());

        // the same 64 bits stay allowed with the timestamp on top, and 63 bits with the machine on top
        SnowflakeLayout.custom("ok").epoch(Instant.EPOCH).timestampBits(41).machineBits(10).sequenceBits(12)
                .fieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE).build();
        SnowflakeLayout.custom("ok").epoch(Instant.EPOCH).timestampBits(42).machineBits(10).sequenceBits(12)
                .fieldOrder(FieldOrder.TIME_SEQUENCE_MACHINE).build();
    }

    @Test
    void javaScriptSafeHoldsWithTheMachineOnTop() {
        SnowflakeLayout js = SnowflakeLayout.JS_SAFE.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE);
        assertTrue(js.javaScriptSafe());
        assertEquals((1L << 53) - 1, js.maxId());
        assertEquals((1L << 53) - 1, js.encode(js.maxTimestamp(), 127, 255));
        assertEquals(127L << 46, js.encode(0, 127, 0), "7 machine bits on top of 38 + 8");
        IllegalArgumentException tooWide = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("js").epoch(Instant.EPOCH).timestampBits(41).machineBits(4)
                        .sequenceBits(9).fieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE).javaScriptSafe().build());
        assertTrue(tooWide.getMessage().contains("= 54 bits") && tooWide.getMessage().contains("at most 53"),
                tooWide.getMessage());
    }

    @Test
    void oneRangeForAllMachinesIsRefusedWithTheMachineOnTop() {
        Instant t = Instant.ofEpochMilli(T);
        IllegalStateException first = assertThrows(IllegalStateException.class, () -> TWITTER_MACHINE_FIRST.firstIdAt(t));
        assertEquals("layout twitter has field order MACHINE_TIME_SEQUENCE (machine id above the timestamp), so no"
                + " single ID range holds one tick of every machine; call firstIdAt(instant, machineId) once per"
                + " machine id 0..1023, or use a layout in order TIME_MACHINE_SEQUENCE or TIME_SEQUENCE_MACHINE",
                first.getMessage());
        IllegalStateException last = assertThrows(IllegalStateException.class, () -> TWITTER_MACHINE_FIRST.lastIdAt(t));
        assertTrue(last.getMessage().contains("call lastIdAt(instant, machineId)"), last.getMessage());
        // the time-first orders keep theirs
        assertEquals((T - TWEPOCH) << 22, SnowflakeLayout.TWITTER.firstIdAt(t));
        assertEquals((T - TWEPOCH) << 22 | 0x3FFFFF, SnowflakeLayout.TWITTER.lastIdAt(t));
    }

    @Test
    void perMachineBoundsAreThatMachinesFirstAndLastIdOfTheTick() {
        Instant t = Instant.ofEpochMilli(T + 7);
        long ticks = T + 7 - TWEPOCH;
        assertEquals(9L << 53 | ticks << 12, TWITTER_MACHINE_FIRST.firstIdAt(t, 9));
        assertEquals(9L << 53 | ticks << 12 | 4095, TWITTER_MACHINE_FIRST.lastIdAt(t, 9));
        assertEquals(ticks << 22 | 9L << 12, SnowflakeLayout.TWITTER.firstIdAt(t, 9));
        assertEquals(ticks << 22 | 9L << 12 | 4095, SnowflakeLayout.TWITTER.lastIdAt(t, 9));
        long sonyTicks = (T + 7 - Instant.parse("2014-09-01T00:00:00Z").toEpochMilli()) / 10;
        assertEquals(sonyTicks << 24 | 9, SnowflakeLayout.SONYFLAKE.firstIdAt(t, 9));
        assertEquals(sonyTicks << 24 | 255L << 16 | 9, SnowflakeLayout.SONYFLAKE.lastIdAt(t, 9));

        IllegalArgumentException machine = assertThrows(IllegalArgumentException.class,
                () -> TWITTER_MACHINE_FIRST.firstIdAt(t, 1024));
        assertEquals("machine id 1024 is outside layout twitter's range 0..1023", machine.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TWITTER_MACHINE_FIRST.lastIdAt(t, -1));
        IllegalArgumentException before = assertThrows(IllegalArgumentException.class,
                () -> TWITTER_MACHINE_FIRST.lastIdAt(Instant.ofEpochMilli(TWEPOCH - 1), 0));
        assertTrue(before.getMessage().contains("is outside layout twitter"), before.getMessage());
    }

    @Test
    void perMachineRangesCoverExactlyThatMachinesIdsOfThoseTicks() {
        for (FieldOrder order : FieldOrder.values()) {
            SnowflakeLayout l = tiny(order);
            // every ID the layout can make, as its fields; 16 ticks x 4 machines x 4 sequences
            List<long[]> all = new ArrayList<>();
            for (long t = 0; t <= 15; t++) {
                for (long m = 0; m <= 3; m++) {
                    for (long s = 0; s <= 3; s++) {
                        all.add(new long[] {l.encode(t, m, s), t, m, s});
                    }
                }
            }
            for (long m = 0; m <= 3; m++) {
                for (long from = 0; from <= 15; from++) {
                    for (long to = from; to <= 15; to++) {
                        // any instant inside the tick will do: the last millisecond of "to"
                        long lo = l.firstIdAt(Instant.ofEpochMilli(T + from * 10), m);
                        long hi = l.lastIdAt(Instant.ofEpochMilli(T + to * 10 + 9), m);
                        for (long[] f : all) {
                            boolean wanted = f[2] == m && f[1] >= from && f[1] <= to;
                            boolean inside = f[0] >= lo && f[0] <= hi;
                            String where = order + " m=" + m + " ticks " + from + ".." + to + " id " + f[0];
                            boolean exact = order == FieldOrder.MACHINE_TIME_SEQUENCE
                                    || order == FieldOrder.TIME_MACHINE_SEQUENCE && from == to;
                            if (!exact) {
                                // machine below the timestamp: the range holds the machine's IDs, and
                                // other machines' IDs between them, which a filter on the machine drops
                                assertTrue(!wanted || inside, where);
                                if (inside && f[2] == m) {
                                    assertTrue(wanted, where);
                                }
                            } else {
                                assertEquals(wanted, inside, where);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void fieldOrdersByName() {
        assertEquals("machine-time-sequence", FieldOrder.MACHINE_TIME_SEQUENCE.hyphenated());
        assertEquals(FieldOrder.MACHINE_TIME_SEQUENCE, FieldOrder.parse(" Machine-Time-Sequence "));
        assertEquals(FieldOrder.TIME_SEQUENCE_MACHINE, FieldOrder.parse("TIME_SEQUENCE_MACHINE"));
        assertEquals(FieldOrder.TIME_MACHINE_SEQUENCE, FieldOrder.parse("time-machine-sequence"));
        assertEquals("time-machine-sequence, time-sequence-machine, machine-time-sequence", FieldOrder.names());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FieldOrder.parse("machine-first"));
        assertEquals("no field order named 'machine-first'; allowed: time-machine-sequence, time-sequence-machine,"
                + " machine-time-sequence", e.getMessage());
    }

    /**
     * Three machines on one clock, in every order, on a layout with 2 sequence bits so that a tick
     * runs out often: IDs of each generator strictly increase and carry its machine id and the
     * clock's tick, no two IDs are equal, and across a tick each machine's IDs stay in its own block.
     */
    @Test
    void generatorsInEveryOrderIncreaseAndNeverCollide() {
        for (FieldOrder order : FieldOrder.values()) {
            SnowflakeLayout l = SnowflakeLayout.custom("small-" + order.hyphenated()).epoch(Instant.ofEpochMilli(T))
                    .timestampBits(30).machineBits(3).sequenceBits(2).fieldOrder(order).build();
            SlowClock clock = new SlowClock(T + 100, 7);
            List<SnowflakeGenerator> gens = new ArrayList<>();
            for (long m : new long[] {0, 5, 7}) {
                gens.add(SnowflakeGenerator.builder().layout(l).machineId(m).clock(clock)
                        .onClockBackwards(ClockBackwardsPolicy.refuse()).build());
            }
            long[] previous = {-1, -1, -1};
            Set<Long> all = new HashSet<>();
            SplittableRandom random = new SplittableRandom(20261203L);
            int newTicks = 0;
            for (int round = 0; round < 400; round++) {
                int g = random.nextInt(3);
                int burst = 1 + random.nextInt(6);   // more than 4 in one tick: the sequence runs out
                for (int i = 0; i < burst; i++) {
                    long before = clock.peek();
                    long id = gens.get(g).nextLong();
                    SnowflakeId d = l.decode(id);
                    assertTrue(id > previous[g], order + ": " + id + " after " + previous[g]);
                    if (previous[g] >= 0 && l.decode(previous[g]).timestamp().isBefore(d.timestamp())) {
                        newTicks++;
                    }
                    previous[g] = id;
                    assertTrue(all.add(id), order + ": " + id + " made twice");
                    assertEquals(gens.get(g).machineId(), d.machineId(), order.toString());
                    assertTrue(!d.timestamp().isBefore(Instant.ofEpochMilli(before)), order + ": " + d);
                }
                if (random.nextInt(4) == 0) {
                    clock.advance(1 + random.nextInt(3));   // the clock steps on between bursts
                }
            }
            assertTrue(newTicks > 100, "ticks changed under the generators: " + newTicks);
            long full = all.stream().filter(id -> l.decode(id).sequence() == 3).count();
            assertTrue(full > 20, order + ": ticks used up to the last sequence: " + full);
            assertEquals(all.size(), new TreeSet<>(all).size());
            if (order == FieldOrder.MACHINE_TIME_SEQUENCE) {
                // each machine's IDs are one block: every ID of machine 5 is above every ID of machine 0
                long max0 = all.stream().filter(id -> l.decode(id).machineId() == 0).mapToLong(Long::longValue).max()
                        .orElseThrow();
                long min5 = all.stream().filter(id -> l.decode(id).machineId() == 5).mapToLong(Long::longValue).min()
                        .orElseThrow();
                assertTrue(max0 < min5, max0 + " " + min5);
            }
        }
    }

    /** Moves on by 1 ms every {@code readsPerMilli} reads, so a spin for the next tick ends; no sleeping. */
    private static final class SlowClock implements java.time.InstantSource {
        private long millis;
        private final int readsPerMilli;
        private int reads;

        SlowClock(long millis, int readsPerMilli) {
            this.millis = millis;
            this.readsPerMilli = readsPerMilli;
        }

        long peek() {
            return millis;
        }

        void advance(long delta) {
            millis += delta;
        }

        @Override
        public long millis() {
            long now = millis;
            if (++reads % readsPerMilli == 0) {
                millis++;
            }
            return now;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    @Test
    void aMachineFirstGeneratorStampsMachineTimeAndSequenceFromTheTop() {
        StepClock clock = new StepClock(T);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().layout(TWITTER_MACHINE_FIRST).machineId(3).clock(clock)
                .build();
        assertEquals(3L << 53 | (T - TWEPOCH) << 12, ids.nextLong());
        assertEquals(3L << 53 | (T - TWEPOCH) << 12 | 1, ids.nextLong());
        clock.advance(2);
        assertEquals(3L << 53 | (T + 2 - TWEPOCH) << 12, ids.nextLong());
        long[] block = new long[6000];   // more than one tick's 4,096: the fill waits for the next tick
        clock.stepPerRead(1);
        ids.fill(block);
        for (int i = 0; i < block.length; i++) {
            assertTrue(block[i] > (i == 0 ? 3L << 53 | (T + 2 - TWEPOCH) << 12 : block[i - 1]), "index " + i);
            assertEquals(3, block[i] >>> 53);
        }
        assertEquals(3L << 53 | (T + 2 - TWEPOCH) << 12 | 1, block[0]);
        assertEquals(3L << 53 | (T + 2 - TWEPOCH) << 12 | 4095, block[4094]);
        assertEquals(0, block[4095] & 0xFFF, "a new tick starts at sequence 0");
    }
}
