package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.util.stream.Collectors;

/** A Snowflake in decimal ({@code 175928847299117063}) or in hex ({@code 0x2710...} or 16 hex digits). */
final class SnowflakeText implements TextFormat {

    static final SnowflakeText DECIMAL = new SnowflakeText(false);
    static final SnowflakeText HEX = new SnowflakeText(true);

    private static final int HEX_DIGITS = 16;
    private static final int MAX_DECIMAL_DIGITS = 20;

    private final boolean hex;

    private SnowflakeText(boolean hex) {
        this.hex = hex;
    }

    @Override
    public String shape() {
        return hex ? "a hex Snowflake (0x and 1 to 16 hex digits, or exactly 16 hex digits)"
                : "a decimal Snowflake (0 to 18446744073709551615)";
    }

    @Override
    public boolean fits(String s) {
        if (hex) {
            return hasPrefix(s) || s.length() == HEX_DIGITS;
        }
        if (s.isEmpty() || s.length() > MAX_DECIMAL_DIGITS) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean hasPrefix(String s) {
        return s.length() > 1 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X');
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        long id;
        if (hex) {
            String digits = hasPrefix(s) ? s.substring(2) : s;
            if (digits.isEmpty() || digits.length() > HEX_DIGITS) {
                throw new IllegalArgumentException(digits.length() + " hex digits; a Snowflake has 1 to 16");
            }
            int bad = TextFormat.firstNonHex(digits, 0);
            if (bad >= 0) {
                throw new IllegalArgumentException(Quote.of(digits.charAt(bad)) + " at index "
                        + (bad + s.length() - digits.length()) + " is not a hex digit");
            }
            id = Long.parseUnsignedLong(digits, 16);
        } else {
            try {
                id = Long.parseUnsignedLong(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("larger than 18446744073709551615, the largest 64-bit number");
            }
        }
        if (!fitsLayout(id, layout)) {
            throw new IllegalArgumentException(Long.toUnsignedString(id) + " is larger than " + layout.maxId()
                    + ", the largest ID of layout " + layout.name() + "; preset layouts that reach it: "
                    + SnowflakeLayout.presets().stream().filter(l -> fitsLayout(id, l)).map(SnowflakeLayout::name)
                            .collect(Collectors.joining(", ")));
        }
        return new DecodedSnowflake(input, hex, layout.decode(id));
    }

    /** Whether a layout's fields cover every set bit of the ID (read unsigned). */
    static boolean fitsLayout(long id, SnowflakeLayout layout) {
        return layout.usesSignBit() || (id >= 0 && id <= layout.maxId());
    }
}
