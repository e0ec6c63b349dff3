package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Crockford;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A TSID (github.com/f4b6a3/tsid-creator): 13 Crockford base32 characters of a 64-bit number, 42
 * bits of milliseconds since 2020-01-01T00:00:00Z, then 22 bits a generator splits between a node id
 * and a counter as it was configured (10 + 12 by default).
 */
final class TsidText implements TextFormat {

    static final TsidText INSTANCE = new TsidText();

    /** tsid-creator's epoch, 2020-01-01T00:00:00Z. */
    static final Instant EPOCH = Instant.parse("2020-01-01T00:00:00Z");

    private static final int RANDOM_BITS = 22;
    private static final int DEFAULT_COUNTER_BITS = 12;

    private TsidText() {
    }

    @Override
    public String shape() {
        return "a TSID (13 Crockford base32 characters, the first at most F)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == Crockford.LONG_LENGTH;
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        String problem = Crockford.problem(s, Crockford.LONG_LENGTH, 15);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        long value = Crockford.parseLong(s);
        long millis = value >>> RANDOM_BITS;
        long random = value & ((1L << RANDOM_BITS) - 1);
        String split = "if the generator used the default 10 node bits";
        return new DecodedFields(input, "TSID", "Crockford base32", Optional.of(EPOCH.plusMillis(millis)), List.of(
                IdField.text("tsid", Crockford.toString(value)),
                IdField.text("number", Long.toUnsignedString(value)).withNote("the same 64 bits"),
                IdField.number("timestamp", millis, "ms since " + EPOCH),
                IdField.number("random", random, "22 bits: node and counter"),
                IdField.number("node", random >>> DEFAULT_COUNTER_BITS, split),
                IdField.number("counter", random & ((1L << DEFAULT_COUNTER_BITS) - 1), split)));
    }
}
