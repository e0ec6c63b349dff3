package dev.idgen.cli;

import dev.idgen.snowflake.SnowflakeLayout;
import picocli.CommandLine;

/** {@code --layout twitter|discord|instagram|sonyflake}, any case, through core's presets. */
final class LayoutConverter implements CommandLine.ITypeConverter<SnowflakeLayout> {

    /** For {@code --help}. */
    static final String NAMES = "twitter, discord, instagram, sonyflake";

    @Override
    public SnowflakeLayout convert(String value) {
        try {
            return SnowflakeLayout.preset(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a layout; expected one of " + NAMES);
        }
    }
}
