package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentSource;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The generators behind {@link Snowflake @Snowflake}, {@link UuidV7 @UuidV7} and
 * {@link SegmentId @SegmentId} for one Hibernate session factory.
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
 * <p>For {@link SegmentId @SegmentId}, add a segment store with {@link #withSegments(SegmentSource, long)}:
 *
 * <pre>{@code
 * SegmentSource store = JdbcSegmentSource.builder(dataSource).createTable(true).build();
 * settings.put(EntityIds.SETTING, EntityIds.of(snowflake, IdGenerators.uuidV7()).withSegments(store, 100));
 * }</pre>
 *
 * <p>These methods are called once per annotated attribute while the session factory is built, so a
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
     * The generator of {@link SegmentId @SegmentId} values for one counter.
     *
     * @param name the counter's name, from {@link SegmentId#value()}
     * @return the generator; the same one for every call with this name
     * @throws IllegalStateException if no segment store is configured (the default); the message
     *         says how to configure one
     */
    default LongIdGenerator segment(String name) {
        throw new IllegalStateException("@SegmentId(\"" + name + "\") is used, but the EntityIds in force (" + this
                + ") has no segment store: give Hibernate, under setting " + SETTING + ", an EntityIds made with"
                + " withSegments(source, step), e.g. EntityIds.of(snowflake, uuidV7).withSegments("
                + "JdbcSegmentSource.builder(dataSource).build(), 100)");
    }

    /**
     * These generators, plus one {@link SegmentGenerator} per {@link SegmentId @SegmentId} counter
     * taking ranges of {@code step} numbers from {@code source}, with the generator's default
     * prefetch and wait. Each generator is made on first use (while the session factory is built)
     * and owns a daemon fetch thread.
     *
     * @param source the segment store
     * @param step numbers per range, 1 to {@link SegmentGenerator#MAX_STEP}
     * @return the combined ids
     * @throws IllegalArgumentException if {@code step} is out of range
     */
    default EntityIds withSegments(SegmentSource source, long step) {
        Objects.requireNonNull(source, "source");
        SegmentGenerator.checkStep(step);
        return withSegments(name -> SegmentGenerator.builder().source(source).name(name).step(step).build());
    }

    /**
     * These generators, plus segment generators made by {@code factory}, once per counter name
     * (for prefetch bounds, waits or a step per counter).
     *
     * @param factory makes the generator for a counter name
     * @return the combined ids
     */
    default EntityIds withSegments(Function<String, ? extends LongIdGenerator> factory) {
        return new SegmentEntityIds(this, Objects.requireNonNull(factory, "factory"));
    }

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
     * generator needs no configuration (monotonic, system clock). Segment stores are not
     * configured from the environment: {@link #segment(String)} fails, naming
     * {@link #withSegments(SegmentSource, long)}.
     *
     * @return the process-wide generators
     */
    static EntityIds fromEnvironment() {
        return EnvironmentEntityIds.PROCESS;
    }
}
