package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeLayout.FieldOrder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Two generators with fixed machine ids in one JVM whose IDs can coincide: the second build fails
 * naming the first while the first is reachable, whatever the layouts' names and whatever the
 * clocks; a generator built after the first is gone starts above the last tick the first used.
 *
 * <p>The registry is JVM-wide and decides from bits, so each test here uses machine ids 960 and up
 * (in 10-bit machine fields at bit 12, as Twitter's), which the other test classes do not use, and
 * holds no generator past its end.
 */
class FixedMachineIdRegistryTest {

    /** Twitter's bits under other names: 41 bits of ms since twepoch, 10 machine bits, 12 sequence bits. */
    private static SnowflakeLayout twitterBits(String name) {
        return SnowflakeLayout.custom(name).epoch(SnowflakeLayout.TWITTER.epoch()).timestampBits(41)
                .machine("region", 2).machine("host", 8).sequence("counter", 12).build();
    }

    @Test
    void sameBitsUnderOtherNamesAreRefusedNamingTheFirst() {
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).machineId(960).build();
        SnowflakeLayout renamed = twitterBits("not-twitter");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().layout(renamed).machineId(960).build());
        assertTrue(e.getMessage().startsWith("machine id 960 in layout " + renamed + " can make the same IDs as a"
                + " live generator in this JVM, " + first + " (machine id 960 in layout " + SnowflakeLayout.TWITTER
                + ")"), e.getMessage());
        // another id in the same bits is another ID space
        SnowflakeGenerator.builder().layout(renamed).machineId(961).build();
        // the system clock in another zone, or ticking by the millisecond, is checked as well
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(renamed).machineId(960)
                .clock(Clock.system(ZoneId.of("Asia/Tokyo"))).build());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(renamed).machineId(960)
                .clock(Clock.tickMillis(ZoneOffset.UTC)).build());
        assertTrue(first.nextLong() > 0, "the first still works");
    }

    @Test
    void theRefusedPairWouldMakeTheSameIds() {
        // the control for the test above: the same pair, left out of the registry, on one clock
        StepClock clock = new StepClock(Instant.parse("2026-06-01T00:00:00Z").toEpochMilli());
        SnowflakeGenerator a = SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).machineId(962)
                .clock(clock).skipMachineIdRegistry().build();
        SnowflakeGenerator b = SnowflakeGenerator.builder().layout(twitterBits("not-twitter")).machineId(962)
                .clock(clock).skipMachineIdRegistry().build();
        Set<Long> fromA = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            fromA.add(a.nextLong());
        }
        int common = 0;
        for (int i = 0; i < 500; i++) {
            common += fromA.contains(b.nextLong()) ? 1 : 0;
        }
        assertEquals(500, common, "every ID of the second was made by the first");
    }

    @Test
    void aGeneratorOnATickingOrInjectedClockIsCheckedToo() {
        SnowflakeGenerator ticking = SnowflakeGenerator.builder().machineId(963).clock(Clock.tickMillis(ZoneOffset.UTC)).build();
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().machineId(963).build());
        StepClock clock = new StepClock(InstantSource.system().millis());
        SnowflakeGenerator injected = SnowflakeGenerator.builder().machineId(964).clock(clock).build();
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().machineId(964).clock(clock).build());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().machineId(964)
                .clock(new StepClock(0)).build(), "another clock is no way around it");
        assertTrue(ticking.nextLong() > 0 && injected.nextLong() > 0);
    }

    @Test
    void sameBitsWithAnotherEpochOrTickAreRefused() {
        SnowflakeGenerator first = SnowflakeGenerator.builder().machineId(965).build();
        SnowflakeLayout later = SnowflakeLayout.custom("later").epoch(Instant.parse("2024-01-01T00:00:00Z"))
                .timestampBits(41).machineBits(10).sequenceBits(12).build();
        SnowflakeLayout tenMs = SnowflakeLayout.custom("ten-ms").epoch(SnowflakeLayout.TWITTER.epoch())
                .tick(Duration.ofMillis(10)).timestampBits(41).machineBits(10).sequenceBits(12).build();
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(later).machineId(965).build());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(tenMs).machineId(965).build());
        assertTrue(first.nextLong() > 0);
    }

    @Test
    void sameBitsWithAnotherEpochMakeTheSameLongAtAnotherInstant() {
        // the control for the test above: the later epoch's generator, 2,000 days on, repeats the first
        Instant twepoch = SnowflakeLayout.TWITTER.epoch();
        Instant shifted = twepoch.plus(Duration.ofDays(2000));
        SnowflakeLayout later = SnowflakeLayout.custom("later").epoch(shifted)
                .timestampBits(41).machineBits(10).sequenceBits(12).build();
        long now = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();
        SnowflakeGenerator a = SnowflakeGenerator.builder().machineId(966).clock(new StepClock(now))
                .skipMachineIdRegistry().build();
        SnowflakeGenerator b = SnowflakeGenerator.builder().layout(later).machineId(966)
                .clock(new StepClock(now + Duration.ofDays(2000).toMillis())).skipMachineIdRegistry().build();
        assertEquals(a.nextLong(), b.nextLong());
    }

    @Test
    void oneLayoutInAnotherFieldOrderIsRefusedForEveryMachineId() {
        // time-first (t, 42, s) and machine-first (m, t, s) share no machine bit: machine-first IDs of
        // any machine include time-first IDs of machine 42 at some tick, so the rule refuses them all
        SnowflakeLayout timeFirst = twitterBits("order");
        SnowflakeLayout machineFirst = timeFirst.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE);
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(timeFirst).machineId(967).build();
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(machineFirst).machineId(967).build());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeGenerator.builder().layout(machineFirst).machineId(5).build());
        assertTrue(first.nextLong() > 0, "the first still works");
    }

    @Test
    void twoSplitsConflictOnlyWhenTheirMachineFieldsAgreeWhereTheyMeet() {
        // Twitter's machine bits are 12..21, Sonyflake's 0..15: they meet in bits 12..15
        SnowflakeGenerator twitter = SnowflakeGenerator.builder().machineId(976).build(); // 976 = 0b1111010000
        // bits 12..15 of Sonyflake id 0x0001 are 0000, of Twitter's 976 (its low 4 bits) 0000: a long fits both
        assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.builder().layout(SnowflakeLayout.SONYFLAKE).machineId(0x0001).build());
        // 0x1001 has 0001 there: no long is in both
        SnowflakeGenerator sony = SnowflakeGenerator.builder().layout(SnowflakeLayout.SONYFLAKE).machineId(0x1001).build();
        assertTrue(twitter.nextLong() > 0 && sony.nextLong() > 0);
    }

    @Test
    void theOverlapRuleAgreesWithEnumeratingEveryLongOfSmallLayouts() {
        // an oracle independent of the rule: every long below 2^12, decoded by each layout
        SplittableRandom random = new SplittableRandom(0x0DD5EEDL);
        FieldOrder[] orders = FieldOrder.values();
        int conflicts = 0;
        for (int trial = 0; trial < 300; trial++) {
            SnowflakeLayout a = smallLayout(random, orders);
            SnowflakeLayout b = smallLayout(random, orders);
            long ma = random.nextLong(a.maxMachineId() + 1);
            long mb = random.nextLong(b.maxMachineId() + 1);
            boolean common = false;
            for (long x = 0; x < 1 << 12 && !common; x++) {
                common = canMake(a, ma, x) && canMake(b, mb, x);
            }
            boolean rule = MachineIdRegistry.Space.of(a, ma).overlaps(MachineIdRegistry.Space.of(b, mb));
            assertEquals(common, rule, "seed 0x0DD5EED trial " + trial + ": " + a + " id " + ma + " and " + b + " id " + mb);
            conflicts += common ? 1 : 0;
        }
        assertTrue(conflicts > 30 && conflicts < 270, "both answers were tried: " + conflicts + " of 300 overlap");
    }

    private static SnowflakeLayout smallLayout(SplittableRandom random, FieldOrder[] orders) {
        int total = 3 + random.nextInt(10); // 3..12 bits
        int sequence = 1 + random.nextInt(total - 2);
        int machine = 1 + random.nextInt(total - sequence - 1);
        return SnowflakeLayout.custom("small").epoch(Instant.EPOCH).timestampBits(total - sequence - machine)
                .machineBits(machine).sequenceBits(sequence).fieldOrder(orders[random.nextInt(orders.length)]).build();
    }

    /** Whether a generator on {@code layout} with {@code machineId} can make {@code x}: any tick, any sequence. */
    private static boolean canMake(SnowflakeLayout layout, long machineId, long x) {
        return x <= layout.maxId() && layout.decode(x).machineId() == machineId;
    }

    @Test
    void theFrontDoorIsCoveredToo() {
        SnowflakeGenerator first = IdGenerators.snowflake(1021);
        assertThrows(IllegalArgumentException.class, () -> IdGenerators.snowflake(1021));
        first.nextLong();
    }

    @Test
    void aGeneratorBuiltAfterTheFirstIsGoneStartsAboveItsLastTick() {
        // 1 s ticks, 1 sequence bit, runAhead(1 day): 2,000 IDs run the first 1,000 s ahead of the clock;
        // machine bits 1..10, so id 968 (0b1111001000) meets no other test's ids in bits 12..21
        SnowflakeLayout layout = SnowflakeLayout.custom("registry-after").epoch(SnowflakeLayout.TWITTER.epoch())
                .tick(Duration.ofSeconds(1)).timestampBits(52).machineBits(10).sequenceBits(1).build();
        ClockBackwardsPolicy aDay = ClockBackwardsPolicy.runAhead(Duration.ofDays(1));
        // on the system clock ticking by the millisecond: one timeline with the system clock
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(968)
                .clock(Clock.tickMillis(ZoneOffset.UTC)).onClockBackwards(aDay).build();
        long last = 0;
        for (int i = 0; i < 2000; i++) {
            last = first.nextLong();
        }
        long firstsMark = first.highWaterMark();
        assertTrue(firstsMark > InstantSource.system().millis() + 900_000, "ran ahead of the clock");
        MachineIdRegistry.simulateCollected(layout, 968);

        SnowflakeGenerator second = SnowflakeGenerator.builder().layout(layout).machineId(968).onClockBackwards(aDay).build();
        assertEquals(firstsMark, second.highWaterMark(), "starts at the first's last tick, before its own first ID");
        long next = second.nextLong();
        assertTrue(next > last, "above every ID of the first: " + next + " after " + last);
    }

    @Test
    void aSimulatedClocksMarkIsNotCarriedToTheSystemClock() {
        SnowflakeLayout layout = SnowflakeLayout.custom("registry-sim").epoch(SnowflakeLayout.TWITTER.epoch())
                .tick(Duration.ofSeconds(1)).timestampBits(52).machineBits(10).sequenceBits(1).build();
        long aYearAhead = InstantSource.system().millis() + Duration.ofDays(365).toMillis();
        SnowflakeGenerator simulated = SnowflakeGenerator.builder().layout(layout).machineId(969)
                .clock(new StepClock(aYearAhead)).build();
        simulated.nextLong();
        MachineIdRegistry.simulateCollected(layout, 969);
        SnowflakeGenerator real = SnowflakeGenerator.builder().layout(layout).machineId(969).build();
        assertTrue(real.highWaterMark() < aYearAhead - Duration.ofDays(300).toMillis(),
                "starts from its own clock, not a simulation's year ahead: " + real.highWaterMark());
        assertTrue(real.nextLong() > 0);
    }

    @Test
    void withoutTheRegistryTheSecondWouldRepeatTheFirstsIds() {
        // the control for the carry-over: left out of the registry, the second generator starts from
        // the clock, below the IDs the first ran ahead to
        SnowflakeLayout layout = SnowflakeLayout.custom("registry-control").epoch(SnowflakeLayout.TWITTER.epoch())
                .tick(Duration.ofSeconds(1)).timestampBits(52).machineBits(10).sequenceBits(1).build();
        ClockBackwardsPolicy aDay = ClockBackwardsPolicy.runAhead(Duration.ofDays(1));
        StepClock clock = new StepClock(InstantSource.system().millis());
        SnowflakeGenerator first = SnowflakeGenerator.builder().layout(layout).machineId(970).clock(clock)
                .onClockBackwards(aDay).skipMachineIdRegistry().build();
        long last = 0;
        for (int i = 0; i < 2000; i++) {
            last = first.nextLong();
        }
        SnowflakeGenerator second = SnowflakeGenerator.builder().layout(layout).machineId(970).clock(clock)
                .onClockBackwards(aDay).skipMachineIdRegistry().build();
        assertTrue(second.nextLong() < last, "an unregistered second generator starts below the first's IDs");
        assertFalse(MachineIdRegistry.isLive(layout, 970));
    }

    @Test
    void aFirstGeneratorThatIsReallyCollectedFreesItsId() {
        long last = buildUseAndDrop();
        // bounded: the build itself asks for collection a few times; loop a little more if needed
        SnowflakeGenerator second = null;
        for (int i = 0; i < 20 && second == null; i++) {
            try {
                second = SnowflakeGenerator.builder().layout(twitterBits("registry-gc")).machineId(971).build();
            } catch (IllegalArgumentException stillLive) {
                System.gc();
            }
        }
        assertTrue(second != null, "the first generator was never collected");
        assertTrue(second.nextLong() > last);
    }

    private static long buildUseAndDrop() {
        SnowflakeGenerator first = SnowflakeGenerator.builder().machineId(971).build();
        return first.nextLong();
    }
}
