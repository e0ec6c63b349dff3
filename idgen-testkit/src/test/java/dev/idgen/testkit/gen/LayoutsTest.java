package dev.idgen.testkit.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ClockScript;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LayoutsTest {

    @Test
    void layoutsAreValidAndCoverTheEdges() {
        Set<String> presets = new HashSet<>();
        AtomicInteger signBit = new AtomicInteger();
        AtomicInteger oneSequenceBit = new AtomicInteger();
        AtomicInteger sequenceMachine = new AtomicInteger();
        AtomicInteger machineFirst = new AtomicInteger();
        AtomicInteger zeroMachine = new AtomicInteger();
        AtomicInteger maxMachine = new AtomicInteger();
        Seeds.forEach(0x1A70_7500L, 2000, random -> {
            SnowflakeLayout layout = Layouts.any(random);
            int bits = layout.timestampBits() + layout.machineBits() + layout.sequenceBits();
            assertTrue(bits == 63 || bits == 64 || SnowflakeLayout.presets().contains(layout), layout.toString());
            if (SnowflakeLayout.presets().contains(layout)) {
                presets.add(layout.name());
            }
            signBit.addAndGet(layout.usesSignBit() ? 1 : 0);
            oneSequenceBit.addAndGet(layout.sequenceBits() == 1 ? 1 : 0);
            sequenceMachine.addAndGet(layout.fieldOrder() == SnowflakeLayout.FieldOrder.TIME_SEQUENCE_MACHINE ? 1 : 0);
            machineFirst.addAndGet(layout.fieldOrder() == SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE ? 1 : 0);
            long machine = Layouts.machineId(random, layout);
            assertTrue(machine >= 0 && machine <= layout.maxMachineId(), layout + ": " + machine);
            zeroMachine.addAndGet(machine == 0 ? 1 : 0);
            maxMachine.addAndGet(machine == layout.maxMachineId() ? 1 : 0);
            Instant start = Layouts.startInstant(random, layout);
            assertTrue(!start.isBefore(layout.epoch()) && !start.isAfter(layout.lastInstant()), layout + ": " + start);
        });
        assertEquals(SnowflakeLayout.presets().stream().map(SnowflakeLayout::name).collect(java.util.stream.Collectors.toSet()),
                presets);
        assertTrue(signBit.get() > 100, "64-bit layouts: " + signBit);
        assertTrue(oneSequenceBit.get() > 100, "one-bit sequences: " + oneSequenceBit);
        assertTrue(sequenceMachine.get() > 300, "Sonyflake field order: " + sequenceMachine);
        assertTrue(machineFirst.get() > 300, "machine-first field order: " + machineFirst);
        assertTrue(zeroMachine.get() > 150 && maxMachine.get() > 150, zeroMachine + " / " + maxMachine);
    }

    @Test
    void distinctMachineIds() {
        Seeds.forEach(99, 200, random -> {
            SnowflakeLayout layout = Layouts.any(random);
            int count = (int) Math.min(layout.maxMachineId() + 1, 1 + random.nextInt(50));
            long[] ids = Layouts.machineIds(random, layout, count);
            assertEquals(count, ids.length);
            for (int i = 0; i < ids.length; i++) {
                assertTrue(ids[i] >= 0 && ids[i] <= layout.maxMachineId());
                assertTrue(i == 0 || ids[i] > ids[i - 1], "distinct and sorted");
            }
        });
        SnowflakeLayout noMachines = SnowflakeLayout.custom("solo")
                .epoch(Instant.EPOCH).tick(java.time.Duration.ofMillis(1))
                .timestampBits(51).machineBits(0).sequenceBits(12)
                .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Layouts.machineIds(new SplittableRandom(1), noMachines, 2));
        assertTrue(e.getMessage().contains("which has 1"), e.getMessage());
    }

    @Test
    void clockScriptsStepEveryWayAndNeverBeforeTheEpoch() {
        AtomicInteger back = new AtomicInteger();
        AtomicInteger stay = new AtomicInteger();
        AtomicInteger forward = new AtomicInteger();
        Seeds.forEach(5, 100, random -> {
            ClockScript script = ClockScripts.any(random, Instant.ofEpochMilli(20), 200, 4, 30);
            for (long step : script.stepsMillis()) {
                assertTrue(step >= -30 && step <= 4, "step " + step);
                (step < 0 ? back : step == 0 ? stay : forward).incrementAndGet();
            }
            for (long reading : script.readings()) {
                assertTrue(reading >= 0, script.toString());
            }
            ClockScript never = ClockScripts.any(random, Instant.ofEpochMilli(20), 200, 4, 0);
            assertEquals(0, never.largestStepBackMillis(), never.toString());
        });
        assertTrue(back.get() > 1000 && stay.get() > 5000 && forward.get() > 5000, back + " " + stay + " " + forward);
    }
}
