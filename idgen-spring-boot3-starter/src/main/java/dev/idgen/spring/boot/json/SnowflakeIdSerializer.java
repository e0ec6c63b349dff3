package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/** Writes a {@code long} id as a decimal JSON string (Jackson 2). See {@link JsonSnowflakeId}. */
public final class SnowflakeIdSerializer extends StdSerializer<Long> {

    private static final long serialVersionUID = 1L;

    /** Made by Jackson. */
    public SnowflakeIdSerializer() {
        super(Long.class);
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeString(Long.toString(value));
    }
}
