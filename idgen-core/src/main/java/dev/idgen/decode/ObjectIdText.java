package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A MongoDB ObjectId (BSON specification, MongoDB manual "ObjectId"): 24 hex digits of 12 bytes, a
 * 32-bit count of Unix seconds, 5 random bytes chosen once per process, and a 24-bit counter.
 */
final class ObjectIdText implements TextFormat {

    static final ObjectIdText INSTANCE = new ObjectIdText();

    private static final int LENGTH = 24;

    private ObjectIdText() {
    }

    @Override
    public String shape() {
        return "a MongoDB ObjectId (24 hex digits)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == LENGTH;
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        int bad = TextFormat.firstNonHex(s, 0);
        if (bad >= 0) {
            throw new IllegalArgumentException(Quote.of(s.charAt(bad)) + " at index " + bad + " is not a hex digit");
        }
        long seconds = Long.parseLong(s.substring(0, 8), 16);
        long counter = Long.parseLong(s.substring(18), 16);
        return new DecodedFields(input, "ObjectId", "hex", Optional.of(Instant.ofEpochSecond(seconds)), List.of(
                IdField.text("objectid", s.toLowerCase(Locale.ROOT)),
                IdField.number("timestamp", seconds, "Unix seconds"),
                IdField.text("random", "0x" + s.substring(8, 18).toLowerCase(Locale.ROOT))
                        .withNote("5 bytes, once per process"),
                IdField.number("counter", counter)));
    }
}
