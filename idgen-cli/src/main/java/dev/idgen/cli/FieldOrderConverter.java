package dev.idgen.cli;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.snowflake.SnowflakeLayout.FieldOrder;
import java.util.Arrays;
import java.util.Iterator;
import picocli.CommandLine;

/**
 * {@code --field-order ORDER}: {@code time-machine-sequence}, {@code time-sequence-machine} or
 * {@code machine-time-sequence}, any case, through core's {@link FieldOrder#parse(String)}.
 */
final class FieldOrderConverter implements CommandLine.ITypeConverter<FieldOrder> {

    /** The order names, for {@code --help} and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(FieldOrder.values()).map(FieldOrder::hyphenated).iterator();
        }
    }

    @Override
    public FieldOrder convert(String value) {
        try {
            return FieldOrder.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(dev.idgen.text.Quote.of(value)
                    + " is not a field order; expected one of " + FieldOrder.names());
        }
    }

    /**
     * The layout in the order asked for, or as it is when none was asked for.
     *
     * @param spec the command, for the error
     * @param layout the layout from {@code --layout}
     * @param order the order from {@code --field-order}, or null
     * @return the layout to use
     * @throws CommandLine.ParameterException if the layout cannot take that order; core's message says why
     */
    static SnowflakeLayout apply(CommandLine.Model.CommandSpec spec, SnowflakeLayout layout, FieldOrder order) {
        if (order == null) {
            return layout;
        }
        try {
            return layout.withFieldOrder(order);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--field-order " + order.hyphenated()
                    + " does not fit --layout " + layout.name() + ": " + e.getMessage());
        }
    }
}
