package dev.idgen.cli;

import dev.idgen.snowflake.SnowflakeLayout;
import java.util.Iterator;
import picocli.CommandLine;

/** {@code --layout NAME}, any case, through core's presets; a new preset needs no change here. */
final class LayoutConverter implements CommandLine.ITypeConverter<SnowflakeLayout> {

    /** The preset names, for {@code --help} and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return SnowflakeLayout.presets().stream().map(SnowflakeLayout::name).iterator();
        }
    }

    @Override
    public SnowflakeLayout convert(String value) {
        try {
            return SnowflakeLayout.preset(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(dev.idgen.text.Quote.of(value)
                    + " is not a layout; expected one of " + SnowflakeLayout.presetNames());
        }
    }
}
