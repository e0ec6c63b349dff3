package dev.idgen.spring.boot.json;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * With {@code idgen.json.large-numbers-as-strings=true} and Spring Boot 3's Jackson 2 support, adds
 * {@link LargeNumbersAsStringsModule} to the application's {@code ObjectMapper} through a
 * {@link Jackson2ObjectMapperBuilderCustomizer}, so the mapper Boot builds (and Spring MVC's and
 * WebFlux's JSON with it) writes large longs as strings.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration")
@ConditionalOnClass(name = {"com.fasterxml.jackson.databind.ObjectMapper",
        "org.springframework.http.converter.json.Jackson2ObjectMapperBuilder"})
@EnableConfigurationProperties(IdgenJsonProperties.class)
public class IdgenJsonAutoConfiguration {

    /** Made by Spring. */
    public IdgenJsonAutoConfiguration() {
    }

    /**
     * The customizer that adds the module to those Boot installs.
     *
     * @return the customizer
     */
    @Bean
    @ConditionalOnBooleanProperty("idgen.json.large-numbers-as-strings")
    public Jackson2ObjectMapperBuilderCustomizer idgenLargeNumbersAsStrings() {
        return builder -> builder.modulesToInstall(modules -> modules.add(new LargeNumbersAsStringsModule()));
    }
}
