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

    /** Layouts with 10 machine bits split them as Twitter does, 5 datacenter + 5 worker. */
    private static final int TWITTER_MACHINE_BITS = 10;

    /**
     * @param input the string as given
     * @param id its fields under that layout
     * @throws NullPointerException if any component is null
     */
    public DecodedSnowflake {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(id, "id");
    }

    /** @return the start of the tick the ID was made in (always present) */
    @Override
    public Optional<Instant> time() {
        return Optional.of(id.timestamp());
    }

    /**
     * @return e.g. {@code Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z,
     *     machine 32 (datacenter 1, worker 0), sequence 7}
     */
    @Override
    public String toString() {
        String machine = id.layout().machineBits() == TWITTER_MACHINE_BITS
                ? id.machineId() + " (datacenter " + id.datacenterId() + ", worker " + id.workerId() + ")"
                : Long.toString(id.machineId());
        return "Snowflake " + Long.toUnsignedString(id.id()) + " (layout " + id.layout().name() + "): time "
                + id.timestamp() + ", machine " + machine + ", sequence " + id.sequence();
    }
}
