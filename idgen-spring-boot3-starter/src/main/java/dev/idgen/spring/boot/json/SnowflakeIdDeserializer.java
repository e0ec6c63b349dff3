package dev.idgen.spring.boot.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;

/**
 * Reads a {@code long} id from a JSON string of decimal digits or from a JSON integer (Jackson 2);
 * anything else (a fraction, an exponent, a number outside the {@code long} range, blank text) is
 * refused with a message naming the value. See {@link JsonSnowflakeId}.
 */
public final class SnowflakeIdDeserializer extends StdDeserializer<Long> {

    private static final long serialVersionUID = 1L;

    /** Made by Jackson. */
    public SnowflakeIdDeserializer() {
        super(Long.class);
    }

    @Override
    public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonToken token = p.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
                return (Long) ctxt.handleWeirdNumberValue(Long.class, p.getNumberValue(),
                        "Snowflake id %s is outside the range of a long", p.getText());
            }
            return p.getLongValue();
        }
        if (token == JsonToken.VALUE_STRING) {
            String text = p.getText().strip();
            if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9' || c == '-')) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    // falls through to the message below
                }
            }
            return (Long) ctxt.handleWeirdStringValue(Long.class, p.getText(),
                    "a Snowflake id is a decimal integer in the range of a long");
        }
        return (Long) ctxt.handleUnexpectedToken(Long.class, p);
    }
}
