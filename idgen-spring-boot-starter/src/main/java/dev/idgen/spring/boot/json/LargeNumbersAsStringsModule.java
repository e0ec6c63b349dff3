package dev.idgen.spring.boot.json;

import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson 3 module that keeps every {@code long} safe from JSON parsers that read numbers as
 * doubles (JavaScript's {@code JSON.parse} among them): a {@code long}, {@code Long} or element of a
 * {@code long[]} whose value lies outside ±(2^53 − 1) is written as a JSON string of its decimal
 * digits ({@code "2128542471985037312"}); a value inside that range stays a JSON number, which every
 * parser reads exactly. On the way in, each of these reads a JSON string of decimal digits (an
 * optional leading {@code -}) as well as a JSON number, whatever the mapper's coercion settings.
 *
 * <pre>{@code
 * JsonMapper mapper = JsonMapper.builder().addModule(new LargeNumbersAsStringsModule()).build();
 * }</pre>
 *
 * <p>Unlike {@link JsonSnowflakeId @JsonSnowflakeId}, which marks one field, this covers fields that
 * carry no annotation, so one forgotten annotation cannot send a number a client rounds. A field
 * marked {@code @JsonSnowflakeId} keeps its own rule (always a string). Not covered: {@code int}
 * (always exact), {@code BigInteger}, {@code BigDecimal} and {@code AtomicLong}, and map keys (JSON
 * keys are strings already).
 *
 * <p>The Spring Boot starter registers it with {@code idgen.json.large-numbers-as-strings=true}
 * ({@link IdgenJsonAutoConfiguration}).
 */
public final class LargeNumbersAsStringsModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    /** The largest magnitude a double holds exactly together with its neighbours: 2^53 − 1. */
    public static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

    /** A module with the serializers and deserializers for {@code long}, {@code Long} and {@code long[]}. */
    public LargeNumbersAsStringsModule() {
        super("idgen-large-numbers-as-strings");
        LargeLongSerializer longs = new LargeLongSerializer();
        addSerializer(Long.class, longs);
        addSerializer(Long.TYPE, longs);
        addSerializer(long[].class, new LargeLongArraySerializer());
        addDeserializer(Long.class, new LargeLongDeserializer(Long.class));
        addDeserializer(Long.TYPE, new LargeLongDeserializer(Long.TYPE));
        addDeserializer(long[].class, new LargeLongArrayDeserializer());
    }

    /** {@return whether a double holds {@code value} exactly, so a JSON number cannot lose it} */
    static boolean safe(long value) {
        return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER;
    }

    /** {@return {@code text} as a long when it is only an optional {@code -} and decimal digits that fit; else null} */
    static Long parseDigits(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        if (text.length() == start || text.length() > 20) {
            return null;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null; // outside the range of a long
        }
    }
}
