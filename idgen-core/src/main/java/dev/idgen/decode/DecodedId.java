package dev.idgen.decode;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What {@link IdDecoder} made of a string, as data: what kind of ID it is, how it was read, the time
 * inside it, and its fields in order, each under the name the format's own documentation uses.
 * Whoever shows a decoded ID (the {@code idgen decode} command, a log enricher, an admin page) needs
 * nothing else, so a new kind of ID is one new implementation here and no change to them.
 *
 * <p>{@link DecodedSnowflake} and {@link DecodedUuid} also give their typed values;
 * {@link DecodedFields} serves every other format.
 */
public interface DecodedId {

    /** {@return the string as given, before trimming} */
    String input();

    /** {@return the kind of ID: {@code Snowflake}, {@code UUID}, {@code ULID}, {@code KSUID}, {@code TSID}, {@code ObjectId} or {@code xid}} */
    String kind();

    /**
     * How the string was read, to tell readings of one string apart.
     *
     * @return e.g. {@code decimal, layout discord}, {@code hex, layout twitter}, {@code canonical},
     *     {@code Crockford base32}
     */
    String readAs();

    /** {@return the time inside the ID, if it carries one} */
    Optional<Instant> time();

    /** {@return the fields, in the order the format defines them (most significant first)} */
    List<IdField> fields();
}
