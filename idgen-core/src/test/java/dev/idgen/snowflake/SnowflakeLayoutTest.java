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
        assertTrue(e.getMessage().contains("-5") && e.getMessage().contains("twitter"), e.getMessage());
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
                () -> new SnowflakeLayout("x", 41, 10, 14, Instant.EPOCH, Duration.ofMillis(1),
                        FieldOrder.TIME_MACHINE_SEQUENCE));
        assertTrue(sum.getMessage().contains("= 65 bits") && sum.getMessage().contains("63"), sum.getMessage());

        IllegalArgumentException seq = assertThrows(IllegalArgumentException.class,
                () -> new SnowflakeLayout("x", 31, 0, 32, Instant.EPOCH, Duration.ofMillis(1),
                        FieldOrder.TIME_MACHINE_SEQUENCE));
        assertTrue(seq.getMessage().contains("sequence bits 32"), seq.getMessage());

        IllegalArgumentException tick = assertThrows(IllegalArgumentException.class,
                () -> new SnowflakeLayout("x", 41, 10, 12, Instant.EPOCH, Duration.ofNanos(1500),
                        FieldOrder.TIME_MACHINE_SEQUENCE));
        assertTrue(tick.getMessage().contains("whole number of milliseconds"), tick.getMessage());

        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> new SnowflakeLayout("x", 62, 0, 1, Instant.EPOCH, Duration.ofMillis(10),
                        FieldOrder.TIME_MACHINE_SEQUENCE));
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
                    SnowflakeLayout layout = new SnowflakeLayout("p", timestampBits, machineBits,
                            sequenceBits, Instant.ofEpochMilli(1288834974657L), Duration.ofMillis(tickMillis), order);
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
