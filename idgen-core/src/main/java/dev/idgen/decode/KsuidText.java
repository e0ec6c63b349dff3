package dev.idgen.decode;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.text.Quote;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A KSUID (github.com/segmentio/ksuid): 27 base62 characters ({@code 0-9A-Za-z}) of 20 bytes, a
 * 32-bit count of seconds since 2014-05-13T16:53:20Z (Unix 1400000000) and 128 random bits.
 */
final class KsuidText implements TextFormat {

    static final KsuidText INSTANCE = new KsuidText();

    /** KSUID's epoch, Unix second 1400000000. */
    static final Instant EPOCH = Instant.ofEpochSecond(1_400_000_000L);

    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int LENGTH = 27;
    private static final int BYTES = 20;
    private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(8 * BYTES);
    private static final BigInteger BASE = BigInteger.valueOf(62);

    private KsuidText() {
    }

    @Override
    public String shape() {
        return "a KSUID (27 base62 characters 0-9A-Za-z, at most aWgEPTl1tmebfsQzFP4bxwgy80V)";
    }

    @Override
    public boolean fits(String s) {
        return s.length() == LENGTH;
    }

    @Override
    public DecodedId read(String input, String s, SnowflakeLayout layout) {
        BigInteger value = BigInteger.ZERO;
        for (int i = 0; i < LENGTH; i++) {
            int digit = ALPHABET.indexOf(s.charAt(i));
            if (digit < 0) {
                throw new IllegalArgumentException(Quote.of(s.charAt(i)) + " at index " + i + " is not a base62 digit");
            }
            value = value.multiply(BASE).add(BigInteger.valueOf(digit));
        }
        if (value.compareTo(LIMIT) >= 0) {
            throw new IllegalArgumentException("the value needs more than 160 bits");
        }
        byte[] raw = new byte[BYTES];
        byte[] big = value.toByteArray();   // big-endian, maybe with a leading zero byte, maybe shorter
        int copy = Math.min(big.length, BYTES);
        System.arraycopy(big, big.length - copy, raw, BYTES - copy, copy);
        long seconds = (raw[0] & 0xFFL) << 24 | (raw[1] & 0xFF) << 16 | (raw[2] & 0xFF) << 8 | (raw[3] & 0xFF);
        return new DecodedFields(input, "KSUID", "base62", Optional.of(EPOCH.plusSeconds(seconds)), List.of(
                IdField.text("ksuid", s),
                IdField.number("timestamp", seconds, "seconds since " + EPOCH),
                IdField.hex("payload", raw, 4, BYTES).withNote("128 random bits"),
                IdField.hex("raw", raw, 0, BYTES)));
    }
}
