package dev.idgen.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.Map;
import org.hibernate.MappingException;
import org.junit.jupiter.api.Test;

/** The process-wide generators from system properties / environment, and start-up failures. */
class EnvironmentEntityIdsTest {

    @Test
    void noMachineIdFailsNamingBothWaysToSetIt() {
        EnvironmentEntityIds ids = new EnvironmentEntityIds(k -> null, Map.of());
        IllegalStateException e = assertThrows(IllegalStateException.class, ids::snowflake);
        assertTrue(e.getMessage().contains("system property idgen.machine-id"), e.getMessage());
        assertTrue(e.getMessage().contains("environment variable IDGEN_MACHINE_ID"), e.getMessage());
        assertTrue(e.getMessage().contains("0..1023"), e.getMessage());
        assertTrue(e.getMessage().contains(EntityIds.SETTING), e.getMessage());
    }

    @Test
    void theVariableGivesMachineIdAndLayoutAndTheGeneratorIsMadeOnce() {
        EnvironmentEntityIds ids = new EnvironmentEntityIds(k -> null,
                Map.of("IDGEN_MACHINE_ID", " 300 ", "IDGEN_LAYOUT", "sonyflake"));
        SnowflakeGenerator g = (SnowflakeGenerator) ids.snowflake();
        assertEquals(300, g.machineId());
        assertEquals(SnowflakeLayout.SONYFLAKE, g.layout());
        assertSame(g, ids.snowflake());
        assertSame(ids.uuidV7(), ids.uuidV7());
    }

    @Test
    void theFieldOrderPutsTheMachineIdOnTop() {
        EnvironmentEntityIds ids = new EnvironmentEntityIds(k -> k.equals("idgen.field-order") ? "machine-time-sequence"
                : null, Map.of("IDGEN_MACHINE_ID", "911"));
        SnowflakeGenerator g = (SnowflakeGenerator) ids.snowflake();
        assertEquals(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE, g.layout().fieldOrder());
        assertEquals("twitter", g.layout().name());
        assertEquals(911, g.nextLong() >>> 53, "Twitter's 10 machine bits on top");

        IllegalStateException discord = assertThrows(IllegalStateException.class,
                () -> new EnvironmentEntityIds(k -> null, Map.of("IDGEN_MACHINE_ID", "1", "IDGEN_LAYOUT", "discord",
                        "IDGEN_FIELD_ORDER", "machine-time-sequence")).snowflake());
        assertTrue(discord.getMessage().startsWith("Field order from environment variable IDGEN_FIELD_ORDER does not"
                + " make a layout: layout discord: field order MACHINE_TIME_SEQUENCE"), discord.getMessage());
        IllegalStateException unknown = assertThrows(IllegalStateException.class,
                () -> new EnvironmentEntityIds(k -> null, Map.of("IDGEN_MACHINE_ID", "1", "IDGEN_FIELD_ORDER", "upside-down"))
                        .snowflake());
        assertEquals("Field order from environment variable IDGEN_FIELD_ORDER does not make a layout: no field order"
                + " named 'upside-down'; allowed: time-machine-sequence, time-sequence-machine, machine-time-sequence",
                unknown.getMessage());
    }

    @Test
    void theSystemPropertyWinsOverTheVariable() {
        EnvironmentEntityIds ids = new EnvironmentEntityIds(
                k -> k.equals("idgen.machine-id") ? "5" : null, Map.of("IDGEN_MACHINE_ID", "6"));
        assertEquals(5, ((SnowflakeGenerator) ids.snowflake()).machineId());
    }

    @Test
    void badMachineIdsNameTheValueTheSourceAndTheRange() {
        IllegalStateException tooLarge = assertThrows(IllegalStateException.class,
                () -> new EnvironmentEntityIds(k -> null, Map.of("IDGEN_MACHINE_ID", "1024")).snowflake());
        assertEquals("Machine id 1024 from environment variable IDGEN_MACHINE_ID is outside 0..1023 allowed"
                + " by layout twitter", tooLarge.getMessage());
        IllegalStateException notANumber = assertThrows(IllegalStateException.class,
                () -> new EnvironmentEntityIds(k -> k.equals("idgen.machine-id") ? "seven" : null, Map.of())
                        .snowflake());
        assertEquals("Machine id 'seven' from system property idgen.machine-id is not a decimal number;"
                + " allowed: 0..1023", notANumber.getMessage());
        IllegalArgumentException layout = assertThrows(IllegalArgumentException.class,
                () -> new EnvironmentEntityIds(k -> null, Map.of("IDGEN_MACHINE_ID", "1", "IDGEN_LAYOUT", "tweeter"))
                        .snowflake());
        assertTrue(layout.getMessage().contains("tweeter"), layout.getMessage());
    }

    @Test
    void aSessionFactoryWithoutSettingOrMachineIdFailsAtStartUp() {
        // this JVM has neither idgen.machine-id nor IDGEN_MACHINE_ID (surefire runs it so)
        Exception e = assertThrows(Exception.class, () -> Factories.build(TestDatabase.H2, null, Item.class).close());
        Throwable cause = e;
        while (cause != null && !(cause instanceof IllegalStateException && cause.getMessage().contains("machine id"))) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "start-up fails for want of a machine id: " + e);
    }

    @Test
    void annotationsOnTheWrongTypeFailAtStartUp() {
        Exception e = assertThrows(Exception.class,
                () -> Factories.build(TestDatabase.H2, EntityIds.of(null, null), BadType.class).close());
        Throwable cause = e;
        while (cause != null && !(cause instanceof MappingException && cause.getMessage().contains("@Snowflake"))) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "start-up fails for the String field: " + e);
        assertEquals("@Snowflake on dev.idgen.hibernate.BadType.id of type java.lang.String; allowed: Long or long",
                cause.getMessage());
    }

    @Test
    void givenIdsWithoutAGeneratorSayWhichIsMissing() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Factories.build(TestDatabase.H2, EntityIds.of(null, null), Item.class).close());
        assertTrue(e.getMessage().contains("no Snowflake generator"), e.getMessage());
    }
}
