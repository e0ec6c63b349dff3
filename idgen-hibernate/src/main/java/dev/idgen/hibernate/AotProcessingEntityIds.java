package dev.idgen.hibernate;

import dev.idgen.IdGenerator;
import dev.idgen.LongIdGenerator;
import java.util.UUID;

/**
 * The {@link EntityIds} of a session factory built while Spring's ahead-of-time processing runs
 * and no {@link EntityIds#SETTING} was given: Spring Data JPA's AOT repository generation builds a
 * metamodel at build time from the {@code spring.jpa.properties.*} alone, without the generators
 * the starter hands to the application's own session factory. That metamodel never inserts a row,
 * so its generators only refuse: asked for an id, they fail naming why. The type and name checks of
 * the annotations still run, so a mapping mistake fails the build as it would fail the start.
 */
final class AotProcessingEntityIds implements EntityIds {

    /**
     * The system property Spring sets to {@code true} while its AOT processing runs (Spring
     * Framework's {@code AbstractAotProcessor.AOT_PROCESSING}); idgen-hibernate does not depend on
     * Spring, so it reads the property by name.
     */
    static final String SPRING_AOT_PROCESSING = "spring.aot.processing";

    static final AotProcessingEntityIds INSTANCE = new AotProcessingEntityIds();

    private AotProcessingEntityIds() {
    }

    /** {@return whether Spring's AOT processing is running in this JVM now} */
    static boolean running() {
        return Boolean.getBoolean(SPRING_AOT_PROCESSING);
    }

    @Override
    public LongIdGenerator snowflake() {
        return () -> {
            throw refusal("@Snowflake");
        };
    }

    @Override
    public IdGenerator<UUID> uuidV7() {
        return () -> {
            throw refusal("@UuidV7");
        };
    }

    @Override
    public LongIdGenerator segment(String name) {
        return () -> {
            throw refusal("@SegmentId(\"" + name + "\")");
        };
    }

    private static IllegalStateException refusal(String annotation) {
        return new IllegalStateException(annotation + " makes no ids in a session factory built during Spring's"
                + " AOT processing (system property " + SPRING_AOT_PROCESSING + "=true) without setting "
                + SETTING + ": such a factory only reads the mapping");
    }

    @Override
    public String toString() {
        return "EntityIds of a session factory built during Spring AOT processing (makes no ids)";
    }
}
