package dev.idgen.spring.boot.json;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.databind.util.AccessPattern;

/**
 * Reads a {@code long} or {@code Long} from a JSON string of decimal digits, whatever the mapper's
 * coercion settings; every other input (numbers, null, other text) goes to Jackson's own
 * deserializer for the type, so its rules for those stay as they were. See
 * {@link LargeNumbersAsStringsModule}.
 */
final class LargeLongDeserializer extends StdDeserializer<Long> {

    /** Jackson's own deserializer for {@code long} or {@code Long}. */
    private final transient ValueDeserializer<?> standard;

    /** @param type {@code Long.TYPE} or {@code Long.class} */
    LargeLongDeserializer(Class<Long> type) {
        super(type);
        this.standard = NumberDeserializers.find(type);
    }

    @Override
    public Long deserialize(JsonParser p, DeserializationContext ctxt) {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            Long value = LargeNumbersAsStringsModule.parseDigits(p.getString().strip());
            if (value != null) {
                return value;
            }
        }
        return (Long) standard.deserialize(p, ctxt);
    }

    @Override
    public Object getNullValue(DeserializationContext ctxt) {
        return standard.getNullValue(ctxt);
    }

    @Override
    public AccessPattern getNullAccessPattern() {
        return standard.getNullAccessPattern();
    }

    @Override
    public Object getEmptyValue(DeserializationContext ctxt) {
        return standard.getEmptyValue(ctxt);
    }

    @Override
    public LogicalType logicalType() {
        return LogicalType.Integer;
    }

    @Override
    public boolean isCachable() {
        return true;
    }
}
