package dev.idgen.uuid;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * What is inside a UUID, as {@link Uuids#decode(UUID)} reads it: its variant, its version, the
 * time it carries (versions 1, 6 and 7) and every field its version defines, named as in RFC 9562
 * §5.
 *
 * <p>Field names by version: v1 {@code time_low, time_mid, time_high, clock_seq, node}; v6
 * {@code time_high, time_mid, time_low, clock_seq, node}; v7 {@code unix_ts_ms, rand_a, rand_b};
 * v4 {@code random_a, random_b, random_c}; v3 {@code md5_high, md5_mid, md5_low}; v5
 * {@code sha1_high, sha1_mid, sha1_low}; v8 {@code custom_a, custom_b, custom_c}; v2 (DCE 1.1)
 * {@code local_id, time_mid, time_high, clock_seq_high, local_domain, node}. The version and
 * variant bits are not listed as fields. A UUID of another variant, or of an undefined version,
 * has the fields {@code high} and {@code low} (its two 64-bit halves); the Nil and Max UUIDs have
 * none.
 *
 * <p>In a v7 UUID, {@code rand_a} and the top of {@code rand_b} may be a counter or a sub-millisecond
 * fraction (RFC 9562 §6.2) rather than random bits; the UUID itself does not say which. idgen's
 * monotonic {@link UuidV7Generator} keeps a 16-bit counter in {@code rand_a} and the top 4 bits of
 * {@code rand_b}.
 *
 * @param uuid the UUID
 * @param variant its variant
 * @param version its 4 version bits (meaningful for the {@link UuidVariant#RFC_9562} variant;
 *     0 for Nil, 15 for Max)
 * @param time the time it carries: Unix milliseconds for v7, 100 ns Gregorian ticks since
 *     1582-10-15 for v1 and v6; empty for every other kind
 * @param fields the fields of its version, most significant first
 */
public record UuidInfo(UUID uuid, UuidVariant variant, int version, Optional<Instant> time, List<Field> fields) {

    /** 100 ns intervals from the Gregorian epoch 1582-10-15T00:00:00Z to the Unix epoch. */
    static final long GREGORIAN_TO_UNIX_100NS = 0x01B21DD213814000L;

    private static final long HUNDRED_NS_PER_SECOND = 10_000_000L;

    /**
     * @param uuid the UUID
     * @param variant its variant
     * @param version its 4 version bits
     * @param time the time it carries, or empty
     * @param fields the fields of its version, most significant first (copied)
     * @throws NullPointerException if any component is null
     */
    public UuidInfo {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(time, "time");
        fields = List.copyOf(fields);
    }

    /**
     * One field of a UUID.
     *
     * @param name the field's name in RFC 9562
     * @param bits its width
     * @param value its bits, right-aligned (read unsigned when {@code bits} is 64)
     */
    public record Field(String name, int bits, long value) {

        /**
         * @param name the field's name in RFC 9562
         * @param bits its width
         * @param value its bits, right-aligned (read unsigned when {@code bits} is 64)
         * @throws IllegalArgumentException if {@code bits} is not 1 to 64 or {@code value} does not fit
         */
        public Field {
            Objects.requireNonNull(name, "name");
            if (bits < 1 || bits > 64 || (bits < 64 && value >>> bits != 0)) {
                throw new IllegalArgumentException("field " + name + ": value 0x" + Long.toHexString(value)
                        + " does not fit " + bits + " bits");
            }
        }

        /** {@return {@code name=0x...}, the value in lower-case hex padded to the field's width} */
        @Override
        public String toString() {
            String hex = Long.toHexString(value);
            int digits = (bits + 3) / 4;
            return name + "=0x" + "0".repeat(Math.max(0, digits - hex.length())) + hex;
        }
    }

    static UuidInfo of(UUID uuid) {
        long msb = uuid.getMostSignificantBits();
        long lsb = uuid.getLeastSignificantBits();
        UuidVariant variant = UuidVariant.of(lsb);
        int version = (int) (msb >>> 12) & 0xF;
        List<Field> fields = new ArrayList<>();
        Optional<Instant> time = Optional.empty();
        if (uuid.equals(Uuids.NIL) || uuid.equals(Uuids.MAX)) {
            return new UuidInfo(uuid, variant, version, time, fields);
        }
        if (variant != UuidVariant.RFC_9562 || version == 0 || version > 8) {
            fields.add(new Field("high", 64, msb));
            fields.add(new Field("low", 64, lsb));
            return new UuidInfo(uuid, variant, version, time, fields);
        }
        long clockSeq = lsb >>> 48 & 0x3FFF;
        long node = lsb & 0xFFFF_FFFF_FFFFL;
        switch (version) {
            case 1 -> {
                long timeLow = msb >>> 32;
                long timeMid = msb >>> 16 & 0xFFFF;
                long timeHigh = msb & 0xFFF;
                fields.add(new Field("time_low", 32, timeLow));
                fields.add(new Field("time_mid", 16, timeMid));
                fields.add(new Field("time_high", 12, timeHigh));
                fields.add(new Field("clock_seq", 14, clockSeq));
                fields.add(new Field("node", 48, node));
                time = Optional.of(gregorian(timeHigh << 48 | timeMid << 32 | timeLow));
            }
            case 2 -> {
                fields.add(new Field("local_id", 32, msb >>> 32));
                fields.add(new Field("time_mid", 16, msb >>> 16 & 0xFFFF));
                fields.add(new Field("time_high", 12, msb & 0xFFF));
                fields.add(new Field("clock_seq_high", 6, lsb >>> 56 & 0x3F));
                fields.add(new Field("local_domain", 8, lsb >>> 48 & 0xFF));
                fields.add(new Field("node", 48, node));
            }
            case 6 -> {
                long timeHigh = msb >>> 32;
                long timeMid = msb >>> 16 & 0xFFFF;
                long timeLow = msb & 0xFFF;
                fields.add(new Field("time_high", 32, timeHigh));
                fields.add(new Field("time_mid", 16, timeMid));
                fields.add(new Field("time_low", 12, timeLow));
                fields.add(new Field("clock_seq", 14, clockSeq));
                fields.add(new Field("node", 48, node));
                time = Optional.of(gregorian(timeHigh << 28 | timeMid << 12 | timeLow));
            }
            case 7 -> {
                long unixMillis = msb >>> 16;
                fields.add(new Field("unix_ts_ms", 48, unixMillis));
                fields.add(new Field("rand_a", 12, msb & 0xFFF));
                fields.add(new Field("rand_b", 62, lsb & 0x3FFF_FFFF_FFFF_FFFFL));
                time = Optional.of(Instant.ofEpochMilli(unixMillis));
            }
            default -> {
                String prefix = switch (version) {
                    case 3 -> "md5_";
                    case 5 -> "sha1_";
                    case 4 -> "random_";
                    default -> "custom_";
                };
                boolean letters = version == 4 || version == 8;
                fields.add(new Field(prefix + (letters ? "a" : "high"), 48, msb >>> 16));
                fields.add(new Field(prefix + (letters ? "b" : "mid"), 12, msb & 0xFFF));
                fields.add(new Field(prefix + (letters ? "c" : "low"), 62, lsb & 0x3FFF_FFFF_FFFF_FFFFL));
            }
        }
        return new UuidInfo(uuid, variant, version, time, fields);
    }

    /** A 60-bit count of 100 ns since 1582-10-15T00:00:00Z as an instant. */
    private static Instant gregorian(long ticks) {
        long sinceUnix = ticks - GREGORIAN_TO_UNIX_100NS;
        return Instant.ofEpochSecond(Math.floorDiv(sinceUnix, HUNDRED_NS_PER_SECOND),
                Math.floorMod(sinceUnix, HUNDRED_NS_PER_SECOND) * 100);
    }

    /** {@return whether this is the Nil UUID, all bits zero} */
    public boolean isNil() {
        return uuid.equals(Uuids.NIL);
    }

    /** {@return whether this is the Max UUID, all bits one} */
    public boolean isMax() {
        return uuid.equals(Uuids.MAX);
    }

    /**
     * The value of one field.
     *
     * @param name a field name as listed in {@link #fields()}
     * @return its value, or empty if this UUID has no such field
     */
    public OptionalLong field(String name) {
        for (Field f : fields) {
            if (f.name().equals(name)) {
                return OptionalLong.of(f.value());
            }
        }
        return OptionalLong.empty();
    }

    /**
     * What kind of UUID this is, in words: {@code "Nil"}, {@code "Max"}, the RFC 9562 name of the
     * version ({@code "version 7, Unix Epoch time-based"}), or the variant for others.
     *
     * @return a short description
     */
    public String kind() {
        if (isNil()) {
            return "Nil UUID";
        }
        if (isMax()) {
            return "Max UUID";
        }
        if (variant != UuidVariant.RFC_9562) {
            return variant + " variant";
        }
        String name = switch (version) {
            case 1 -> "Gregorian time-based";
            case 2 -> "DCE Security";
            case 3 -> "name-based, MD5";
            case 4 -> "random";
            case 5 -> "name-based, SHA-1";
            case 6 -> "reordered Gregorian time-based";
            case 7 -> "Unix Epoch time-based";
            case 8 -> "custom";
            default -> "undefined";
        };
        return "version " + version + ", " + name;
    }

    /**
     * @return e.g. {@code 017f22e2-79b0-7cc3-98c4-dc0c0c07398f: RFC 9562 version 7, Unix Epoch
     *     time-based; time 2022-02-22T19:22:22Z; unix_ts_ms=0x017f22e279b0 rand_a=0xcc3
     *     rand_b=0x18c4dc0c0c07398f}
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(Uuids.toString(uuid)).append(": ");
        if (variant == UuidVariant.RFC_9562 && !isNil() && !isMax()) {
            out.append("RFC 9562 ");
        }
        out.append(kind()).append("; ");
        out.append(time.map(t -> "time " + t).orElse("no embedded time"));
        if (!fields.isEmpty()) {
            out.append(';');
            for (Field f : fields) {
                out.append(' ').append(f);
            }
        }
        return out.toString();
    }
}
