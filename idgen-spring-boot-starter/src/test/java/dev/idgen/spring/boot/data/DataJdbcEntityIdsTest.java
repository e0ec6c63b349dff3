package dev.idgen.spring.boot.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.hibernate.Snowflake;
import dev.idgen.hibernate.UuidV7;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.spring.boot.IdgenAutoConfiguration;
import dev.idgen.spring.boot.IdgenLeaseAutoConfiguration;
import dev.idgen.spring.boot.TestGeneration;
import dev.idgen.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.annotation.Id;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.core.mapping.Table;
import org.springframework.data.repository.CrudRepository;
import org.springframework.jdbc.core.JdbcTemplate;

/** Spring Data JDBC aggregates on a real PostgreSQL (the machine's, or a private one). */
class DataJdbcEntityIdsTest {

    /** The machine's PostgreSQL or a private one ({@link TestPostgres}), set before the first test. */
    private static String url;

    /** A mutable aggregate with a Snowflake key. */
    @Table("idgen_djdbc_note")
    static class Note {
        @Id
        @Snowflake
        Long id;

        String text;

        /** For Spring Data, which reads rows into it. */
        Note() {
        }

        Note(Long id, String text) {
            this.id = id;
            this.text = text;
        }
    }

    /** An immutable aggregate with a UUIDv7 key: Spring Data hands back a copy with the id. */
    @Table("idgen_djdbc_tag")
    record Tag(@Id @UuidV7 UUID id, String name) {
    }

    interface NoteRepository extends CrudRepository<Note, Long> {
    }

    interface TagRepository extends CrudRepository<Tag, UUID> {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableJdbcRepositories(considerNestedRepositories = true, basePackageClasses = DataJdbcEntityIdsTest.class)
    static class Repositories {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TestGeneration.DATA_JDBC_AUTO_CONFIGURATIONS))
            .withConfiguration(AutoConfigurations.of(IdgenLeaseAutoConfiguration.class,
                    IdgenAutoConfiguration.class, IdgenDataJdbcAutoConfiguration.class))
            .withUserConfiguration(Repositories.class)
            .withPropertyValues("spring.datasource.url=" + url, "spring.datasource.username=postgres",
                    "idgen.machine-id.source=fixed", "idgen.machine-id.value=321", "idgen.machine-id.check-with=none");

    @BeforeAll
    static void tables() throws Exception {
        url = TestPostgres.server().url();
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS idgen_djdbc_note (id BIGINT PRIMARY KEY, text VARCHAR(100))");
            st.execute("CREATE TABLE IF NOT EXISTS idgen_djdbc_tag (id UUID PRIMARY KEY, name VARCHAR(100))");
        }
    }

    @Test
    void savedAggregatesGetIncreasingSnowflakeIdsFromTheStartersGenerator() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(EntityIdCallback.class);
            NoteRepository notes = context.getBean(NoteRepository.class);
            SnowflakeGenerator snowflake = context.getBean(SnowflakeGenerator.class);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Note saved = notes.save(new Note(null, "note " + i));
                assertThat(saved.id).isNotNull();
                assertThat(snowflake.decode(saved.id).machineId()).isEqualTo(321);
                ids.add(saved.id);
            }
            assertThat(ids).isSorted().doesNotHaveDuplicates();
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            for (int i = 0; i < ids.size(); i++) {
                assertThat(jdbc.queryForObject("SELECT text FROM idgen_djdbc_note WHERE id = ?", String.class,
                        ids.get(i))).isEqualTo("note " + i);
            }
            notes.deleteAllById(ids);
        });
    }

    @Test
    void anIdAlreadySetIsKeptOnInsertAndOnUpdate() {
        runner.run(context -> {
            NoteRepository notes = context.getBean(NoteRepository.class);
            long own = 1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000L);
            Note inserted = context.getBean(JdbcAggregateTemplate.class).insert(new Note(own, "mine"));
            assertThat(inserted.id).isEqualTo(own);
            assertThat(notes.findById(own)).get().extracting(n -> n.text).isEqualTo("mine");

            Note saved = notes.save(new Note(null, "first"));
            long id = saved.id;
            saved.text = "second";
            Note updated = notes.save(saved);
            assertThat(updated.id).isEqualTo(id);
            assertThat(context.getBean(JdbcTemplate.class).queryForObject(
                    "SELECT count(*) FROM idgen_djdbc_note WHERE id = ? AND text = 'second'", Long.class, id))
                    .isEqualTo(1L);
            notes.deleteAllById(List.of(own, id));
        });
    }

    @Test
    void recordsGetIncreasingUuidV7KeysAndKeepTheirOwn() {
        runner.run(context -> {
            TagRepository tags = context.getBean(TagRepository.class);
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Tag saved = tags.save(new Tag(null, "tag " + i));
                assertThat(saved.id()).isNotNull();
                assertThat(saved.id().version()).isEqualTo(7);
                assertThat(saved.name()).isEqualTo("tag " + i);
                ids.add(saved.id());
            }
            assertThat(ids).isSorted().doesNotHaveDuplicates();
            assertThat(tags.findById(ids.get(3))).get().extracting(Tag::name).isEqualTo("tag 3");

            UUID own = UUID.randomUUID();
            Tag kept = context.getBean(JdbcAggregateTemplate.class).insert(new Tag(own, "own"));
            assertThat(kept.id()).isEqualTo(own);
            assertThat(tags.findById(own)).get().extracting(Tag::name).isEqualTo("own");
            ids.add(own);
            tags.deleteAllById(ids);
        });
    }

    @Test
    void withoutASnowflakeGeneratorTheSaveFailsNamingTheProperty() {
        runner.withPropertyValues("idgen.snowflake.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            NoteRepository notes = context.getBean(NoteRepository.class);
            assertThatThrownBy(() -> notes.save(new Note(null, "x"))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("@Snowflake on " + Note.class.getName() + ".id")
                    .hasMessageContaining("no Snowflake generator");
            // the UUIDv7 generator is still there
            Tag still = context.getBean(TagRepository.class).save(new Tag(null, "still"));
            assertThat(still.id().version()).isEqualTo(7);
            context.getBean(TagRepository.class).deleteById(still.id());
        });
    }

    @Test
    void withoutSpringDataJdbcInUseThereIsNoCallback() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenAutoConfiguration.class,
                        IdgenDataJdbcAutoConfiguration.class))
                .withPropertyValues("idgen.machine-id.source=fixed", "idgen.machine-id.value=1")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(EntityIdCallback.class));
    }
}
