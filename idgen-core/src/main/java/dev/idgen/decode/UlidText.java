package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Crockford;
import dev.idgen.ulid.Ulids;
import dev.idgen.uuid.Uuids;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A ULID (github.com/ulid/spec): 26 Crockford base32 characters, 48-bit Unix ms and 80 random bits. */
final class UlidText implements TextFormat {

    static final UlidText INSTANCE = new UlidText();

    private UlidText() {
    }

    @Override
    public String shape() {
        return "a ULID (26 Crockford base32 characters)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == Crockford.UUID_LENGTH;
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        String problem = Crockford.problem(s, Crockford.UUID_LENGTH, 7);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        UUID ulid = Ulids.parse(s);
        long random16 = ulid.getMostSignificantBits() & 0xFFFF;
        return new DecodedFields(input, "ULID", "Crockford base32", Optional.of(Ulids.time(ulid)), List.of(
                IdField.text("ulid", Ulids.toString(ulid)),
                IdField.number("timestamp", Ulids.timestamp(ulid), "Unix ms"),
                new IdField("randomness", String.format("0x%04x%016x", random16, ulid.getLeastSignificantBits()),
                        false, "80 bits"),
                IdField.text("as uuid", Uuids.toString(ulid)).withNote("the same 128 bits")));
    }
}
