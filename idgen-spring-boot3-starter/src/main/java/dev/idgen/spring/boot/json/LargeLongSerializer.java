package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/** A {@code long} outside ±(2^53 − 1) as a JSON string, any other as a number. See {@link LargeNumbersAsStringsModule}. */
final class LargeLongSerializer extends StdSerializer<Long> {

    private static final long serialVersionUID = 1L;

    LargeLongSerializer() {
        super(Long.class);
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        write(value, gen);
    }

    static void write(long value, JsonGenerator gen) throws IOException {
        if (LargeNumbersAsStringsModule.safe(value)) {
            gen.writeNumber(value);
        } else {
            gen.writeString(Long.toString(value));
        }
    }
}
