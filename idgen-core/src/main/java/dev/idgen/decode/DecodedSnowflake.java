package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A string that is a Snowflake, in decimal or hex, read with a layout.
 *
 * @param input the string as given
 * @param hex whether it was written in hex ({@code 0x...} or 16 hex digits) rather than decimal
 * @param id its fields under that layout
 */
public record DecodedSnowflake(String input, boolean hex, SnowflakeId id) implements DecodedId {

    /**
     * @param input the string as given
     * @param hex whether it was written in hex
     * @param id its fields under that layout
     * @throws NullPointerException if any component is null
     */
    public DecodedSnowflake {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String kind() {
        return "Snowflake";
    }

    /**
     * @return {@code decimal, layout <name>} or {@code hex, layout <name>}, followed by
     *     {@code , order machine-time-sequence} when the layout puts the machine id above the time
     */
    @Override
    public String readAs() {
        return (hex ? "hex" : "decimal") + ", layout " + layoutText();
    }

    private String layoutText() {
        SnowflakeLayout layout = id.layout();
        return layout.name() + (layout.fieldOrder() == SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE
                ? ", order " + layout.fieldOrder().hyphenated() : "");
    }

    /** {@return the start of the tick the ID was made in (always present)} */
    @Override
    public Optional<Instant> time() {
        return Optional.of(id.timestamp());
    }

    /**
     * The ID in decimal, the layout, its field order (high bits first), the ticks, the machine field
     * (and, when the layout splits it, each part under its name), and the sequence under the layout's
     * name for it.
     *
     * @return e.g. for Discord's documented ID: {@code id=175928847299117063}, {@code layout=discord (...)},
     *     {@code order=time-machine-sequence}, {@code ticks=...}, {@code machine=32}, {@code worker=1}, {@code process=0}, {@code increment=7}
     */
    @Override
    public List<IdField> fields() {
        SnowflakeLayout layout = id.layout();
        List<IdField> out = new ArrayList<>();
        out.add(IdField.text("id", Long.toUnsignedString(id.id())));
        out.add(IdField.text("layout", layout.toString()));
        out.add(IdField.text("order", layout.fieldOrder().hyphenated()));
        out.add(IdField.number("ticks", (id.timestamp().toEpochMilli() - layout.epoch().toEpochMilli())
                / layout.tickMillis(), layout.tickMillis() + " ms ticks since " + layout.epoch()));
        List<SnowflakeLayout.Part> parts = layout.machineParts();
        if (parts.size() > 1) {
            out.add(IdField.number("machine", id.machineId()));
        }
        for (SnowflakeLayout.Part part : parts) {
            out.add(IdField.number(part.name(), id.machinePart(part.name())));
        }
        out.add(IdField.number(layout.sequenceName(), id.sequence()));
        return out;
    }

    /**
     * @return e.g. {@code Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z,
     *     machine 32 (worker 1, process 0), increment 7}; with the machine id on top, {@code (layout
     *     twitter, order machine-time-sequence)}
     */
    @Override
    public String toString() {
        return "Snowflake " + Long.toUnsignedString(id.id()) + " (layout " + layoutText() + "): time "
                + id.timestamp() + ", machine " + id.machineDescription() + ", " + id.layout().sequenceName()
                + " " + id.sequence();
    }
}
