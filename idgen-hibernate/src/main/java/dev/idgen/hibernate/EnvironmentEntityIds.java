package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.IdGenerators;
import dev.idgen.LongIdGenerator;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/** {@link EntityIds#fromEnvironment()}: made on first use from system properties or the environment. */
final class EnvironmentEntityIds implements EntityIds {

    static final String MACHINE_ID_PROPERTY = "idgen.machine-id";
    static final String MACHINE_ID_VARIABLE = "IDGEN_MACHINE_ID";
    static final String LAYOUT_PROPERTY = "idgen.layout";
    static final String LAYOUT_VARIABLE = "IDGEN_LAYOUT";
    static final String FIELD_ORDER_PROPERTY = "idgen.field-order";
    static final String FIELD_ORDER_VARIABLE = "IDGEN_FIELD_ORDER";

    static final EnvironmentEntityIds PROCESS = new EnvironmentEntityIds(System::getProperty, System.getenv());

    private final Function<String, String> properties;
    private final Map<String, String> environment;
    private SnowflakeGenerator snowflake; // guarded by this
    private IdGenerator<UUID> uuidV7; // guarded by this

    EnvironmentEntityIds(Function<String, String> properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    @Override
    public synchronized LongIdGenerator snowflake() {
        if (snowflake == null) {
            snowflake = configure();
        }
        return snowflake;
    }

    @Override
    public synchronized IdGenerator<UUID> uuidV7() {
        if (uuidV7 == null) {
            uuidV7 = IdGenerators.uuidV7();
        }
        return uuidV7;
    }

    private SnowflakeGenerator configure() {
        String layoutSource = source(LAYOUT_PROPERTY, LAYOUT_VARIABLE);
        SnowflakeLayout layout = layoutSource == null ? SnowflakeLayout.TWITTER
                : SnowflakeLayout.preset(value(LAYOUT_PROPERTY, LAYOUT_VARIABLE));
        String orderSource = source(FIELD_ORDER_PROPERTY, FIELD_ORDER_VARIABLE);
        if (orderSource != null) {
            try {
                layout = layout.withFieldOrder(SnowflakeLayout.FieldOrder.parse(
                        value(FIELD_ORDER_PROPERTY, FIELD_ORDER_VARIABLE)));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("Field order from " + orderSource + " does not make a layout: "
                        + e.getMessage(), e);
            }
        }
        String idSource = source(MACHINE_ID_PROPERTY, MACHINE_ID_VARIABLE);
        if (idSource == null) {
            throw new IllegalStateException("@Snowflake needs a machine id and none is configured: set system"
                    + " property " + MACHINE_ID_PROPERTY + " or environment variable " + MACHINE_ID_VARIABLE
                    + " to this process's machine id (0.." + layout.maxMachineId() + " for layout "
                    + layout.name() + ", unique among all processes writing these tables), or give Hibernate"
                    + " an EntityIds under setting " + SETTING + " (the idgen Spring Boot starter does)");
        }
        String text = value(MACHINE_ID_PROPERTY, MACHINE_ID_VARIABLE).strip();
        long machineId;
        try {
            machineId = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Machine id '" + text + "' from " + idSource
                    + " is not a decimal number; allowed: 0.." + layout.maxMachineId(), e);
        }
        if (machineId < 0 || machineId > layout.maxMachineId()) {
            throw new IllegalStateException("Machine id " + machineId + " from " + idSource
                    + " is outside 0.." + layout.maxMachineId() + " allowed by layout " + layout.name());
        }
        return SnowflakeGenerator.builder().layout(layout).machineId(machineId).build();
    }

    /** Where the setting comes from, or null when neither the property nor the variable is set. */
    private String source(String property, String variable) {
        String p = properties.apply(property);
        if (p != null && !p.isBlank()) {
            return "system property " + property;
        }
        String v = environment.get(variable);
        return v != null && !v.isBlank() ? "environment variable " + variable : null;
    }

    private String value(String property, String variable) {
        String p = properties.apply(property);
        return p != null && !p.isBlank() ? p : environment.get(variable);
    }

    @Override
    public String toString() {
        return "EntityIds from system properties / environment";
    }
}
