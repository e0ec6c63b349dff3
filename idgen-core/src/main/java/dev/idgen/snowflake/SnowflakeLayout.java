package dev.idgen.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a 64-bit Snowflake ID is cut into fields: a timestamp in ticks since an epoch, a machine id
 * and a per-tick sequence, in one of two {@link FieldOrder orders}.
 *
 * <p>The fields fill either the 63 bits below the sign bit (Twitter, Sonyflake) or all 64 bits, as
 * Discord and Instagram document their layouts; then the sign bit is the top bit of the timestamp.
 * Either way a generator makes only non-negative IDs: in a 64-bit layout it stops while that top
 * bit is still 0 ({@link #maxTimestamp()}, {@link #lastInstant()}), and {@link #decode(long)} reads
 * a negative ID as the unsigned form such a layout documents.
 *
 * <p>A layout checks itself when made: the bits add up to 63 or 64, the sequence has 1 to 31 bits,
 * the tick is a whole number of milliseconds, and every instant it can encode is a valid Unix
 * millisecond. Sorting the IDs of one machine sorts them by (tick, sequence).
 *
 * @param name a short name for messages, such as {@code "twitter"}
 * @param timestampBits bits of the tick count, 1 or more
 * @param machineBits bits of the machine id, 0 or more
 * @param sequenceBits bits of the per-tick sequence, 1 to 31
 * @param epoch the instant of tick 0
 * @param tick the length of one tick, a whole number of milliseconds
 * @param fieldOrder where the machine id and the sequence sit below the timestamp
 */
public record SnowflakeLayout(String name, int timestampBits, int machineBits, int sequenceBits,
        Instant epoch, Duration tick, FieldOrder fieldOrder) {

    /** The order of the two fields below the timestamp, from high bits to low. */
    public enum FieldOrder {
        /** timestamp, machine id, sequence: Twitter, Discord, Instagram. */
        TIME_MACHINE_SEQUENCE,
        /** timestamp, sequence, machine id: Sonyflake. */
        TIME_SEQUENCE_MACHINE
    }

    /** Bits below the sign bit. */
    private static final int SIGNED_BITS = 63;

    /**
     * Twitter's layout: 41 bits of milliseconds since 2010-11-04T01:42:54.657Z (twepoch
     * 1288834974657), 10 machine bits (5 datacenter + 5 worker), 12 sequence bits. Lasts until
     * 2080-07-10; 4,096 IDs per millisecond per machine.
     */
    public static final SnowflakeLayout TWITTER = new SnowflakeLayout("twitter", 41, 10, 12,
            Instant.ofEpochMilli(1288834974657L), Duration.ofMillis(1), FieldOrder.TIME_MACHINE_SEQUENCE);

    /**
     * Discord's layout: 42 bits of milliseconds since 2015-01-01T00:00:00Z (1420070400000), the sign
     * bit included, then 5 worker + 5 process bits and 12 increment bits. Generators stop where the
     * sign bit would be set (2084-09-06); {@link #decode(long)} reads the unsigned form too.
     */
    public static final SnowflakeLayout DISCORD = new SnowflakeLayout("discord", 42, 10, 12,
            Instant.ofEpochMilli(1420070400000L), Duration.ofMillis(1), FieldOrder.TIME_MACHINE_SEQUENCE);

    /**
     * Instagram's layout: 41 bits of milliseconds since 1314220021721 (2011-08-24T21:07:01.721Z), the
     * sign bit included, then 13 shard bits and 10 sequence bits. Generators stop where the sign bit
     * would be set (2046-06-27).
     */
    public static final SnowflakeLayout INSTAGRAM = new SnowflakeLayout("instagram", 41, 13, 10,
            Instant.ofEpochMilli(1314220021721L), Duration.ofMillis(1), FieldOrder.TIME_MACHINE_SEQUENCE);

    /**
     * Sonyflake's layout: 39 bits of 10 ms ticks since 2014-09-01T00:00:00Z, then 8 sequence bits,
     * then 16 machine bits (its fields are in the order time, sequence, machine). Lasts about 174
     * years; 256 IDs per 10 ms per machine.
     */
    public static final SnowflakeLayout SONYFLAKE = new SnowflakeLayout("sonyflake", 39, 16, 8,
            Instant.parse("2014-09-01T00:00:00Z"), Duration.ofMillis(10), FieldOrder.TIME_SEQUENCE_MACHINE);

    /**
     * Checks the layout.
     *
     * @param name a short name for messages
     * @param timestampBits bits of the tick count
     * @param machineBits bits of the machine id
     * @param sequenceBits bits of the per-tick sequence
     * @param epoch the instant of tick 0
     * @param tick the length of one tick
     * @param fieldOrder where the machine id and the sequence sit below the timestamp
     * @throws IllegalArgumentException if a field is out of range or the bits do not add up to 63
     */
    public SnowflakeLayout {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(fieldOrder, "fieldOrder");
        if (name.isBlank()) {
            throw new IllegalArgumentException("layout name is blank; give it a short name");
        }
        if (timestampBits < 1 || machineBits < 0 || sequenceBits < 1 || sequenceBits > 31) {
            throw new IllegalArgumentException("layout " + name + ": timestamp bits " + timestampBits
                    + ", machine bits " + machineBits + ", sequence bits " + sequenceBits
                    + " are out of range; allowed: timestamp 1 or more, machine 0 or more, sequence 1 to 31");
        }
        int total = timestampBits + machineBits + sequenceBits;
        if (total != SIGNED_BITS && total != SIGNED_BITS + 1) {
            throw new IllegalArgumentException("layout " + name + ": timestamp " + timestampBits
                    + " + machine " + machineBits + " + sequence " + sequenceBits + " = " + total
                    + " bits; the fields must fill 63 bits (below the sign bit) or 64 (the sign bit"
                    + " then being the timestamp's top bit)");
        }
        if (timestampBits > 62) {
            throw new IllegalArgumentException("layout " + name + ": " + timestampBits
                    + " timestamp bits; allowed at most 62");
        }
        if (tick.isNegative() || tick.isZero() || tick.toNanos() % 1_000_000 != 0) {
            throw new IllegalArgumentException("layout " + name + ": tick " + tick
                    + " is not allowed; a tick is a whole number of milliseconds, 1 ms or more");
        }
        long tickMillis = tick.toMillis();
        long epochMillis;
        try {
            epochMillis = epoch.toEpochMilli();
            Math.addExact(epochMillis, Math.multiplyExact(1L << timestampBits, tickMillis));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("layout " + name + ": " + timestampBits
                    + " timestamp bits of " + tickMillis + " ms from " + epoch
                    + " reach past the last Unix millisecond a long can hold; use fewer bits or a longer tick");
        }
        if (epochMillis < 0) {
            throw new IllegalArgumentException("layout " + name + ": epoch " + epoch
                    + " is before 1970-01-01T00:00:00Z; allowed: the Unix epoch or later");
        }
    }

    /**
     * The presets, in a fixed order: twitter, discord, instagram, sonyflake.
     *
     * @return the preset layouts
     */
    public static List<SnowflakeLayout> presets() {
        return List.of(TWITTER, DISCORD, INSTAGRAM, SONYFLAKE);
    }

    /**
     * A preset by name, ignoring case.
     *
     * @param name {@code twitter}, {@code discord}, {@code instagram} or {@code sonyflake}
     * @return the preset
     * @throws IllegalArgumentException if no preset has that name
     */
    public static SnowflakeLayout preset(String name) {
        String key = Objects.requireNonNull(name, "name").trim().toLowerCase(Locale.ROOT);
        for (SnowflakeLayout layout : presets()) {
            if (layout.name.equals(key)) {
                return layout;
            }
        }
        throw new IllegalArgumentException("no layout named '" + name
                + "'; known: twitter, discord, instagram, sonyflake");
    }

    /** {@return the largest machine id, {@code 2^machineBits - 1}} */
    public long maxMachineId() {
        return (1L << machineBits) - 1;
    }

    /** {@return the largest sequence within one tick, {@code 2^sequenceBits - 1}} */
    public long maxSequence() {
        return (1L << sequenceBits) - 1;
    }

    /**
     * @return the largest tick count a generator may encode: {@code 2^timestampBits - 1}, or
     *     {@code 2^(timestampBits - 1) - 1} in a 64-bit layout, so that no ID is negative
     */
    public long maxTimestamp() {
        return (1L << (usesSignBit() ? timestampBits - 1 : timestampBits)) - 1;
    }

    /** {@return whether the fields fill all 64 bits, the sign bit being the timestamp's top bit} */
    public boolean usesSignBit() {
        return timestampBits + machineBits + sequenceBits > SIGNED_BITS;
    }

    /** {@return the length of one tick in milliseconds} */
    public long tickMillis() {
        return tick.toMillis();
    }

    /** {@return the last instant this layout can encode: the final millisecond of its last tick} */
    public Instant lastInstant() {
        return epoch.plusMillis((maxTimestamp() + 1) * tickMillis() - 1);
    }

    /** {@return how far left the timestamp field is shifted} */
    public int timestampShift() {
        return machineBits + sequenceBits;
    }

    /** {@return how far left the machine field is shifted} */
    public int machineShift() {
        return fieldOrder == FieldOrder.TIME_MACHINE_SEQUENCE ? sequenceBits : 0;
    }

    /** {@return how far left the sequence field is shifted} */
    public int sequenceShift() {
        return fieldOrder == FieldOrder.TIME_MACHINE_SEQUENCE ? 0 : machineBits;
    }

    /**
     * Puts the three fields together.
     *
     * @param timestamp ticks since the epoch, 0 to {@link #maxTimestamp()}
     * @param machineId 0 to {@link #maxMachineId()}
     * @param sequence 0 to {@link #maxSequence()}
     * @return the ID, never negative
     * @throws IllegalArgumentException if a field is out of range
     */
    public long encode(long timestamp, long machineId, long sequence) {
        checkField("timestamp", timestamp, maxTimestamp());
        checkField("machine id", machineId, maxMachineId());
        checkField("sequence", sequence, maxSequence());
        return timestamp << timestampShift() | machineId << machineShift() | sequence << sequenceShift();
    }

    /**
     * The tick that contains an instant.
     *
     * @param instant an instant from the epoch to {@link #lastInstant()}
     * @return ticks since the epoch
     * @throws IllegalArgumentException if the instant is outside the layout
     */
    public long timestampOf(Instant instant) {
        if (instant.isBefore(epoch) || instant.isAfter(lastInstant())) {
            throw new IllegalArgumentException("instant " + instant + " is outside layout " + name
                    + ": allowed " + epoch + " to " + lastInstant());
        }
        return (instant.toEpochMilli() - epoch.toEpochMilli()) / tickMillis();
    }

    /**
     * Takes an ID apart. In a 64-bit layout a negative ID is read as unsigned, its sign bit the top
     * bit of the timestamp, as Discord documents its 42-bit timestamps.
     *
     * @param id an ID in this layout
     * @return its fields
     * @throws IllegalArgumentException if the ID is negative and the layout keeps the sign bit 0
     */
    public SnowflakeId decode(long id) {
        if (id < 0 && !usesSignBit()) {
            throw new IllegalArgumentException("id " + id + " is negative; layout " + name
                    + " makes only IDs from 0 to " + Long.MAX_VALUE);
        }
        long timestamp = id >>> timestampShift();
        long machine = (id >>> machineShift()) & maxMachineId();
        long sequence = (id >>> sequenceShift()) & maxSequence();
        return new SnowflakeId(id, epoch.plusMillis(timestamp * tickMillis()), machine, sequence, this);
    }

    private void checkField(String field, long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(field + " " + value + " is outside layout " + name
                    + "'s range 0.." + max);
        }
    }

    @Override
    public String toString() {
        return name + " (" + timestampBits + " timestamp bits of " + tickMillis() + " ms since " + epoch
                + ", " + machineBits + " machine bits, " + sequenceBits + " sequence bits, "
                + fieldOrder + ")";
    }
}
