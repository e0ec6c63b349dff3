package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;

/**
 * A {@code long} or {@code Long} from a JSON string of decimal digits, else as Jackson reads it
 * (numbers, nulls, its coercions and its messages). See {@link LargeNumbersAsStringsModule}.
 */
final class LargeLongDeserializer extends StdDeserializer<Long> {

    private static final long serialVersionUID = 1L;

    private final NumberDeserializers.LongDeserializer standard;

    /** @param primitive for {@code long} (true) or {@code Long} */
    LargeLongDeserializer(boolean primitive) {
        super(primitive ? Long.TYPE : Long.class);
        this.standard = primitive ? new NumberDeserializers.LongDeserializer(Long.TYPE, 0L)
                : new NumberDeserializers.LongDeserializer(Long.class, null);
    }

    @Override
    public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            Long value = LargeNumbersAsStringsModule.digits(p.getText().strip());
            if (value != null) {
                return value;
            }
        }
        return standard.deserialize(p, ctxt);
    }

    @Override
    public Long getNullValue(DeserializationContext ctxt) throws com.fasterxml.jackson.databind.JsonMappingException {
        return standard.getNullValue(ctxt);
    }
}
