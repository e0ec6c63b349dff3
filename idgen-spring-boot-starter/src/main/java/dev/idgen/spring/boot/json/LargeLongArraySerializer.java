package dev.idgen.spring.boot.json;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * A {@code long[]} as a JSON array whose elements follow {@link LargeLongSerializer}'s rule, each on
 * its own: {@code [1, "9007199254740992"]}. See {@link LargeNumbersAsStringsModule}.
 */
final class LargeLongArraySerializer extends StdSerializer<long[]> {

    LargeLongArraySerializer() {
        super(long[].class);
    }

    @Override
    public void serialize(long[] value, JsonGenerator gen, SerializationContext ctxt) {
        gen.writeStartArray(value, value.length);
        for (long v : value) {
            LargeLongSerializer.write(v, gen);
        }
        gen.writeEndArray();
    }
}
