package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import java.util.UUID;

/**
 * The generators behind {@link Snowflake @Snowflake} and {@link UuidV7 @UuidV7} for one Hibernate
 * session factory.
 *
 * <p>Hibernate finds them under the setting {@link #SETTING}: put an {@code EntityIds} there (the
 * Spring Boot starter puts one built from its generator beans). Without that setting every session
 * factory of the process shares {@link #fromEnvironment()}.
 *
 * <pre>{@code
 * SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(lease).build();
 * settings.put(EntityIds.SETTING, EntityIds.of(snowflake, IdGenerators.uuidV7()));
 * }</pre>
 *
 * <p>Both methods are called once per annotated attribute while the session factory is built, so a
 * missing generator fails the start-up, not the first insert.
 */
public interface EntityIds {

    /** The Hibernate setting that holds an {@code EntityIds} instance. */
    String SETTING = "idgen.hibernate.entity-ids";

    /**
     * The generator of {@link Snowflake @Snowflake} values.
     *
     * @return the generator
     * @throws IllegalStateException if none is configured; the message says how to configure one
     */
    LongIdGenerator snowflake();

    /**
     * The generator of {@link UuidV7 @UuidV7} values.
     *
     * @return the generator
     * @throws IllegalStateException if none is configured
     */
    IdGenerator<UUID> uuidV7();

    /**
     * Fixed generators.
     *
     * @param snowflake the Snowflake generator, or {@code null} when the entities use none
     * @param uuidV7 the UUIDv7 generator, or {@code null} when the entities use none
     * @return the pair
     */
    static EntityIds of(LongIdGenerator snowflake, IdGenerator<UUID> uuidV7) {
        return new GivenEntityIds(snowflake, uuidV7);
    }

    /**
     * The process-wide generators, made on first use and then shared by every session factory that
     * has no {@link #SETTING}: one process, one machine id, so one Snowflake generator.
     *
     * <p>The Snowflake generator is configured by system properties, or else environment
     * variables:
     * <ul>
     *   <li>{@code idgen.machine-id} / {@code IDGEN_MACHINE_ID} (required): this process's machine
     *       id, unique among all processes writing the same tables;</li>
     *   <li>{@code idgen.layout} / {@code IDGEN_LAYOUT}: a preset layout, {@code twitter} (default),
     *       {@code discord}, {@code instagram} or {@code sonyflake};</li>
     *   <li>{@code idgen.field-order} / {@code IDGEN_FIELD_ORDER}: the layout's field order, high
     *       bits first, when not its own: {@code time-machine-sequence}, {@code time-sequence-machine}
     *       or {@code machine-time-sequence} (the machine id on top; see
     *       {@link dev.idgen.snowflake.SnowflakeLayout.FieldOrder#MACHINE_TIME_SEQUENCE}).</li>
     * </ul>
     * Without a machine id, {@link #snowflake()} fails with a message naming both. The UUIDv7
     * generator needs no configuration (monotonic, system clock).
     *
     * @return the process-wide generators
     */
    static EntityIds fromEnvironment() {
        return EnvironmentEntityIds.PROCESS;
    }
}
