package dev.idgen.spring.boot.json;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A {@code Long} or {@code long} Snowflake id that leaves as a JSON string ({@code "1541815603606036480"})
 * and comes back from a string or a number (Jackson 2, as Spring Boot 3 uses it).
 *
 * <pre>{@code
 * record OrderView(@JsonSnowflakeId long id, UUID publicId) {}
 * }</pre>
 *
 * <p>A Snowflake id passes 2^53 about 25 days after its layout's epoch: as a JSON number, JavaScript's
 * {@code JSON.parse} (and any parser that reads numbers as doubles) would round it to another id.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, METHOD, PARAMETER})
@JacksonAnnotationsInside
@JsonSerialize(using = SnowflakeIdSerializer.class)
@JsonDeserialize(using = SnowflakeIdDeserializer.class)
public @interface JsonSnowflakeId {
}
