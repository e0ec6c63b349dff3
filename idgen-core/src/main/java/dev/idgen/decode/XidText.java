package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An xid (github.com/rs/xid): 20 lower-case base32hex characters ({@code 0-9a-v}, RFC 4648 §7
 * without padding) of 12 bytes: a 32-bit count of Unix seconds, a 3-byte machine id, a 2-byte
 * process id and a 3-byte counter. The 20 characters carry 100 bits; the last 4 are zero, so the
 * last character is {@code 0} or {@code g}. As the reference implementation, upper case is refused.
 */
final class XidText implements TextFormat {

    static final XidText INSTANCE = new XidText();

    private static final int LENGTH = 20;
    private static final int BYTES = 12;

    private XidText() {
    }

    @Override
    public String shape() {
        return "an xid (20 base32hex characters 0-9a-v, lower case)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == LENGTH;
    }

    private static int digit(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'v' ? c - 'a' + 10 : -1;
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        byte[] raw = new byte[BYTES];
        int bits = 0;
        int buffer = 0;
        int out = 0;
        for (int i = 0; i < LENGTH; i++) {
            int d = digit(s.charAt(i));
            if (d < 0) {
                throw new IllegalArgumentException(Quote.of(s.charAt(i)) + " at index " + i
                        + " is not a base32hex digit (0-9, a-v, lower case)");
            }
            buffer = buffer << 5 | d;
            bits += 5;
            if (bits >= 8 && out < BYTES) {
                bits -= 8;
                raw[out++] = (byte) (buffer >>> bits);
                buffer &= (1 << bits) - 1;
            }
        }
        if (buffer != 0) {
            throw new IllegalArgumentException("last character " + Quote.of(s.charAt(LENGTH - 1))
                    + " sets padding bits; an xid ends in 0 or g");
        }
        long seconds = (raw[0] & 0xFFL) << 24 | (raw[1] & 0xFF) << 16 | (raw[2] & 0xFF) << 8 | (raw[3] & 0xFF);
        long pid = (raw[7] & 0xFF) << 8 | (raw[8] & 0xFF);
        long counter = (raw[9] & 0xFF) << 16 | (raw[10] & 0xFF) << 8 | (raw[11] & 0xFF);
        return new DecodedFields(input, "xid", "base32hex", Optional.of(Instant.ofEpochSecond(seconds)), List.of(
                IdField.text("xid", s),
                IdField.number("timestamp", seconds, "Unix seconds"),
                IdField.hex("machine", raw, 4, 7),
                IdField.number("pid", pid),
                IdField.number("counter", counter),
                IdField.hex("raw", raw, 0, BYTES)));
    }
}
