package dev.idgen.spring.boot;

import dev.idgen.spring.boot.json.IdgenJsonProperties;
import java.util.List;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * What the starter, idgen-hibernate and the JSON support reach by reflection or by name, for
 * Spring's ahead-of-time processing (a native image answers reflection only for what is
 * registered). Registered in {@code META-INF/spring/aot.factories}, so it applies to every
 * application with the starter, whatever its entities and beans at build time. A class that is not
 * on the application's classpath is left out.
 *
 * <ul>
 *   <li>Hibernate makes the generator named by an {@code @IdGeneratorType} / {@code @ValueGenerationType}
 *       annotation by reflection: it looks for public constructors taking the annotation, then calls
 *       the declared no-argument one. Spring registers the generators of the entities it scans; this
 *       covers the rest (a {@code persistence.xml}, an entity outside the scanned packages).</li>
 *   <li>hibernate-models reads an annotation's attributes by reflection: it lists the annotation's
 *       declared methods and calls them ({@code @SegmentId("orders")}).</li>
 *   <li>Jackson makes the serializer and deserializer that {@code @JsonSnowflakeId} names
 *       ({@code @JsonSerialize(using = ...)}) by reflection.</li>
 *   <li>The {@code idgen.*} configuration properties classes are bound by reflection on their setters.
 *       Spring Boot registers those of the beans it finds at build time; this covers them all.</li>
 *   <li>The store classes the starter looks for by name while it runs ({@link OptionalClasses}).</li>
 * </ul>
 */
final class IdgenRuntimeHints implements RuntimeHintsRegistrar {

    /** idgen-hibernate's generators, one per annotation. */
    static final List<String> HIBERNATE_GENERATORS = List.of("dev.idgen.hibernate.SnowflakeGeneration",
            "dev.idgen.hibernate.UuidV7Generation", "dev.idgen.hibernate.SegmentIdGeneration");

    /** idgen-hibernate's annotations. */
    static final List<String> HIBERNATE_ANNOTATIONS = List.of("dev.idgen.hibernate.Snowflake",
            "dev.idgen.hibernate.UuidV7", "dev.idgen.hibernate.SegmentId");

    /** What {@code @JsonSnowflakeId} names; the same names in both Boot generations' starters (Jackson 3 and 2). */
    static final List<String> JSON_CODECS = List.of("dev.idgen.spring.boot.json.SnowflakeIdSerializer",
            "dev.idgen.spring.boot.json.SnowflakeIdDeserializer");

    /** Made by Spring, from {@code META-INF/spring/aot.factories}. */
    IdgenRuntimeHints() {
    }

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        ReflectionHints reflection = hints.reflection();
        // by name, and only if present: loading a generator or codec needs Hibernate or Jackson,
        // which the application may not have
        HIBERNATE_GENERATORS.forEach(name -> reflection.registerTypeIfPresent(classLoader, name,
                MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS));
        // hibernate-models lists the declared methods, then calls them (they are public)
        HIBERNATE_ANNOTATIONS.forEach(name -> reflection.registerTypeIfPresent(classLoader, name,
                MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.INVOKE_PUBLIC_METHODS));
        JSON_CODECS.forEach(name -> reflection.registerTypeIfPresent(classLoader, name,
                MemberCategory.INVOKE_DECLARED_CONSTRUCTORS));
        BindableRuntimeHintsRegistrar.forTypes(IdgenProperties.class, IdgenSegmentProperties.class,
                IdgenBusinessNumberProperties.class, IdgenJsonProperties.class).registerHints(hints, classLoader);
        OptionalClasses.ALL.forEach(name -> reflection.registerTypeIfPresent(classLoader, name));
    }
}
