package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/** A {@code long[]} whose elements outside ±(2^53 − 1) are JSON strings. See {@link LargeNumbersAsStringsModule}. */
final class LargeLongArraySerializer extends StdSerializer<long[]> {

    private static final long serialVersionUID = 1L;

    LargeLongArraySerializer() {
        super(long[].class);
    }

    @Override
    public void serialize(long[] values, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeStartArray(values, values.length);
        for (long v : values) {
            LargeLongSerializer.write(v, gen);
        }
        gen.writeEndArray();
    }
}
