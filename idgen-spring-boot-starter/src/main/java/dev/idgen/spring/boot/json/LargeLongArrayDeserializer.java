package dev.idgen.spring.boot.json;

import java.util.Arrays;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.jdk.PrimitiveArrayDeserializers;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads a {@code long[]} from a JSON array whose elements are numbers or strings of decimal digits,
 * each read as {@link LargeLongDeserializer} reads a {@code long}; input that is not an array goes
 * to Jackson's own {@code long[]} deserializer. See {@link LargeNumbersAsStringsModule}.
 */
final class LargeLongArrayDeserializer extends StdDeserializer<long[]> {

    private final transient LargeLongDeserializer element = new LargeLongDeserializer(Long.TYPE);

    /** Jackson's own deserializer for {@code long[]}. */
    private final transient ValueDeserializer<?> standard = PrimitiveArrayDeserializers.forType(Long.TYPE);

    LargeLongArrayDeserializer() {
        super(long[].class);
    }

    @Override
    public long[] deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!p.isExpectedStartArrayToken()) {
            return (long[]) standard.deserialize(p, ctxt);
        }
        long[] values = new long[8];
        int n = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            Object v = t == JsonToken.VALUE_NULL ? element.getNullValue(ctxt) : element.deserialize(p, ctxt);
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n++] = v == null ? 0L : (Long) v;
        }
        return Arrays.copyOf(values, n);
    }

    @Override
    public LogicalType logicalType() {
        return LogicalType.Array;
    }
}
