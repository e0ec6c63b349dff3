package dev.idgen.spring.boot.json;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/** A {@code long} as a JSON number inside ±(2^53 − 1), as a string outside. See {@link LargeNumbersAsStringsModule}. */
final class LargeLongSerializer extends StdSerializer<Long> {

    LargeLongSerializer() {
        super(Long.class);
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializationContext ctxt) {
        write(value, gen);
    }

    static void write(long value, JsonGenerator gen) {
        if (LargeNumbersAsStringsModule.safe(value)) {
            gen.writeNumber(value);
        } else {
            gen.writeString(Long.toString(value));
        }
    }
}
