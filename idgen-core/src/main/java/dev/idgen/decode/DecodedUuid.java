package dev.idgen.decode;

import dev.idgen.uuid.UuidInfo;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A string that is a UUID.
 *
 * @param input the string as given
 * @param form the text form it was written in
 * @param info what the UUID carries
 */
public record DecodedUuid(String input, UuidForm form, UuidInfo info) implements DecodedId {

    /**
     * @param input the string as given
     * @param form the text form it was written in
     * @param info what the UUID carries
     * @throws NullPointerException if any component is null
     */
    public DecodedUuid {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(form, "form");
        Objects.requireNonNull(info, "info");
    }

    @Override
    public Optional<Instant> time() {
        return info.time();
    }

    /** {@return {@code UUID <canonical>: <kind>; <time>; <fields>}, as {@link UuidInfo#toString()} after "UUID "} */
    @Override
    public String toString() {
        return "UUID " + info;
    }
}
