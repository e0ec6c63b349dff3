package dev.idgen.decode;

import dev.idgen.uuid.UuidInfo;
import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    public String kind() {
        return "UUID";
    }

    /** {@return the form, in lower case: {@code canonical}, {@code hex}, {@code braced} or {@code urn}} */
    @Override
    public String readAs() {
        return form.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public Optional<Instant> time() {
        return info.time();
    }

    /**
     * The canonical form, variant, version and type, then the fields of its version under their
     * RFC 9562 names, in hex.
     *
     * @return the fields, in order
     */
    @Override
    public List<IdField> fields() {
        List<IdField> out = new ArrayList<>();
        out.add(IdField.text("uuid", Uuids.toString(info.uuid())));
        out.add(IdField.text("variant", info.variant().name()));
        out.add(IdField.number("version", info.version()));
        out.add(IdField.text("type", info.kind()));
        for (UuidInfo.Field f : info.fields()) {
            out.add(IdField.hex(f.name(), f.bits(), f.value()));
        }
        return out;
    }

    /** {@return {@code UUID <canonical>: <kind>; <time>; <fields>}, as {@link UuidInfo#toString()} after "UUID "} */
    @Override
    public String toString() {
        return "UUID " + info;
    }
}
