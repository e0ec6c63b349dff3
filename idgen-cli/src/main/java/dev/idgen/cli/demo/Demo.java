package dev.idgen.cli.demo;

import dev.idgen.random.RandomSource;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.index.model.IndexScoreboard;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeySource;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import dev.idgen.uuid.Uuids;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The five classic scenarios, run on core's real generators with a {@link ManualClock} the demo
 * moves, and on the testkit's index scoreboard: what it prints is what the library does. The
 * clock starts at {@link #START} and every random bit comes from {@link #SEED}, so the output is
 * the same on every run.
 */
public final class Demo {

    /** Where the demo's clock starts. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    /** The seed of every random bit in the demo. */
    public static final long SEED = 42;

    /** The two machines of scenario 1: datacenter 0 worker 1, and datacenter 1 worker 2. */
    public static final long MACHINE_A = 1;

    /** See {@link #MACHINE_A}. */
    public static final long MACHINE_B = 34;

    /** Requests in one millisecond in scenario 2: one more than Twitter's 12-bit sequence holds. */
    public static final int BURST = 4097;

    /** How far the clock steps back in scenario 3. */
    public static final Duration STEP_BACK = Duration.ofMillis(5);

    /** UUIDs of each version in scenario 4. */
    public static final int SORTED_IDS = 6;

    /** Rows and leaf capacity of scenario 5, the textbook example. */
    public static final int INSERTS = 12;

    /** See {@link #INSERTS}. */
    public static final int LEAF_KEYS = 4;

    private static final int[] TWITTER_FIELDS = {1, 41, 5, 5, 12};

    private final PrintWriter out;
    private final boolean bold;

    /**
     * @param out where the text goes
     * @param bold whether headings may be bold (standard output is a terminal)
     */
    public Demo(PrintWriter out, boolean bold) {
        this.out = out;
        this.bold = bold;
    }

    /** Runs all five scenarios. */
    public void run() {
        out.println("idgen demo: five classic scenarios on the real generators. The clock is one the demo moves by");
        out.println("hand, starting at " + START + ", and random bits come from seed " + SEED + ", so every ID");
        out.println("and count below is what the library does, the same on every run.");
        bitsOfTwoMachines();
        burst();
        clockStepsBack();
        sorting();
        inserts();
        out.flush();
    }

    private void heading(String text) {
        out.println();
        out.println(bold ? "\u001b[1m" + text + "\u001b[0m" : text);
    }

    private void bitsOfTwoMachines() {
        heading("1. The bits of one ID from each of two machines");
        SnowflakeLayout layout = SnowflakeLayout.TWITTER;
        out.println("   Twitter layout: sign | 41 bits of ms since " + layout.epoch() + " | 5 datacenter | 5 worker | 12 sequence");
        for (long machine : new long[] {MACHINE_A, MACHINE_B}) {
            ManualClock clock = ManualClock.at(START);
            long id = SnowflakeGenerator.builder().machineId(machine).clock(clock).skipMachineIdRegistry().build().nextLong();
            SnowflakeId d = layout.decode(id);
            out.printf(Locale.ROOT, "%n   machine %d: %d%n", machine, id);
            out.println("     " + bits(id, TWITTER_FIELDS));
            out.printf(Locale.ROOT, "     sign 0 | %,d ms = %s | datacenter %d | worker %d | sequence %d%n",
                    (d.timestamp().toEpochMilli() - layout.epoch().toEpochMilli()), d.timestamp(), d.datacenterId(),
                    d.workerId(), d.sequence());
        }
        out.println("   Same millisecond, same sequence: only the 10 machine bits differ, so the two machines never");
        out.println("   make the same ID without talking to each other.");
    }

    private void burst() {
        heading(String.format(Locale.ROOT, "2. %,d requests in one millisecond (machine 1, the clock standing still)", BURST));
        ManualClock clock = ManualClock.at(START);
        // the demo's generators run on manual clocks and keep no ID: left out of the JVM's registry
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(1).clock(clock).skipMachineIdRegistry().build();
        long[] made = new long[BURST];
        for (int i = 0; i < BURST - 1; i++) {
            made[i] = ids.nextLong();
        }
        clock.autoAdvance(Duration.ofMillis(1));   // from now on each read is 1 ms later, so a wait ends
        long readsBefore = clock.reads();
        made[BURST - 1] = ids.nextLong();
        long reads = clock.reads() - readsBefore;
        for (int i : new int[] {0, 1, BURST - 2, BURST - 1}) {
            SnowflakeId d = SnowflakeLayout.TWITTER.decode(made[i]);
            out.printf(Locale.ROOT, "   request %,5d -> %d  time %s  sequence %,d%n", i + 1, made[i], d.timestamp(), d.sequence());
        }
        boolean increasing = true;
        for (int i = 1; i < BURST; i++) {
            increasing &= made[i] > made[i - 1];
        }
        out.printf(Locale.ROOT, "   The 12-bit sequence holds %,d IDs a millisecond. Request %,d found it used up and spun,%n",
                SnowflakeLayout.TWITTER.maxSequence() + 1, BURST);
        out.printf(Locale.ROOT, "   re-reading the clock (%d reads), until the next millisecond; its sequence starts again at 0.%n", reads);
        out.printf(Locale.ROOT, "   All %,d IDs %s.%n", BURST, increasing ? "are distinct and each is larger than the one before"
                : "are NOT strictly increasing");
    }

    private void clockStepsBack() {
        heading("3. The clock steps back " + STEP_BACK.toMillis() + " ms (NTP corrects a fast clock)");
        for (ClockBackwardsPolicy policy : List.of(ClockBackwardsPolicy.refuse(), ClockBackwardsPolicy.waitUpTo(STEP_BACK))) {
            ManualClock clock = ManualClock.at(START);
            SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(1).clock(clock).onClockBackwards(policy)
                    .skipMachineIdRegistry().build();
            out.println("   under " + policy + ":");
            describe("before the step", ids.nextLong());
            clock.stepBack(STEP_BACK);
            if (policy instanceof ClockBackwardsPolicy.Refuse) {
                try {
                    describe("after the step", ids.nextLong());
                } catch (ClockMovedBackwardsException e) {
                    out.println("     after the step:  " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
                clock.advance(STEP_BACK);
                describe("clock caught up", ids.nextLong());
            } else {
                clock.autoAdvance(Duration.ofMillis(1));
                long before = clock.reads();
                long id = ids.nextLong();
                describe("after the step", id);
                out.printf(Locale.ROOT, "     the call spun until the clock was back at the last millisecond used (%d clock reads,%n",
                        clock.reads() - before);
                out.println("     the demo's clock moving 1 ms a read): the caller saw a delay, not an error.");
            }
        }
        out.println("   Either way no ID repeats and none goes back in time; a step longer than waitUpTo's bound is refused too.");
    }

    private void describe(String label, long id) {
        SnowflakeId d = SnowflakeLayout.TWITTER.decode(id);
        out.printf(Locale.ROOT, "     %-16s %d  time %s  sequence %d%n", label + ":", id, d.timestamp(), d.sequence());
    }

    private void sorting() {
        heading("4. Sorting: UUIDv7 sorts in creation order, UUIDv4 does not");
        ManualClock clock = ManualClock.at(START);
        UuidV7Generator v7 = UuidV7Generator.builder().clock(clock).randomness(RandomSource.seeded(SEED)).build();
        UuidV4Generator v4 = UuidV4Generator.builder().randomness(RandomSource.seeded(SEED)).build();
        List<UUID> made7 = new ArrayList<>();
        List<UUID> made4 = new ArrayList<>();
        for (int i = 0; i < SORTED_IDS; i++) {
            if (i > 0 && i % 2 == 0) {
                clock.advance(Duration.ofMillis(1));
            }
            made7.add(v7.next());
            made4.add(v4.next());
        }
        out.printf(Locale.ROOT, "   %d of each, two per millisecond, in the order made:%n", SORTED_IDS);
        out.println("   #  UUIDv7                                UUIDv4");
        for (int i = 0; i < SORTED_IDS; i++) {
            out.printf(Locale.ROOT, "   %d  %s  %s%n", i + 1, Uuids.toString(made7.get(i)), Uuids.toString(made4.get(i)));
        }
        out.println("   sorted as a database index sorts them (unsigned bytes), by creation number:");
        out.println("     UUIDv7: " + sortedRanks(made7));
        out.println("     UUIDv4: " + sortedRanks(made4));
        out.println("   v7 starts with the millisecond, then a counter, so newer sorts after older; v4 is all random bits.");
    }

    /** @return the 1-based creation numbers of {@code made} in sorted order, and whether that is creation order */
    static String sortedRanks(List<UUID> made) {
        List<UUID> sorted = new ArrayList<>(made);
        sorted.sort(Uuids.unsignedOrder());
        StringBuilder s = new StringBuilder();
        boolean inOrder = true;
        for (int i = 0; i < sorted.size(); i++) {
            int rank = made.indexOf(sorted.get(i)) + 1;
            inOrder &= rank == i + 1;
            s.append(rank).append(' ');
        }
        return s.append(inOrder ? "(creation order)" : "(not creation order)").toString();
    }

    private void inserts() {
        heading(String.format(Locale.ROOT, "5. %d inserts into a B+ tree of %d-key leaves", INSERTS, LEAF_KEYS));
        IndexScoreboard board = IndexScoreboard.builder().rows(INSERTS).generators(1).idsPerMilli(1).seed(SEED)
                .index(b -> b.leafCapacity(LEAF_KEYS)).build();
        Map<KeySource, IndexStats> results = new EnumMap<>(KeySource.class);
        for (KeySource source : List.of(KeySource.UUID_V7, KeySource.UUID_V4)) {
            results.put(source, board.run(source));
        }
        for (String line : IndexScoreboard.markdownTable(results).split("\n")) {
            out.println("   " + line);
        }
        IndexStats v7 = results.get(KeySource.UUID_V7);
        IndexStats v4 = results.get(KeySource.UUID_V4);
        out.printf(Locale.ROOT, "   v7: each key is past the last one, so it goes to the rightmost leaf; a full leaf is left full%n");
        out.printf(Locale.ROOT, "   and a new one started: %d leaves, %d splits, %d page writes (1 an insert, 3 a splitting insert).%n",
                v7.leafPages(), v7.leafSplits(), v7.pageWrites());
        out.printf(Locale.ROOT, "   v4: keys land anywhere, full leaves split in half: %d leaves, %d splits, %d page writes, %.0f %% full.%n",
                v4.leafPages(), v4.leafSplits(), v4.pageWrites(), 100 * v4.averageLeafFill());
        out.println("   At a million rows the same gap is the README's table: try ./idgen index");
    }

    /** @return the 64 bits of {@code id}, a space between the fields whose widths are given */
    static String bits(long id, int[] widths) {
        String all = String.format("%64s", Long.toBinaryString(id)).replace(' ', '0');
        StringBuilder s = new StringBuilder();
        int at = 0;
        for (int w : widths) {
            if (at > 0) {
                s.append(' ');
            }
            s.append(all, at, at + w);
            at += w;
        }
        return s.toString();
    }
}
