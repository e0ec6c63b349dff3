package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.uuid.UuidInfo;
import dev.idgen.uuid.Uuids;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GenerateCommandsTest {

    @ParameterizedTest
    @ValueSource(strings = {"twitter", "discord", "instagram", "sonyflake"})
    void snowflakeMakesNIdsOfTheLayoutAndMachineAskedFor(String layoutName) {
        SnowflakeLayout layout = SnowflakeLayout.preset(layoutName);
        ManualClock clock = ManualClock.at(Cli.NOW).autoAdvanceEvery(100, Duration.ofMillis(10));
        Cli.Run r = Cli.runAt(clock, "", false, "snowflake", "-n", "1000", "--machine", "7", "--layout", layoutName);
        assertEquals(0, r.exit(), r.err());
        long[] ids = Arrays.stream(r.lines()).mapToLong(Long::parseLong).toArray();
        assertEquals(1000, ids.length);
        for (int i = 0; i < ids.length; i++) {
            SnowflakeId d = layout.decode(ids[i]);
            assertEquals(7, d.machineId(), "id " + i + " " + d);
            assertTrue(!d.timestamp().isBefore(Cli.NOW.minusMillis(layout.tickMillis())) && d.timestamp().isBefore(Cli.NOW.plusSeconds(1)),
                    "id " + i + " " + d);
            assertTrue(i == 0 || ids[i] > ids[i - 1], "not increasing at " + i);
        }
    }

    @Test
    void snowflakeWithTheMachineIdOnTop() {
        ManualClock clock = ManualClock.at(Cli.NOW).autoAdvanceEvery(100, Duration.ofMillis(10));
        Cli.Run r = Cli.runAt(clock, "", false, "snowflake", "-n", "500", "--machine", "7", "--field-order",
                "machine-time-sequence");
        assertEquals(0, r.exit(), r.err());
        long[] ids = Arrays.stream(r.lines()).mapToLong(Long::parseLong).toArray();
        assertEquals(500, ids.length);
        long twepoch = 1288834974657L;
        for (int i = 0; i < ids.length; i++) {
            assertEquals(7, ids[i] >>> 53, "Twitter's 10 machine bits on top: " + ids[i]);
            long millis = twepoch + (ids[i] >>> 12 & ((1L << 41) - 1));
            assertTrue(millis >= Cli.NOW.toEpochMilli() && millis < Cli.NOW.toEpochMilli() + 1000, "id " + i);
            assertTrue(i == 0 || ids[i] > ids[i - 1], "not increasing at " + i);
        }
    }

    @Test
    void aFieldOrderALayoutCannotTakeIsAUsageErrorWithCoresReason() {
        Cli.Run r = Cli.run("snowflake", "--layout", "discord", "--field-order", "machine-time-sequence");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().contains("--field-order machine-time-sequence does not fit --layout discord")
                && r.err().contains("64 bits would make the sign bit a machine bit"), r.err());
        Cli.Run bad = Cli.run("snowflake", "--field-order", "machine-first");
        assertEquals(IdgenCommand.EXIT_USAGE, bad.exit());
        assertTrue(bad.err().contains("'machine-first' is not a field order; expected one of time-machine-sequence,"
                + " time-sequence-machine, machine-time-sequence"), bad.err());
    }

    @Test
    void machineOutsideTheLayoutIsAUsageErrorNamingTheRange() {
        Cli.Run r = Cli.run("snowflake", "--machine", "1024");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("idgen snowflake: --machine 1024 is outside layout twitter's range 0..1023"), r.err());
        assertEquals(1, r.err().split("\n").length, r.err());
    }

    @Test
    void countBelowOneIsAUsageError() {
        for (String cmd : List.of("snowflake", "uuid7", "uuid4")) {
            Cli.Run r = Cli.run(cmd, "-n", "0");
            assertEquals(IdgenCommand.EXIT_USAGE, r.exit(), cmd);
            assertTrue(r.err().contains("-n 0 is out of range; expected 1 or more IDs"), r.err());
        }
        Cli.Run r = Cli.run("uuid4", "-n", "many");
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("'many'"), r.err());
    }

    @Test
    void uuid7MakesNStrictlyIncreasingVersion7UuidsAtTheClocksTime() {
        Cli.Run r = Cli.run("uuid7", "-n", "500");
        assertEquals(0, r.exit(), r.err());
        List<UUID> ids = Arrays.stream(r.lines()).map(Uuids::parse).toList();
        assertEquals(500, ids.size());
        for (int i = 0; i < ids.size(); i++) {
            UuidInfo info = Uuids.decode(ids.get(i));
            assertEquals(7, info.version());
            assertEquals(Cli.NOW, info.time().orElseThrow(), "the clock stands still, so every UUID carries NOW");
            assertTrue(i == 0 || Uuids.unsignedOrder().compare(ids.get(i - 1), ids.get(i)) < 0, "not increasing at " + i);
            assertEquals(r.lines()[i], Uuids.toString(ids.get(i)), "canonical lower-case text");
        }
    }

    @Test
    void uuid7NotMonotonicStillVersion7AtTheClocksTime() {
        Cli.Run r = Cli.run("uuid7", "--no-monotonic", "-n", "50");
        assertEquals(0, r.exit(), r.err());
        assertEquals(50, r.lines().length);
        for (String line : r.lines()) {
            UuidInfo info = Uuids.decode(Uuids.parse(line));
            assertEquals(7, info.version());
            assertEquals(Cli.NOW, info.time().orElseThrow());
        }
        assertEquals(50, new HashSet<>(List.of(r.lines())).size());
    }

    @Test
    void uuid4MakesNDistinctVersion4Uuids() {
        Cli.Run r = Cli.run("uuid4", "-n", "300");
        assertEquals(0, r.exit(), r.err());
        assertEquals(300, r.lines().length);
        for (String line : r.lines()) {
            assertEquals(4, Uuids.decode(Uuids.parse(line)).version(), line);
        }
        assertEquals(300, new HashSet<>(List.of(r.lines())).size());
    }

    @Test
    void oneIdByDefault() {
        assertEquals(1, Cli.run("snowflake").lines().length);
        assertEquals(1, Cli.run("uuid7").lines().length);
        assertEquals(1, Cli.run("uuid4").lines().length);
    }
}
