package dev.idgen.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.SimpleMetadataReaderFactory;

/**
 * The runtime hints a Spring AOT build records for an application with the starter: every
 * {@link RuntimeHintsRegistrar} listed in an {@code aot.factories} on this class path applied, as
 * Spring's AOT processing applies them, and each hint checked with {@link RuntimeHintsPredicates}.
 * What needs a hint is found from the classes themselves (the generator each idgen-hibernate
 * annotation names, the codec {@code @JsonSnowflakeId} names, the setters of each
 * {@code @ConfigurationProperties} class), so a new annotation or property class without its hint
 * fails here. The same test runs in both starters.
 */
class IdgenRuntimeHintsTest {

    private static final ClassLoader LOADER = IdgenRuntimeHintsTest.class.getClassLoader();

    /** The hints of every registrar in an aot.factories, ours among them. */
    private static RuntimeHints allHints() {
        RuntimeHints hints = new RuntimeHints();
        AotServices.factories(LOADER).load(RuntimeHintsRegistrar.class).forEach(r -> r.registerHints(hints, LOADER));
        return hints;
    }

    /** The hints of every registrar in an aot.factories but ours: what Spring and the libraries give alone. */
    private static RuntimeHints hintsWithoutIdgen() {
        RuntimeHints hints = new RuntimeHints();
        AotServices.factories(LOADER).load(RuntimeHintsRegistrar.class).asList().stream()
                .filter(r -> !(r instanceof IdgenRuntimeHints)).forEach(r -> r.registerHints(hints, LOADER));
        return hints;
    }

    @Test
    void theRegistrarIsListedInAotFactories() {
        assertThat(AotServices.factories(LOADER).load(RuntimeHintsRegistrar.class).asList())
                .anySatisfy(r -> assertThat(r).isInstanceOf(IdgenRuntimeHints.class));
    }

    @Test
    void hibernateCanMakeTheGeneratorOfEachIdgenAnnotationAndReadItsAttributes() throws Exception {
        RuntimeHints hints = allHints();
        List<Class<?>> annotations = classesIn("dev/idgen/hibernate/*.class").stream()
                .filter(Class::isAnnotation).filter(a -> !generators(a).isEmpty()).toList();
        assertThat(annotations).extracting(Class::getSimpleName).contains("Snowflake", "UuidV7", "SegmentId");
        for (Class<?> annotation : annotations) {
            assertThat(RuntimeHintsPredicates.reflection().onType(annotation)
                    .withMemberCategories(MemberCategory.INVOKE_DECLARED_METHODS)).as(annotation.getName()).accepts(hints);
            for (Method attribute : annotation.getDeclaredMethods()) {
                assertThat(RuntimeHintsPredicates.reflection().onMethod(attribute).invoke()).as(attribute.toString())
                        .accepts(hints);
            }
            for (Class<?> generator : generators(annotation)) {
                // Hibernate asks for public constructors taking the annotation, then calls the no-argument one
                assertThat(RuntimeHintsPredicates.reflection().onType(generator).withMemberCategories(
                        MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
                        .as(generator.getName()).accepts(hints);
                assertThat(RuntimeHintsPredicates.reflection().onConstructor(generator.getDeclaredConstructor()).invoke())
                        .as(generator.getName()).accepts(hints);
            }
        }
        // annotation attributes are not covered by Spring alone: the hint is ours
        Class<?> segmentId = Class.forName("dev.idgen.hibernate.SegmentId");
        assertThat(RuntimeHintsPredicates.reflection().onMethod(segmentId, "value").invoke()).rejects(hintsWithoutIdgen());
    }

    @Test
    void jacksonCanMakeTheCodecsThatJsonSnowflakeIdNames() throws Exception {
        RuntimeHints hints = allHints();
        Set<Class<?>> codecs = new LinkedHashSet<>();
        for (Class<?> type : classesIn("dev/idgen/spring/boot/json/*.class")) {
            if (type.isAnnotation()) {
                // @JsonSerialize(using = ...) and @JsonDeserialize(using = ...), Jackson 3's or Jackson 2's
                MergedAnnotations.from(type).stream()
                        .filter(a -> a.getType().getSimpleName().matches("Json(Des|S)erialize"))
                        .map(a -> a.getClass("using")).forEach(codecs::add);
            }
        }
        assertThat(codecs).extracting(Class::getSimpleName)
                .containsExactlyInAnyOrder("SnowflakeIdSerializer", "SnowflakeIdDeserializer");
        for (Class<?> codec : codecs) {
            assertThat(RuntimeHintsPredicates.reflection().onConstructor(codec.getDeclaredConstructor()).invoke())
                    .as(codec.getName()).accepts(hints).rejects(hintsWithoutIdgen());
        }
    }

    @Test
    void everyConfigurationPropertiesClassCanBeBoundThroughItsSetters() throws Exception {
        RuntimeHints hints = allHints();
        List<Class<?>> roots = classesIn("dev/idgen/spring/boot/**/*.class").stream()
                .filter(c -> MergedAnnotations.from(c).isPresent(ConfigurationProperties.class)).toList();
        assertThat(roots).extracting(Class::getSimpleName)
                .contains("IdgenProperties", "IdgenSegmentProperties", "IdgenJsonProperties");
        List<Method> setters = new ArrayList<>();
        for (Class<?> root : roots) {
            collectSetters(root, setters);
        }
        assertThat(setters).extracting(m -> m.getDeclaringClass().getSimpleName()).contains("MachineId", "TimedLease",
                "Counter", "IdgenJsonProperties");
        for (Method setter : setters) {
            assertThat(RuntimeHintsPredicates.reflection().onMethod(setter).invoke()).as(setter.toString())
                    .accepts(hints);
        }
    }

    @Test
    void everyClassTheStarterLooksForByNameIsRegistered() throws Exception {
        RuntimeHints hints = allHints();
        for (String name : OptionalClasses.ALL) {
            Class.forName(name, false, LOADER); // the name is a class (every store is on the test class path)
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(hints)
                    .rejects(hintsWithoutIdgen());
        }
    }

    @Test
    void theSpringFactoriesEntriesAreCoveredBySpringItself() throws Exception {
        // META-INF/spring.factories (the failure analyzer, the Boot version guard): Spring registers
        // each entry's constructors itself; nothing of ours is needed
        RuntimeHints spring = hintsWithoutIdgen();
        for (Class<?> type : List.of(IdgenFailureAnalyzer.class, BootVersionGuard.class)) {
            assertThat(RuntimeHintsPredicates.reflection().onConstructor(type.getDeclaredConstructor()).invoke())
                    .as(type.getName()).accepts(spring);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/spring.factories")).accepts(spring);
    }

    /** The generator classes {@code annotation} names for Hibernate ({@code @IdGeneratorType}, {@code @ValueGenerationType}). */
    private static Set<Class<?>> generators(Class<?> annotation) {
        Set<Class<?>> generators = new LinkedHashSet<>();
        for (Annotation meta : annotation.getAnnotations()) {
            MergedAnnotation<Annotation> m = MergedAnnotation.from(meta);
            switch (meta.annotationType().getName()) {
                case "org.hibernate.annotations.IdGeneratorType" -> generators.add(m.getClass("value"));
                case "org.hibernate.annotations.ValueGenerationType" -> generators.add(m.getClass("generatedBy"));
                default -> {
                }
            }
        }
        return generators;
    }

    /** The public setters of {@code type}, its superclasses and the nested property classes they take, depth first. */
    private static void collectSetters(Class<?> type, List<Method> into) {
        for (Class<?> t = type; t != null && t != Object.class; t = t.getSuperclass()) {
            for (Method m : t.getDeclaredMethods()) {
                if (Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("set") && m.getParameterCount() == 1
                        && !into.contains(m)) {
                    into.add(m);
                }
            }
        }
        for (Method getter : type.getMethods()) {
            if (getter.getParameterCount() != 0) {
                continue;
            }
            // a nested property class, or the value type of a map of them (idgen.segment.<name>.*)
            ResolvableType returned = ResolvableType.forMethodReturnType(getter);
            Class<?> nested = returned.asMap() != ResolvableType.NONE ? returned.asMap().resolveGeneric(1)
                    : returned.resolve();
            if (nested != null && nested.getName().startsWith("dev.idgen.spring.boot.")
                    && nested.getDeclaringClass() != null && !nested.isEnum()) {
                collectSetters(nested, into);
            }
        }
    }

    private static List<Class<?>> classesIn(String pattern) throws IOException, ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        SimpleMetadataReaderFactory readers = new SimpleMetadataReaderFactory(LOADER);
        for (Resource r : new PathMatchingResourcePatternResolver(LOADER).getResources("classpath*:" + pattern)) {
            MetadataReader reader = readers.getMetadataReader(r);
            classes.add(Class.forName(reader.getClassMetadata().getClassName(), false, LOADER));
        }
        return classes;
    }
}
