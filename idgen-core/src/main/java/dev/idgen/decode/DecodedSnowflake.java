package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeId;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A string that is a decimal Snowflake, read with the layout the caller named.
 *
 * @param input the string as given
 * @param id its fields under that layout
 */
public record DecodedSnowflake(String input, SnowflakeId id) implements DecodedId {

    /**
     * @param input the string as given
     * @param id its fields under that layout
     * @throws NullPointerException if any component is null
     */
    public DecodedSnowflake {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(id, "id");
    }

    /** {@return the start of the tick the ID was made in (always present)} */
    @Override
    public Optional<Instant> time() {
        return Optional.of(id.timestamp());
    }

    /**
     * @return e.g. {@code Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z,
     *     machine 32 (worker 1, process 0), sequence 7}
     */
    @Override
    public String toString() {
        return "Snowflake " + Long.toUnsignedString(id.id()) + " (layout " + id.layout().name() + "): time "
                + id.timestamp() + ", machine " + id.machineDescription() + ", sequence " + id.sequence();
    }
}
