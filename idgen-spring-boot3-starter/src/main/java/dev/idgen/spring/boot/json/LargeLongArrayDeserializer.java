package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.std.PrimitiveArrayDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.Arrays;

/**
 * A {@code long[]} whose elements are JSON numbers or strings of decimal digits; anything but an
 * array is left to Jackson's own {@code long[]} handling. See {@link LargeNumbersAsStringsModule}.
 */
final class LargeLongArrayDeserializer extends StdDeserializer<long[]> {

    private static final long serialVersionUID = 1L;

    private final LargeLongDeserializer element = new LargeLongDeserializer(true);

    LargeLongArrayDeserializer() {
        super(long[].class);
    }

    @Override
    public long[] deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (!p.isExpectedStartArrayToken()) {
            @SuppressWarnings("unchecked")
            JsonDeserializer<long[]> standard = (JsonDeserializer<long[]>) PrimitiveArrayDeserializers.forType(Long.TYPE);
            return standard.deserialize(p, ctxt);
        }
        long[] values = new long[8];
        int n = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            Long v = t == JsonToken.VALUE_NULL ? element.getNullValue(ctxt) : element.deserialize(p, ctxt);
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n++] = v;
        }
        return Arrays.copyOf(values, n);
    }
}
