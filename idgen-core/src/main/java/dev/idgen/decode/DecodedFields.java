package dev.idgen.decode;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A decoded ID of a format idgen reads but does not make (ULID, KSUID, TSID, MongoDB ObjectId, xid):
 * its kind, its time and its named fields.
 *
 * @param input the string as given
 * @param kind the format's name
 * @param readAs how the string was read, such as {@code Crockford base32}
 * @param time the time inside the ID
 * @param fields its fields, in order
 */
public record DecodedFields(String input, String kind, String readAs, Optional<Instant> time, List<IdField> fields)
        implements DecodedId {

    /**
     * @param input the string as given
     * @param kind the format's name
     * @param readAs how the string was read
     * @param time the time inside the ID, or empty
     * @param fields its fields, in order (copied)
     * @throws NullPointerException if any component is null
     */
    public DecodedFields {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(readAs, "readAs");
        Objects.requireNonNull(time, "time");
        fields = List.copyOf(fields);
    }

    /** {@return e.g. {@code ULID 01ARYZ6S41TSV4RRFFQ69G5FAV: time 2016-07-30T22:36:16.385Z; timestamp=1469918176385 ...}} */
    @Override
    public String toString() {
        return kind + " " + input.strip() + ": " + time.map(t -> "time " + t).orElse("no embedded time") + "; "
                + fields.stream().map(IdField::toString).collect(Collectors.joining(" "));
    }
}
