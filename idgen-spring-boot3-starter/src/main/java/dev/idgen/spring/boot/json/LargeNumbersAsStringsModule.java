package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * A Jackson 2 module that keeps every {@code long} safe from JSON parsers that read numbers as
 * doubles (JavaScript's {@code JSON.parse} among them): a {@code long}, {@code Long} or element of a
 * {@code long[]} outside ±(2^53 − 1) is written as a JSON string of its decimal digits
 * ({@code "2128542471985037312"}); inside that range it stays a JSON number, which every parser reads
 * exactly. On the way in a JSON string of decimal digits (an optional leading {@code -}) is read as
 * well as a JSON number, whatever the mapper's coercion settings; anything else is left to
 * Jackson's own {@code long} handling.
 *
 * <pre>{@code
 * ObjectMapper mapper = JsonMapper.builder().addModule(new LargeNumbersAsStringsModule()).build();
 * }</pre>
 *
 * <p>Unlike {@link JsonSnowflakeId @JsonSnowflakeId}, which marks one field, this covers fields that
 * carry no annotation. A field marked {@code @JsonSnowflakeId} keeps its own rule (always a string).
 * Not covered: {@code int} (always exact), {@code BigInteger}, {@code BigDecimal}, {@code AtomicLong}
 * and map keys. The Spring Boot 3 starter registers it with
 * {@code idgen.json.large-numbers-as-strings=true} ({@link IdgenJsonAutoConfiguration}).
 */
public final class LargeNumbersAsStringsModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    /** The largest magnitude up to which a double holds every integer exactly: 2^53 − 1. */
    public static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

    /** A module with the serializers and deserializers for {@code long}, {@code Long} and {@code long[]}. */
    public LargeNumbersAsStringsModule() {
        super("idgen-large-numbers-as-strings");
        LargeLongSerializer longs = new LargeLongSerializer();
        addSerializer(Long.class, longs);
        addSerializer(Long.TYPE, longs);
        addSerializer(long[].class, new LargeLongArraySerializer());
        addDeserializer(Long.class, new LargeLongDeserializer(false));
        addDeserializer(Long.TYPE, new LargeLongDeserializer(true));
        addDeserializer(long[].class, new LargeLongArrayDeserializer());
    }

    /** {@return whether a JSON number holding {@code value} reaches every parser unchanged} */
    static boolean safe(long value) {
        return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER;
    }

    /** {@return {@code text} as a long when it is an optional {@code -} and decimal digits that fit; else null} */
    static Long digits(String text) {
        int first = text.startsWith("-") ? 1 : 0;
        if (text.length() == first || text.length() > 20) {
            return null;
        }
        for (int i = first; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null; // beyond the range of a long
        }
    }
}
