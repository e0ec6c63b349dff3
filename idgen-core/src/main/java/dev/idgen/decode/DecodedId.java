package dev.idgen.decode;

import java.time.Instant;
import java.util.Optional;

/**
 * What {@link IdDecoder} made of a string: a {@link DecodedUuid} or a {@link DecodedSnowflake}.
 * {@link Object#toString()} says it in one readable line.
 */
public sealed interface DecodedId permits DecodedUuid, DecodedSnowflake {

    /** {@return the string as given, before trimming} */
    String input();

    /** {@return the time inside the ID, if it carries one} */
    Optional<Instant> time();
}
