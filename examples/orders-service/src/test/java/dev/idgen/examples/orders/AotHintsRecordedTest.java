package dev.idgen.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What this build's process-aot wrote for a native image holds idgen's hints: Spring found the
 * starter's registrar in {@code META-INF/spring/aot.factories} while it processed this service.
 * The hints read here are those Spring would not have recorded alone for this service (its entities
 * use no {@code @SegmentId}, it configures no segment counter, and Spring does not follow
 * {@code @JsonSnowflakeId} to its codecs); {@code IdgenRuntimeHintsTest} in the starters checks every
 * hint on its own. Reads Spring 7's {@code reachability-metadata.json} or Spring 6's
 * {@code reflect-config.json}, whichever the Boot generation wrote.
 */
class AotHintsRecordedTest {

    private static final Path NATIVE_IMAGE = Path.of("target", "spring-aot", "main", "resources", "META-INF",
            "native-image");

    /** Each reflection entry written, by type name. */
    private static final Map<String, Json> REFLECTION = new HashMap<>();

    @BeforeAll
    static void readTheMetadata() throws IOException {
        assertThat(NATIVE_IMAGE).as("process-aot ran in this build").isDirectory();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(NATIVE_IMAGE)) {
            all.filter(f -> f.endsWith("reachability-metadata.json") || f.endsWith("reflect-config.json"))
                    .forEach(files::add);
        }
        assertThat(files).hasSize(1);
        Json metadata = Json.read(files.get(0));
        List<Json> entries = files.get(0).endsWith("reflect-config.json") ? metadata.elements()
                : metadata.path("reflection").elements();
        for (Json e : entries) {
            String type = e.path("type").text().isEmpty() ? e.path("name").text() : e.path("type").text();
            REFLECTION.put(type, e);
        }
        assertThat(REFLECTION).containsKey(OrdersApplication.class.getName());
    }

    @Test
    void jacksonCanMakeTheSnowflakeIdCodecs() {
        for (String codec : List.of("dev.idgen.spring.boot.json.SnowflakeIdSerializer",
                "dev.idgen.spring.boot.json.SnowflakeIdDeserializer")) {
            assertThat(REFLECTION).containsKey(codec);
            assertThat(REFLECTION.get(codec).path("allDeclaredConstructors").isTrue()).as(codec).isTrue();
        }
    }

    @Test
    void hibernateCanMakeEveryIdgenGeneratorAndReadTheAnnotations() {
        for (String generator : List.of("dev.idgen.hibernate.SnowflakeGeneration", "dev.idgen.hibernate.UuidV7Generation",
                "dev.idgen.hibernate.SegmentIdGeneration")) {
            assertThat(REFLECTION).containsKey(generator);
            assertThat(REFLECTION.get(generator).path("allDeclaredConstructors").isTrue()).as(generator).isTrue();
        }
        assertThat(REFLECTION).containsKey("dev.idgen.hibernate.SegmentId");
        assertThat(REFLECTION.get("dev.idgen.hibernate.SegmentId").path("allDeclaredMethods").isTrue()).isTrue();
    }

    @Test
    void theSegmentPropertiesAndTheStoreClassesLookedUpByNameAreThere() {
        assertThat(REFLECTION).containsKeys("dev.idgen.spring.boot.IdgenSegmentProperties$Counter",
                "dev.idgen.lease.jdbc.JdbcMachineIdLease", "dev.idgen.segment.jdbc.JdbcSegmentSource");
        // a store this service does not have is left out
        assertThat(REFLECTION).doesNotContainKey("io.lettuce.core.RedisClient");
    }
}
