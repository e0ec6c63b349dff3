package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.cli.demo.Demo;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.index.model.IndexScoreboard;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeySource;
import dev.idgen.uuid.Uuids;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo's text checked against what the library does, computed here through core and the testkit. */
class DemoCommandTest {

    private static String out;

    @BeforeAll
    static void runDemo() {
        Cli.Run r = Cli.run("demo");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        out = r.out();
    }

    private static long idAfter(String prefix) {
        Matcher m = Pattern.compile(Pattern.quote(prefix) + "\\s*(\\d+)").matcher(out);
        assertTrue(m.find(), () -> "no '" + prefix + "' in\n" + out);
        return Long.parseLong(m.group(1));
    }

    private static String section(int n) {
        int from = out.indexOf("\n" + n + ". ");
        int to = out.indexOf("\n" + (n + 1) + ". ");
        assertTrue(from >= 0, "no section " + n);
        return out.substring(from, to < 0 ? out.length() : to);
    }

    @Test
    void sameOutputEveryRun() {
        assertEquals(out, Cli.run("demo").out());
        ManualClock other = ManualClock.at(Cli.NOW.plus(Duration.ofDays(400)));
        assertEquals(out, Cli.runAt(other, "", false, "demo").out(), "the demo does not read the real clock");
    }

    @Test
    void twoMachinesDifferOnlyInTheMachineBits() {
        long a = idAfter("machine " + Demo.MACHINE_A + ":");
        long b = idAfter("machine " + Demo.MACHINE_B + ":");
        SnowflakeId da = SnowflakeLayout.TWITTER.decode(a);
        SnowflakeId db = SnowflakeLayout.TWITTER.decode(b);
        assertEquals(Demo.START, da.timestamp());
        assertEquals(Demo.START, db.timestamp());
        assertEquals(Demo.MACHINE_A, da.machineId());
        assertEquals(Demo.MACHINE_B, db.machineId());
        assertEquals(0, da.sequence());
        assertEquals(0L, (a ^ b) & ~(1023L << 12), "only machine bits differ");
        String bits = String.format("%64s", Long.toBinaryString(a)).replace(' ', '0');
        String shown = bits.charAt(0) + " " + bits.substring(1, 42) + " " + bits.substring(42, 47) + " "
                + bits.substring(47, 52) + " " + bits.substring(52);
        assertTrue(section(1).contains(shown), shown + " not in\n" + section(1));
        assertTrue(section(1).contains("datacenter 1 | worker 2"), section(1));
    }

    @Test
    void request4097WaitsForTheNextMillisecondAndStartsAtSequenceZero() {
        SnowflakeId first = SnowflakeLayout.TWITTER.decode(idAfter("request     1 ->"));
        SnowflakeId last = SnowflakeLayout.TWITTER.decode(idAfter("request 4,096 ->"));
        SnowflakeId over = SnowflakeLayout.TWITTER.decode(idAfter("request 4,097 ->"));
        assertEquals(Demo.START, first.timestamp());
        assertEquals(first.timestamp(), last.timestamp());
        assertEquals(SnowflakeLayout.TWITTER.maxSequence(), last.sequence());
        assertEquals(0, over.sequence());
        assertEquals(first.timestamp().toEpochMilli() + 1, over.timestamp().toEpochMilli());
        assertTrue(section(2).contains("All 4,097 IDs are distinct and each is larger than the one before."), section(2));
    }

    @Test
    void stepBackUnderRefuseShowsTheLibrarysExceptionAndUnderWaitAnIdFromTheSameMillisecond() {
        ManualClock clock = ManualClock.at(Demo.START);
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(1).clock(clock)
                .onClockBackwards(ClockBackwardsPolicy.refuse()).build();
        ids.nextLong();
        clock.stepBack(Demo.STEP_BACK);
        ClockMovedBackwardsException e = assertThrows(ClockMovedBackwardsException.class, ids::nextLong);
        String s = section(3);
        assertTrue(s.contains("ClockMovedBackwardsException: " + e.getMessage()), s);
        assertEquals(5, e.millisBehind());

        String waiting = s.substring(s.indexOf("under waitUpTo(5 ms):"));
        int from = waiting.indexOf("after the step:");
        Matcher m = Pattern.compile("after the step:\\s*(\\d+)").matcher(waiting.substring(from));
        assertTrue(m.find(), waiting);
        SnowflakeId after = SnowflakeLayout.TWITTER.decode(Long.parseLong(m.group(1)));
        assertEquals(Demo.START, after.timestamp(), "waited until the clock was back at the last millisecond used");
        assertEquals(1, after.sequence());
    }

    @Test
    void v7SortsInCreationOrderAndV4AsItsBitsSay() {
        List<UUID> v7 = new ArrayList<>();
        List<UUID> v4 = new ArrayList<>();
        Matcher m = Pattern.compile("\n   (\\d)  (\\S{36})  (\\S{36})").matcher(section(4));
        while (m.find()) {
            v7.add(Uuids.parse(m.group(2)));
            v4.add(Uuids.parse(m.group(3)));
        }
        assertEquals(Demo.SORTED_IDS, v7.size(), section(4));
        assertTrue(section(4).contains("UUIDv7: " + ranks(v7)), ranks(v7) + "\n" + section(4));
        assertTrue(section(4).contains("UUIDv4: " + ranks(v4)), ranks(v4) + "\n" + section(4));
        assertTrue(ranks(v7).equals("1 2 3 4 5 6 (creation order)"));
        for (UUID u : v7) {
            assertEquals(7, Uuids.decode(u).version());
            assertTrue(!Uuids.decode(u).time().orElseThrow().isBefore(Demo.START));
        }
    }

    private static String ranks(List<UUID> made) {
        List<UUID> sorted = new ArrayList<>(made);
        sorted.sort(Uuids.unsignedOrder());
        StringBuilder s = new StringBuilder();
        for (UUID u : sorted) {
            s.append(made.indexOf(u) + 1).append(' ');
        }
        boolean inOrder = sorted.equals(made);
        return s + (inOrder ? "(creation order)" : "(not creation order)");
    }

    @Test
    void twelveInsertsMatchTheScoreboardAndTheTextbook() {
        IndexScoreboard board = IndexScoreboard.builder().rows(12).generators(1).idsPerMilli(1).seed(Demo.SEED)
                .index(b -> b.leafCapacity(4)).build();
        IndexStats v7 = board.run(KeySource.UUID_V7);
        IndexStats v4 = board.run(KeySource.UUID_V4);
        // the textbook figures (DESIGN.md): 12 ordered keys into 4-key leaves
        assertEquals(3, v7.leafPages());
        assertEquals(2, v7.leafSplits());
        assertEquals(16, v7.pageWrites());
        String s = section(5);
        assertTrue(s.contains("| UUIDv7 | BINARY(16) | 2 | 16 | 3 | 100.0 % |"), s);
        assertTrue(s.contains(String.format(java.util.Locale.ROOT, "| UUIDv4 | BINARY(16) | %d | %d | %d | %.1f %% |",
                v4.leafSplits(), v4.pageWrites(), v4.leafPages(), 100 * v4.averageLeafFill())), s);
        assertTrue(s.contains(v4.leafPages() + " leaves, " + v4.leafSplits() + " splits, " + v4.pageWrites() + " page writes"), s);
        assertTrue(v4.leafSplits() > v7.leafSplits(), "premise of the scenario: v4 splits more");
    }

    @Test
    void noColoursWhenNotATerminalAndBoldHeadingsOnOne() {
        assertTrue(Arrays.stream(out.split("\n")).noneMatch(l -> l.contains("\u001b")));
        String onTerminal = Cli.runAt(ManualClock.at(Cli.NOW), "", true, "demo").out();
        assertTrue(onTerminal.contains("\u001b[1m1. The bits"), onTerminal.substring(0, 400));
    }
}
