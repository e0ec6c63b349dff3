package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.idgen.snowflake.SnowflakeLayout.FieldOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SnowflakeLayoutTest {

    @Test
    void discordsDocumentedIdDecodesToItsDocumentedFields() {
        // Discord developer documentation, "Snowflakes": 175928847299117063.
        SnowflakeId id = SnowflakeLayout.DISCORD.decode(175928847299117063L);
        assertEquals(Instant.parse("2016-04-30T11:18:25.796Z"), id.timestamp());
        assertEquals(1, id.datacenterId(), "internal worker id");
        assertEquals(0, id.workerId(), "internal process id");
        assertEquals(7, id.sequence(), "increment");
    }

    @Test
    void discordIdsWithTheSignBitSetAreReadAsUnsigned() {
        long unsigned = Long.MIN_VALUE | 7;
        SnowflakeId id = SnowflakeLayout.DISCORD.decode(unsigned);
        assertEquals(Instant.ofEpochMilli(1420070400000L + (1L << 41)), id.timestamp());
        assertEquals(7, id.sequence());
        assertTrue(id.toString().contains("9223372036854775815"), id.toString());
    }

    @Test
    void twitterLayoutMatchesTheClassicFormula() {
        long ms = Instant.parse("2024-05-01T12:00:00Z").toEpochMilli();
        long expected = (ms - 1288834974657L) << 22 | 517L << 12 | 99;
        SnowflakeLayout twitter = SnowflakeLayout.TWITTER;
        assertEquals(expected, twitter.encode(ms - 1288834974657L, 517, 99));
        SnowflakeId id = twitter.decode(expected);
        assertEquals(Instant.ofEpochMilli(ms), id.timestamp());
        assertEquals(517, id.machineId());
        assertEquals(16, id.datacenterId());
        assertEquals(5, id.workerId());
        assertEquals(99, id.sequence());
    }

    @Test
    void presetsKnowTheirRangesAndLastInstant() {
        assertEquals(1023, SnowflakeLayout.TWITTER.maxMachineId());
        assertEquals(4095, SnowflakeLayout.TWITTER.maxSequence());
        assertEquals(Instant.ofEpochMilli(1288834974657L + (1L << 41) - 1), SnowflakeLayout.TWITTER.lastInstant());
        assertEquals(8191, SnowflakeLayout.INSTAGRAM.maxMachineId());
        assertEquals(1023, SnowflakeLayout.INSTAGRAM.maxSequence());
        assertEquals(65535, SnowflakeLayout.SONYFLAKE.maxMachineId());
        assertEquals(255, SnowflakeLayout.SONYFLAKE.maxSequence());
        // 2^39 ticks of 10 ms after 2014-09-01: about 174 years.
        assertEquals(Instant.parse("2014-09-01T00:00:00Z").plusMillis((1L << 39) * 10 - 1),
                SnowflakeLayout.SONYFLAKE.lastInstant());
        assertEquals(SnowflakeLayout.SONYFLAKE, SnowflakeLayout.preset(" SonyFlake "));
        // 64-bit layouts stop before the sign bit: Instagram in 2046, Discord in 2084.
        assertEquals(Instant.ofEpochMilli(1314220021721L + (1L << 40) - 1), SnowflakeLayout.INSTAGRAM.lastInstant());
        assertEquals(Instant.ofEpochMilli(1420070400000L + (1L << 41) - 1), SnowflakeLayout.DISCORD.lastInstant());
        assertTrue(SnowflakeLayout.DISCORD.lastInstant().toString().startsWith("2084-09-06"));
    }

    @Test
    void aNegativeIdIsBadInputForALayoutThatKeepsTheSignBitZero() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.TWITTER.decode(-5));
        assertEquals("id 18446744073709551611 is larger than 9223372036854775807, the largest ID of layout twitter"
                + " (63 bits)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.JS_SAFE.decode(1L << 53));
        assertEquals("id 9007199254740992 is larger than 9007199254740991, the largest ID of layout js-safe (53 bits)",
                e.getMessage());
    }

    @Test
    void sonyflakePutsTheSequenceAboveTheMachineId() {
        long id = SnowflakeLayout.SONYFLAKE.encode(1000, 0xBEEF, 3);
        assertEquals(1000L << 24 | 3L << 16 | 0xBEEF, id);
        SnowflakeId decoded = SnowflakeLayout.SONYFLAKE.decode(id);
        assertEquals(0xBEEF, decoded.machineId());
        assertEquals(3, decoded.sequence());
        assertEquals(Instant.parse("2014-09-01T00:00:10Z"), decoded.timestamp());
        assertThrows(IllegalStateException.class, decoded::datacenterId);
    }

    @Test
    void badLayoutsFailWithTheValueAndTheRule() {
        IllegalArgumentException sum = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(Duration.ofMillis(1))
                        .timestampBits(41).machineBits(10).sequenceBits(14)
                        .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build());
        assertTrue(sum.getMessage().contains("= 65 bits") && sum.getMessage().contains("63"), sum.getMessage());

        IllegalArgumentException seq = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(Duration.ofMillis(1))
                        .timestampBits(31).machineBits(0).sequenceBits(32)
                        .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build());
        assertTrue(seq.getMessage().contains("sequence bits 32"), seq.getMessage());

        IllegalArgumentException tick = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(Duration.ofNanos(1500))
                        .timestampBits(41).machineBits(10).sequenceBits(12)
                        .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build());
        assertTrue(tick.getMessage().contains("whole number of milliseconds"), tick.getMessage());

        // a tick too long for a long count of milliseconds: a named refusal, not "long overflow"
        for (Duration huge : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(9_223_372_036_854_775L)}) {
            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(huge)
                            .timestampBits(41).machineBits(10).sequenceBits(12).build());
            assertEquals("layout x: tick " + huge + " is out of range; allowed: a whole number of milliseconds"
                    + " from 1 ms to 9223372036854774 s", tooLong.getMessage());
        }
        // the longest tick in range is refused by the reach check, which names the bits
        IllegalArgumentException longest = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(Duration.ofSeconds(9_223_372_036_854_774L))
                        .timestampBits(1).machineBits(0).sequenceBits(1).build());
        assertTrue(longest.getMessage().contains("1 timestamp bits of 9223372036854774000 ms"), longest.getMessage());

        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("x").epoch(Instant.EPOCH).tick(Duration.ofMillis(10))
                        .timestampBits(62).machineBits(0).sequenceBits(1)
                        .fieldOrder(FieldOrder.TIME_MACHINE_SEQUENCE).build());
        assertTrue(far.getMessage().contains("62 timestamp bits"), far.getMessage());

        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.preset("flickr"));
        assertTrue(unknown.getMessage().contains("'flickr'") && unknown.getMessage().contains("twitter"),
                unknown.getMessage());
    }

    @Test
    void encodeRejectsFieldsOutsideTheLayout() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.TWITTER.encode(5, 1024, 0));
        assertEquals("machine id 1024 is outside layout twitter's range 0..1023", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.TWITTER.encode(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.TWITTER.encode(0, 0, 4096));
        assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.TWITTER.timestampOf(Instant.parse("2001-01-01T00:00:00Z")));
    }

    @Test
    void presetsKeepTheirValuesAndNameTheirFields() {
        record Expected(SnowflakeLayout layout, int t, int m, int s, long epoch, long tick, FieldOrder order,
                List<String> parts, String sequence) {
        }
        for (Expected e : List.of(
                new Expected(SnowflakeLayout.TWITTER, 41, 10, 12, 1288834974657L, 1, FieldOrder.TIME_MACHINE_SEQUENCE,
                        List.of("datacenter", "worker"), "sequence"),
                new Expected(SnowflakeLayout.DISCORD, 42, 10, 12, 1420070400000L, 1, FieldOrder.TIME_MACHINE_SEQUENCE,
                        List.of("worker", "process"), "increment"),
                new Expected(SnowflakeLayout.INSTAGRAM, 41, 13, 10, 1314220021721L, 1, FieldOrder.TIME_MACHINE_SEQUENCE,
                        List.of("shard"), "sequence"),
                new Expected(SnowflakeLayout.SONYFLAKE, 39, 16, 8, 1409529600000L, 10, FieldOrder.TIME_SEQUENCE_MACHINE,
                        List.of("machine"), "sequence"),
                new Expected(SnowflakeLayout.JS_SAFE, 38, 7, 8, 1735689600000L, 10, FieldOrder.TIME_MACHINE_SEQUENCE,
                        List.of("machine"), "sequence"))) {
            SnowflakeLayout l = e.layout();
            assertEquals(List.of(e.t(), e.m(), e.s()), List.of(l.timestampBits(), l.machineBits(), l.sequenceBits()), l.name());
            assertEquals(Instant.ofEpochMilli(e.epoch()), l.epoch(), l.name());
            assertEquals(Duration.ofMillis(e.tick()), l.tick(), l.name());
            assertEquals(e.order(), l.fieldOrder(), l.name());
            assertEquals(e.parts(), l.machineParts().stream().map(SnowflakeLayout.Part::name).toList(), l.name());
            assertEquals(e.sequence(), l.sequenceName(), l.name());
            assertEquals(l, SnowflakeLayout.preset(l.name()));
        }
        assertEquals("twitter, discord, instagram, sonyflake, js-safe", SnowflakeLayout.presetNames());
    }

    @Test
    void jsSafePresetKeepsEveryIdAJavaScriptSafeInteger() {
        SnowflakeLayout js = SnowflakeLayout.JS_SAFE;
        assertTrue(js.javaScriptSafe());
        assertEquals((1L << 53) - 1, js.maxId());
        assertEquals(9007199254740991L, js.encode(js.maxTimestamp(), js.maxMachineId(), js.maxSequence()));
        assertEquals(128, js.maxMachineId() + 1);
        assertEquals(256, js.maxSequence() + 1);
        // 2^38 ticks of 10 ms after 2025-01-01: about 87 years
        assertEquals(Instant.parse("2025-01-01T00:00:00Z").plusMillis((1L << 38) * 10 - 1), js.lastInstant());
        assertTrue(js.lastInstant().toString().startsWith("2112-02-09"), js.lastInstant().toString());
    }

    @Test
    void aLayoutPromisingJavaScriptSafetyIsRefusedAbove53Bits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("web").epoch(Instant.EPOCH).timestampBits(41).machineBits(5)
                        .sequenceBits(8).javaScriptSafe().build());
        assertEquals("layout web: timestamp 41 + machine 5 + sequence 8 = 54 bits, so IDs reach 18014398509481983;"
                + " a JavaScript-safe layout has at most 53 bits (every ID at most 9007199254740991 = 2^53 - 1)",
                e.getMessage());
        SnowflakeLayout ok = SnowflakeLayout.custom("web").epoch(Instant.EPOCH).timestampBits(41).machineBits(4)
                .sequenceBits(8).javaScriptSafe().build();
        assertEquals((1L << 53) - 1, ok.maxId());
        // without the promise a narrow layout is fine, and says it makes no promise
        assertTrue(!SnowflakeLayout.custom("narrow").epoch(Instant.EPOCH).timestampBits(41).machineBits(5)
                .sequenceBits(8).build().javaScriptSafe());
    }

    @Test
    void anEpochWithASubMillisecondPartIsRefused() {
        // it used to be accepted, and every decoded time came out 0.9 ms late
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("late").epoch(Instant.parse("2020-01-01T00:00:00.000900Z"))
                        .timestampBits(41).machineBits(10).sequenceBits(12).build());
        assertEquals("layout late: epoch 2020-01-01T00:00:00.000900Z has a sub-millisecond part (900000 ns);"
                + " allowed: a whole Unix millisecond, such as 2020-01-01T00:00:00Z", e.getMessage());
    }

    @Test
    void theBuilderNamesWhatIsMissingOrOutOfRange() {
        SnowflakeLayout.Builder partial = SnowflakeLayout.custom("b");
        assertEquals("layout b: no epoch given; call epoch(Instant), an instant from 1970-01-01T00:00:00Z on",
                assertThrows(IllegalArgumentException.class, partial::build).getMessage());
        partial.epoch(Instant.EPOCH);
        assertEquals("layout b: no timestamp bits given; call timestampBits(1..62)",
                assertThrows(IllegalArgumentException.class, partial::build).getMessage());
        partial.timestampBits(41);
        assertEquals("layout b: no sequence bits given; call sequenceBits(1..31)",
                assertThrows(IllegalArgumentException.class, partial::build).getMessage());
        partial.sequenceBits(12);
        assertEquals("layout b: no machine bits given; call machineBits(0 or more) or machine(name, bits)",
                assertThrows(IllegalArgumentException.class, partial::build).getMessage());
        partial.machineBits(10).machine("a", 4).machine("b", 5);
        assertEquals("layout b: machine bits 10 but the named parts add up to 9; give one or the other",
                assertThrows(IllegalArgumentException.class, partial::build).getMessage());
        assertEquals("layout b: timestamp bits 0 out of range; allowed 1 to 62", assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("b").epoch(Instant.EPOCH).timestampBits(0).machineBits(1).sequenceBits(1)
                        .build()).getMessage());
        assertEquals("layout b: sequence bits 0 out of range; allowed 1 to 31", assertThrows(IllegalArgumentException.class,
                () -> SnowflakeLayout.custom("b").epoch(Instant.EPOCH).timestampBits(41).machineBits(1).sequenceBits(0)
                        .build()).getMessage());
        assertEquals("layout b: epoch 1969-12-31T23:59:59Z is before 1970-01-01T00:00:00Z; allowed: the Unix epoch or later",
                assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.custom("b")
                        .epoch(Instant.EPOCH.minusSeconds(1)).timestampBits(41).machineBits(10).sequenceBits(12).build())
                        .getMessage());
        SnowflakeLayout.Builder reused = SnowflakeLayout.custom("r").epoch(Instant.EPOCH).timestampBits(41)
                .machineBits(10).sequenceBits(12);
        assertEquals(reused.build(), reused.build(), "build() leaves the builder as it was");
        assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.custom(" "));
        assertThrows(IllegalArgumentException.class, () -> SnowflakeLayout.custom("b").machine("", 3));
    }

    @Test
    void namedMachinePartsAreReadHighBitsFirst() {
        SnowflakeLayout l = SnowflakeLayout.custom("parts").epoch(Instant.EPOCH).timestampBits(41)
                .machine("region", 3).machine("rack", 2).machine("node", 5).sequenceBits(12).build();
        assertEquals(10, l.machineBits());
        SnowflakeId id = l.decode(l.encode(7, 0b101_10_11001, 1));
        assertEquals(0b101, id.machinePart("region"));
        assertEquals(0b10, id.machinePart("rack"));
        assertEquals(0b11001, id.machinePart("node"));
        assertEquals("729 (region 5, rack 2, node 25)", id.machineDescription());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> id.machinePart("shard"));
        assertEquals("layout parts has no machine part named 'shard'; its parts: [region, rack, node]", e.getMessage());
    }

    /** For any valid layout and fields: decode(encode) gives the fields back, and the ID is not negative. */
    @Test
    void decodeInvertsEncodeForAnyLayout() {
        qt().withFixedSeed(20261202L).withExamples(2000)
                // at least 8 sequence bits keeps 2^timestampBits ticks of up to 10 ms inside a long
                .forAll(integers().between(8, 31), integers().between(0, 31), integers().between(1, 10),
                        longs().all())
                .checkAssert((sequenceBits, machineBits, tickMillis, seed) -> {
                    int total = 63 + (int) (seed >>> 63);
                    int timestampBits = total - sequenceBits - machineBits;
                    FieldOrder order = (seed & 2) == 0 ? FieldOrder.TIME_MACHINE_SEQUENCE
                            : FieldOrder.TIME_SEQUENCE_MACHINE;
                    SnowflakeLayout layout = SnowflakeLayout.custom("p")
                            .epoch(Instant.ofEpochMilli(1288834974657L)).tick(Duration.ofMillis(tickMillis))
                            .timestampBits(timestampBits).machineBits(machineBits).sequenceBits(sequenceBits)
                            .fieldOrder(order).build();
                    SplittableRandom random = new SplittableRandom(seed);
                    long ts = random.nextLong(Math.min(layout.maxTimestamp(), 1L << 40) + 1);
                    long machine = random.nextLong(layout.maxMachineId() + 1);
                    long sequence = random.nextLong(layout.maxSequence() + 1);
                    long id = layout.encode(ts, machine, sequence);
                    assertTrue(id >= 0, "negative id for " + layout);
                    SnowflakeId decoded = layout.decode(id);
                    assertEquals(machine, decoded.machineId(), layout::toString);
                    assertEquals(sequence, decoded.sequence(), layout::toString);
                    assertEquals(layout.epoch().plusMillis(ts * tickMillis), decoded.timestamp(), layout::toString);
                    assertEquals(ts, layout.timestampOf(decoded.timestamp()), layout::toString);
                });
    }
}
