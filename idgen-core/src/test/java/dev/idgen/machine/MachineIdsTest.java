package dev.idgen.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineIdsTest {

    @Test
    void anExplicitVariableGivesItsNumber() {
        MachineIdLease lease = MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", " 42 "));
        assertEquals(42, lease.machineId());
        assertTrue(lease.isHeld());
        assertEquals(MachineIdLease.NO_MARK, lease.highWaterMark());
        assertEquals("machine id 42 from environment variable MACHINE_ID= 42 ", lease.toString());
    }

    @Test
    void aMissingBlankOrBadVariableIsAClearError() {
        assertEquals("Environment variable MACHINE_ID is not set; it must hold this process's machine id",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of())).getMessage());
        assertEquals("Environment variable MACHINE_ID is blank; it must hold this process's machine id",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "  "))).getMessage());
        assertEquals("Machine id 'seven' from environment variable MACHINE_ID=seven is not a decimal number in"
                + " 0..1023 written in ASCII digits (no sign)",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "seven"))).getMessage());
        assertEquals("Machine id 1024 from environment variable MACHINE_ID=1024 is outside the allowed range 0..1023",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "1024"))).getMessage());
        assertEquals("Machine id '-1' from environment variable MACHINE_ID=-1 is not a decimal number in"
                + " 0..1023 written in ASCII digits (no sign)",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "-1"))).getMessage());
    }

    @Test
    void onlyAsciiDigitsWithoutASignAreAMachineId() {
        // Long.parseLong takes all of these; a machine id written so is a typo or a trick, not an id
        for (String value : new String[] {"+7", "\u0667", "\uff17", "7\u0660", "0x7", "7 7"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", value)));
            assertTrue(e.getMessage().contains("is not a decimal number in 0..1023 written in ASCII digits"),
                    e.getMessage());
            assertTrue(e.getMessage().chars().allMatch(c -> c >= 0x20 && c < 0x7f), "escaped: " + e.getMessage());
        }
        assertEquals("Machine id '\\u0667' from environment variable MACHINE_ID=\\u0667 is not a decimal number"
                + " in 0..1023 written in ASCII digits (no sign)",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "\u0667"))).getMessage());
        assertEquals("Machine id 99999999999999999999 from environment variable MACHINE_ID=99999999999999999999 is"
                + " outside the allowed range 0..1023",
                assertThrows(IllegalArgumentException.class, () -> MachineIds.fromVariable("MACHINE_ID", 1023,
                        Map.of("MACHINE_ID", "99999999999999999999"))).getMessage());
        assertEquals(7, MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", " 007 ")).machineId());
    }

    @Test
    void aStatefulSetPodNameGivesItsOrdinal() {
        assertEquals(7, MachineIds.fromPodOrdinal("HOSTNAME", 1023, Map.of("HOSTNAME", "orders-7")).machineId());
        assertEquals(12, MachineIds.fromPodOrdinal("POD", 1023, Map.of("POD", "my-app-db-12")).machineId());
        assertEquals(0, MachineIds.fromPodOrdinal("POD", 0, Map.of("POD", "orders-0")).machineId());
    }

    @Test
    void aPodNameWithoutAnOrdinalOrOutOfRangeIsAClearError() {
        for (String pod : new String[] {"orders", "orders-", "-7", "orders-7a", "orders-x7"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> MachineIds.fromPodOrdinal("HOSTNAME", 1023, Map.of("HOSTNAME", pod)));
            assertEquals("Pod name '" + pod + "' in environment variable HOSTNAME does not end in a StatefulSet"
                    + " ordinal (<name>-<number>, e.g. orders-7)", e.getMessage());
        }
        assertEquals("Machine id 1024 from the ordinal of pod name orders-1024 in environment variable HOSTNAME"
                        + " is outside the allowed range 0..1023",
                assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromPodOrdinal("HOSTNAME", 1023, Map.of("HOSTNAME", "orders-1024"))).getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MachineIds.fromPodOrdinal("HOSTNAME", 1023, Map.of()));
    }

    @Test
    void everyDigitZeroToNineEndsAnOrdinal() {
        assertEquals(90, MachineIds.fromPodOrdinal("POD", 1023, Map.of("POD", "orders-90")).machineId());
        assertEquals(9, MachineIds.fromPodOrdinal("POD", 1023, Map.of("POD", "orders-9")).machineId());
    }

    @Test
    void aValueIsQuotedWithSpacesKeptAndControlCharactersEscaped() {
        assertEquals("Machine id 'a b\\u007f' from environment variable MACHINE_ID=a b\\u007f is not a decimal number in"
                + " 0..1023 written in ASCII digits (no sign)", assertThrows(IllegalArgumentException.class,
                        () -> MachineIds.fromVariable("MACHINE_ID", 1023, Map.of("MACHINE_ID", "a b\u007f")))
                .getMessage());
    }

    @Test
    void aFixedIdSaysWhatItIs() {
        MachineIdLease zero = MachineIdLease.fixed(0);
        assertEquals(0, zero.machineId(), "0 is an id like any other");
        assertTrue(zero.isHeld());
        assertEquals("fixed machine id 0", zero.toString());
        assertEquals("fixed machine id 7", MachineIdLease.fixed(7).toString());
    }
}
