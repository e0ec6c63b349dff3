package dev.idgen.spring.boot.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

class IdgenJsonAutoConfigurationTest {

    record Order(long id, String name) {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, IdgenJsonAutoConfiguration.class));

    @Test
    void offByDefaultTheApplicationsMapperWritesNumbers() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean("idgenLargeNumbersAsStrings");
            assertThat(context.getBean(IdgenJsonProperties.class).isLargeNumbersAsStrings()).isFalse();
            assertThat(context.getBean(JsonMapper.class).writeValueAsString(new Order(9_007_199_254_740_993L, "o")))
                    .isEqualTo("{\"id\":9007199254740993,\"name\":\"o\"}");
        });
        runner.withPropertyValues("idgen.json.large-numbers-as-strings=false").run(context ->
                assertThat(context.getBean(JsonMapper.class).writeValueAsString(9_007_199_254_740_993L))
                        .isEqualTo("9007199254740993"));
    }

    @Test
    void switchedOnTheApplicationsMapperWritesLargeLongsAsStringsAndReadsThemBack() {
        runner.withPropertyValues("idgen.json.large-numbers-as-strings=true").run(context -> {
            assertThat(context).hasNotFailed().hasBean("idgenLargeNumbersAsStrings");
            assertThat(context.getBean("idgenLargeNumbersAsStrings")).isInstanceOf(JsonMapperBuilderCustomizer.class);
            JsonMapper mapper = context.getBean(JsonMapper.class);
            String json = mapper.writeValueAsString(new Order(9_007_199_254_740_993L, "o"));
            assertThat(json).isEqualTo("{\"id\":\"9007199254740993\",\"name\":\"o\"}");
            assertThat(mapper.readValue(json, Order.class)).isEqualTo(new Order(9_007_199_254_740_993L, "o"));
            assertThat(mapper.writeValueAsString(new Order(9_007_199_254_740_991L, "s")))
                    .isEqualTo("{\"id\":9007199254740991,\"name\":\"s\"}");
        });
    }

    @Test
    void thePropertyIsInTheConfigurationMetadata() throws Exception {
        try (var in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json).contains("\"idgen.json.large-numbers-as-strings\"", "changes the JSON of existing APIs");
        }
    }
}
