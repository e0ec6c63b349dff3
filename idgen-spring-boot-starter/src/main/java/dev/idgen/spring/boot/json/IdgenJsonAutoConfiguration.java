package dev.idgen.spring.boot.json;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * With {@code idgen.json.large-numbers-as-strings=true} and Spring Boot's Jackson 3 support, adds
 * {@link LargeNumbersAsStringsModule} to the application's {@code JsonMapper} through a
 * {@link JsonMapperBuilderCustomizer}, so every mapper Boot builds (and Spring MVC's and WebFlux's
 * JSON with it) writes large longs as strings.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass(name = {"tools.jackson.databind.json.JsonMapper",
        "org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer"})
@EnableConfigurationProperties(IdgenJsonProperties.class)
public class IdgenJsonAutoConfiguration {

    /** Made by Spring. */
    public IdgenJsonAutoConfiguration() {
    }

    /**
     * The customizer that adds the module.
     *
     * @return the customizer
     */
    @Bean
    @ConditionalOnBooleanProperty("idgen.json.large-numbers-as-strings")
    public JsonMapperBuilderCustomizer idgenLargeNumbersAsStrings() {
        return builder -> builder.addModule(new LargeNumbersAsStringsModule());
    }
}
