package dev.idgen.spring.boot.json;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ser.std.StdSerializer;

/** Writes a {@code long} id as a decimal JSON string. See {@link JsonSnowflakeId}. */
public final class SnowflakeIdSerializer extends StdSerializer<Long> {

    /** Made by Jackson. */
    public SnowflakeIdSerializer() {
        super(Long.class);
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializationContext ctxt) {
        gen.writeString(Long.toString(value));
    }
}
