package dev.idgen.snowflake;

import dev.idgen.text.Quote;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How a Snowflake ID is cut into fields: a timestamp in ticks since an epoch, a machine id and a
 * per-tick sequence, in one of three {@link FieldOrder orders}, each field under the name its authors
 * use (Twitter's datacenter and worker, Discord's worker, process and increment, Instagram's shard).
 *
 * <p>The fields fill at most the 63 bits below the sign bit (Twitter, Sonyflake, or fewer, as
 * {@link #JS_SAFE}), or all 64 bits, as Discord and Instagram document their layouts; then the sign
 * bit is the top bit of the timestamp. Either way a generator makes only non-negative IDs: in a
 * 64-bit layout it stops while that top bit is still 0 ({@link #maxTimestamp()},
 * {@link #lastInstant()}), and {@link #decode(long)} reads a negative ID as the unsigned form such a
 * layout documents.
 *
 * <p>A layout checks itself when built, and every refusal names the value and what is allowed: the
 * bits add up to at most 63, or exactly 64; the sequence has 1 to 31 bits; the epoch is a whole
 * Unix millisecond, not before 1970; the tick is a whole number of milliseconds; every instant it
 * can encode is a valid Unix millisecond; named machine parts add up to the machine bits; a layout
 * that promises {@link #javaScriptSafe() JavaScript-safe} IDs has at most 53 bits; a layout with the
 * machine id on top ({@link FieldOrder#MACHINE_TIME_SEQUENCE}) has 1 or more machine bits and at
 * most 63 bits in all. Sorting the IDs of one machine sorts them by (tick, sequence), in every order.
 *
 * <pre>{@code
 * SnowflakeLayout mine = SnowflakeLayout.custom("mine")
 *         .epoch(Instant.parse("2024-01-01T00:00:00Z"))
 *         .timestampBits(41)
 *         .machine("region", 3).machine("node", 7)    // or .machineBits(10), one field "machine"
 *         .sequenceBits(12)
 *         .build();
 * }</pre>
 */
public final class SnowflakeLayout {

    /**
     * The order of the three fields, from high bits to low. The sequence is always below the
     * timestamp, so the IDs of one machine increase with time in every order; only the two
     * time-first orders sort the IDs of all machines by time.
     */
    public enum FieldOrder {
        /** timestamp, machine id, sequence: Twitter, Discord, Instagram. */
        TIME_MACHINE_SEQUENCE,
        /** timestamp, sequence, machine id: Sonyflake. */
        TIME_SEQUENCE_MACHINE,
        /**
         * machine id, timestamp, sequence: each machine appends at its own end of the key space.
         * For a B-tree index written by many machines at once that keeps its pages full (InnoDB; see
         * {@code docs/snowflake.md}); the price is that IDs of different machines are not in time
         * order, the machine id is the top bits, and a time range is one ID range per machine
         * ({@link SnowflakeLayout#firstIdAt(Instant, long)}). A layout in this order has at least one
         * machine bit and at most 63 bits, so the sign bit is never a machine bit.
         */
        MACHINE_TIME_SEQUENCE;

        /** {@return the name in lower case with hyphens, such as {@code machine-time-sequence}} */
        public String hyphenated() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * An order by name: {@code machine-time-sequence} or {@code MACHINE_TIME_SEQUENCE}, any case,
         * surrounding spaces ignored.
         *
         * @param name the name
         * @return the order
         * @throws IllegalArgumentException if no order has that name; the message lists the names
         */
        public static FieldOrder parse(String name) {
            String key = Objects.requireNonNull(name, "name").strip().toLowerCase(Locale.ROOT).replace('_', '-');
            for (FieldOrder order : values()) {
                if (order.hyphenated().equals(key)) {
                    return order;
                }
            }
            throw new IllegalArgumentException("no field order named " + Quote.of(name) + "; allowed: "
                    + names());
        }

        /** {@return the hyphenated names, comma-separated, in declaration order} */
        public static String names() {
            return Arrays.stream(values()).map(FieldOrder::hyphenated).collect(Collectors.joining(", "));
        }
    }

    /**
     * One named part of the machine field, such as Twitter's 5-bit {@code datacenter}. The parts of
     * a layout fill its machine field from the high bits down.
     *
     * @param name the part's name, as the layout's authors call it
     * @param bits its width, 1 or more
     */
    public record Part(String name, int bits) {

        /**
         * @param name the part's name
         * @param bits its width, 1 or more
         * @throws IllegalArgumentException if the name is blank or the width below 1
         */
        public Part {
            Objects.requireNonNull(name, "name");
            if (name.isBlank() || bits < 1) {
                throw new IllegalArgumentException("machine part '" + name + "' of " + bits
                        + " bits; allowed: a name that is not blank and 1 or more bits");
            }
        }
    }

    /** The longest tick whose length in milliseconds a {@code long} holds, in whole seconds. */
    private static final long MAX_TICK_SECONDS = Long.MAX_VALUE / 1000 - 1;

    /** Bits below the sign bit. */
    private static final int SIGNED_BITS = 63;

    /** Bits of a JavaScript {@code Number}'s integer range: every integer up to 2^53 - 1 is exact. */
    public static final int JAVASCRIPT_SAFE_BITS = 53;

    /**
     * Twitter's layout: 41 bits of milliseconds since 2010-11-04T01:42:54.657Z (twepoch
     * 1288834974657), 10 machine bits (5 {@code datacenter} + 5 {@code worker}), 12 sequence bits.
     * Lasts until 2080-07-10; 4,096 IDs per millisecond per machine.
     */
    public static final SnowflakeLayout TWITTER = custom("twitter").epoch(Instant.ofEpochMilli(1288834974657L))
            .timestampBits(41).machine("datacenter", 5).machine("worker", 5).sequenceBits(12).build();

    /**
     * Discord's layout: 42 bits of milliseconds since 2015-01-01T00:00:00Z (1420070400000), the sign
     * bit included, then 5 {@code worker} + 5 {@code process} bits and 12 {@code increment} bits.
     * Generators stop where the sign bit would be set (2084-09-06); {@link #decode(long)} reads the
     * unsigned form too.
     */
    public static final SnowflakeLayout DISCORD = custom("discord").epoch(Instant.ofEpochMilli(1420070400000L))
            .timestampBits(42).machine("worker", 5).machine("process", 5).sequence("increment", 12).build();

    /**
     * Instagram's layout: 41 bits of milliseconds since 1314220021721 (2011-08-24T21:07:01.721Z), the
     * sign bit included, then 13 {@code shard} bits and 10 sequence bits. Generators stop where the
     * sign bit would be set (2046-06-27).
     */
    public static final SnowflakeLayout INSTAGRAM = custom("instagram").epoch(Instant.ofEpochMilli(1314220021721L))
            .timestampBits(41).machine("shard", 13).sequenceBits(10).build();

    /**
     * Sonyflake's layout: 39 bits of 10 ms ticks since 2014-09-01T00:00:00Z, then 8 sequence bits,
     * then 16 machine bits (its fields are in the order time, sequence, machine). Lasts about 174
     * years; 256 IDs per 10 ms per machine.
     */
    public static final SnowflakeLayout SONYFLAKE = custom("sonyflake").epoch(Instant.parse("2014-09-01T00:00:00Z"))
            .tick(Duration.ofMillis(10)).timestampBits(39).machineBits(16).sequenceBits(8)
            .fieldOrder(FieldOrder.TIME_SEQUENCE_MACHINE).build();

    /**
     * A layout whose every ID is at most 2^53 - 1, so that it survives a JSON number in a browser
     * ({@code Number.MAX_SAFE_INTEGER}): 38 bits of 10 ms ticks since 2025-01-01T00:00:00Z (until
     * 2112-02-09, about 87 years), 7 machine bits (128 machines), 8 sequence bits (256 IDs per 10 ms,
     * 25,600 per second per machine). Why this split: see {@code docs/snowflake.md}.
     */
    public static final SnowflakeLayout JS_SAFE = custom("js-safe").epoch(Instant.parse("2025-01-01T00:00:00Z"))
            .tick(Duration.ofMillis(10)).timestampBits(38).machineBits(7).sequenceBits(8).javaScriptSafe().build();

    private static final List<SnowflakeLayout> PRESETS = List.of(TWITTER, DISCORD, INSTAGRAM, SONYFLAKE, JS_SAFE);

    private final String name;
    private final int timestampBits;
    private final int machineBits;
    private final int sequenceBits;
    private final Instant epoch;
    private final Duration tick;
    private final FieldOrder fieldOrder;
    private final List<Part> machineParts;
    private final String sequenceName;
    private final boolean javaScriptSafe;
    private final int timestampShift;
    private final int machineShift;
    private final int sequenceShift;

    private SnowflakeLayout(Builder b, int machineBits, List<Part> machineParts) {
        this.name = b.name;
        this.timestampBits = b.timestampBits;
        this.machineBits = machineBits;
        this.sequenceBits = b.sequenceBits;
        this.epoch = b.epoch;
        this.tick = b.tick;
        this.fieldOrder = b.fieldOrder;
        this.machineParts = List.copyOf(machineParts);
        this.sequenceName = b.sequenceName;
        this.javaScriptSafe = b.javaScriptSafe;
        switch (fieldOrder) {
            case TIME_MACHINE_SEQUENCE -> {
                this.timestampShift = machineBits + sequenceBits;
                this.machineShift = sequenceBits;
                this.sequenceShift = 0;
            }
            case TIME_SEQUENCE_MACHINE -> {
                this.timestampShift = machineBits + sequenceBits;
                this.machineShift = 0;
                this.sequenceShift = machineBits;
            }
            default -> {
                this.timestampShift = sequenceBits;
                this.machineShift = timestampBits + sequenceBits;
                this.sequenceShift = 0;
            }
        }
    }

    /**
     * Starts a layout of your own. Required: {@link Builder#epoch(Instant) epoch},
     * {@link Builder#timestampBits(int) timestamp bits}, the machine field (as
     * {@link Builder#machineBits(int) bits} or named {@link Builder#machine(String, int) parts}) and
     * the {@link Builder#sequenceBits(int) sequence bits}; the tick is 1 ms and the order
     * {@link FieldOrder#TIME_MACHINE_SEQUENCE} unless set.
     *
     * @param name a short name for messages and the decoder, such as {@code "orders"}
     * @return a builder
     * @throws IllegalArgumentException if the name is blank
     */
    public static Builder custom(String name) {
        return new Builder(name);
    }

    /**
     * The presets, in a fixed order: twitter, discord, instagram, sonyflake, js-safe.
     *
     * @return the preset layouts
     */
    public static List<SnowflakeLayout> presets() {
        return PRESETS;
    }

    /**
     * A preset by name, ignoring case and surrounding spaces.
     *
     * @param name {@code twitter}, {@code discord}, {@code instagram}, {@code sonyflake} or
     *     {@code js-safe}
     * @return the preset
     * @throws IllegalArgumentException if no preset has that name
     */
    public static SnowflakeLayout preset(String name) {
        String key = Objects.requireNonNull(name, "name").trim().toLowerCase(Locale.ROOT);
        for (SnowflakeLayout layout : PRESETS) {
            if (layout.name.equals(key)) {
                return layout;
            }
        }
        throw new IllegalArgumentException("no layout named " + Quote.of(name) + "; known: "
                + presetNames());
    }

    /** {@return the preset names, comma-separated, in preset order} */
    public static String presetNames() {
        return PRESETS.stream().map(SnowflakeLayout::name).collect(Collectors.joining(", "));
    }

    /** {@return the short name, such as {@code "twitter"}} */
    public String name() {
        return name;
    }

    /** {@return bits of the tick count} */
    public int timestampBits() {
        return timestampBits;
    }

    /** {@return bits of the machine id} */
    public int machineBits() {
        return machineBits;
    }

    /** {@return bits of the per-tick sequence} */
    public int sequenceBits() {
        return sequenceBits;
    }

    /** {@return the instant of tick 0} */
    public Instant epoch() {
        return epoch;
    }

    /** {@return the length of one tick} */
    public Duration tick() {
        return tick;
    }

    /** {@return the order of the fields, from high bits to low} */
    public FieldOrder fieldOrder() {
        return fieldOrder;
    }

    /**
     * The named parts of the machine field, high bits first; their bits add up to
     * {@link #machineBits()}. One part named {@code machine} unless the layout names them; none when
     * the layout has no machine bits.
     *
     * @return the parts, unmodifiable
     */
    public List<Part> machineParts() {
        return machineParts;
    }

    /** {@return what the layout's authors call the sequence: {@code "sequence"}, or Discord's {@code "increment"}} */
    public String sequenceName() {
        return sequenceName;
    }

    /** {@return whether the layout promises every ID at most 2^53 - 1, checked when it was built} */
    public boolean javaScriptSafe() {
        return javaScriptSafe;
    }

    /** {@return the bits the fields fill: at most 63, or 64 when the sign bit is the timestamp's top bit} */
    public int totalBits() {
        return timestampBits + machineBits + sequenceBits;
    }

    /** {@return the largest ID a generator on this layout makes: all fields at their maximum} */
    public long maxId() {
        return usesSignBit() ? Long.MAX_VALUE : (1L << totalBits()) - 1;
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

    /**
     * @return whether the fields fill all 64 bits, the sign bit being the timestamp's top bit (never
     *     in {@link FieldOrder#MACHINE_TIME_SEQUENCE})
     */
    public boolean usesSignBit() {
        return totalBits() > SIGNED_BITS;
    }

    /** {@return the length of one tick in milliseconds} */
    public long tickMillis() {
        return tick.toMillis();
    }

    /** {@return the last instant this layout can encode: the final millisecond of its last tick} */
    public Instant lastInstant() {
        return epoch.plusMillis((maxTimestamp() + 1) * tickMillis() - 1);
    }

    /**
     * @return how far left the timestamp field is shifted: the machine and sequence bits in the two
     *     time-first orders, the sequence bits in {@link FieldOrder#MACHINE_TIME_SEQUENCE}
     */
    public int timestampShift() {
        return timestampShift;
    }

    /**
     * @return how far left the machine field is shifted: the sequence bits, 0, or the timestamp and
     *     sequence bits, by {@link FieldOrder}
     */
    public int machineShift() {
        return machineShift;
    }

    /**
     * @return how far left the sequence field is shifted: 0, except the machine bits in
     *     {@link FieldOrder#TIME_SEQUENCE_MACHINE}
     */
    public int sequenceShift() {
        return sequenceShift;
    }

    /** {@return {@code 2^timestampBits - 1}: the bits of the timestamp field, before its shift} */
    private long timestampMask() {
        return (1L << timestampBits) - 1;
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
        return timestamp << timestampShift | machineId << machineShift | sequence << sequenceShift;
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
     * The smallest ID of the tick that contains an instant: its timestamp, every other field 0.
     * With {@link #lastIdAt(Instant)}, for range queries
     * ({@code WHERE id BETWEEN firstIdAt(from) AND lastIdAt(to)}): every ID this layout makes in
     * that tick, from any machine, lies between the two, in the two time-first orders (there the
     * timestamp is the top field). With the machine id on top no single range holds one tick of
     * every machine: use {@link #firstIdAt(Instant, long)} per machine.
     *
     * @param instant an instant from the epoch to {@link #lastInstant()}
     * @return the smallest ID of that tick, never negative
     * @throws IllegalArgumentException if the instant is outside the layout
     * @throws IllegalStateException if the layout's order is {@link FieldOrder#MACHINE_TIME_SEQUENCE}
     */
    public long firstIdAt(Instant instant) {
        requireTimeFirst("firstIdAt");
        return timestampOf(instant) << timestampShift;
    }

    /**
     * The largest ID of the tick that contains an instant: its timestamp, every other bit 1. See
     * {@link #firstIdAt(Instant)}.
     *
     * @param instant an instant from the epoch to {@link #lastInstant()}
     * @return the largest ID of that tick, never negative
     * @throws IllegalArgumentException if the instant is outside the layout
     * @throws IllegalStateException if the layout's order is {@link FieldOrder#MACHINE_TIME_SEQUENCE}
     */
    public long lastIdAt(Instant instant) {
        requireTimeFirst("lastIdAt");
        return timestampOf(instant) << timestampShift | ((1L << timestampShift) - 1);
    }

    /**
     * The smallest ID one machine can make in the tick that contains an instant: that tick, that
     * machine id, sequence 0; valid in every field order. With {@link #lastIdAt(Instant, long)}:
     * every ID the machine makes from the tick of {@code from} to the tick of {@code to} lies in
     * {@code BETWEEN firstIdAt(from, m) AND lastIdAt(to, m)}. In
     * {@link FieldOrder#MACHINE_TIME_SEQUENCE} that range holds only that machine's IDs of those
     * ticks, and a time range over all machines is one such range per machine. In the time-first
     * orders it also holds other machines' IDs (in {@link FieldOrder#TIME_MACHINE_SEQUENCE} only
     * when it spans more than one tick), so filter by machine as well.
     *
     * @param instant an instant from the epoch to {@link #lastInstant()}
     * @param machineId 0 to {@link #maxMachineId()}
     * @return the smallest ID of that machine in that tick, never negative
     * @throws IllegalArgumentException if the instant or the machine id is outside the layout
     */
    public long firstIdAt(Instant instant, long machineId) {
        return encode(timestampOf(instant), machineId, 0);
    }

    /**
     * The largest ID one machine can make in the tick that contains an instant: that tick, that
     * machine id, the largest sequence. See {@link #firstIdAt(Instant, long)}.
     *
     * @param instant an instant from the epoch to {@link #lastInstant()}
     * @param machineId 0 to {@link #maxMachineId()}
     * @return the largest ID of that machine in that tick, never negative
     * @throws IllegalArgumentException if the instant or the machine id is outside the layout
     */
    public long lastIdAt(Instant instant, long machineId) {
        return encode(timestampOf(instant), machineId, maxSequence());
    }

    private void requireTimeFirst(String method) {
        if (fieldOrder == FieldOrder.MACHINE_TIME_SEQUENCE) {
            throw new IllegalStateException("layout " + name + " has field order " + fieldOrder
                    + " (machine id above the timestamp), so no single ID range holds one tick of every"
                    + " machine; call " + method + "(instant, machineId) once per machine id 0.." + maxMachineId()
                    + ", or use a layout in order TIME_MACHINE_SEQUENCE or TIME_SEQUENCE_MACHINE");
        }
    }

    /**
     * The same fields, epoch, tick and names in another order, such as a preset with the machine id
     * on top: {@code SnowflakeLayout.TWITTER.withFieldOrder(FieldOrder.MACHINE_TIME_SEQUENCE)}. The
     * name stays; {@link #toString()} and {@link #fieldOrder()} tell the layouts apart, and so does
     * {@link #equals(Object)}.
     *
     * @param order the order
     * @return this layout if it already has that order, else a new one, checked as
     *     {@link Builder#build()} checks
     * @throws IllegalArgumentException if the layout cannot take that order (64 bits or no machine
     *     bits in {@link FieldOrder#MACHINE_TIME_SEQUENCE})
     */
    public SnowflakeLayout withFieldOrder(FieldOrder order) {
        Objects.requireNonNull(order, "order");
        if (order == fieldOrder) {
            return this;
        }
        Builder b = custom(name).epoch(epoch).tick(tick).timestampBits(timestampBits).machineBits(machineBits)
                .sequence(sequenceName, sequenceBits).fieldOrder(order);
        machineParts.forEach(p -> b.machine(p.name(), p.bits()));   // the default part comes back as it was
        if (javaScriptSafe) {
            b.javaScriptSafe();
        }
        return b.build();
    }

    /**
     * Takes an ID apart. In a 64-bit layout a negative ID is read as unsigned, its sign bit the top
     * bit of the timestamp, as Discord documents its 42-bit timestamps.
     *
     * @param id an ID in this layout
     * @return its fields
     * @throws IllegalArgumentException if the ID has bits above the layout's fields (a negative ID
     *     for a layout that keeps the sign bit 0, or an ID above {@link #maxId()} for a narrower one)
     */
    public SnowflakeId decode(long id) {
        if (!usesSignBit() && (id < 0 || id >>> totalBits() != 0)) {
            throw new IllegalArgumentException("id " + Long.toUnsignedString(id) + " is larger than "
                    + maxId() + ", the largest ID of layout " + name + " (" + totalBits() + " bits)");
        }
        long timestamp = (id >>> timestampShift) & timestampMask();
        long machine = (id >>> machineShift) & maxMachineId();
        long sequence = (id >>> sequenceShift) & maxSequence();
        return new SnowflakeId(id, epoch.plusMillis(timestamp * tickMillis()), machine, sequence, this);
    }

    private void checkField(String field, long value, long max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(field + " " + value + " is outside layout " + name
                    + "'s range 0.." + max);
        }
    }

    /**
     * How this layout cuts the 64 bits, and nothing else (not its name, nor the names of its
     * parts): two layouts with the same signature make the same ID from the same time, machine id
     * and sequence. A machine-id lease records it, so that holders of one namespace with different
     * layouts, whose IDs could be equal for different machine ids, are refused.
     *
     * @return for example {@code time-machine-sequence 41/10/12 tick 1 ms epoch 1288834974657}
     */
    public String signature() {
        int[] bits = switch (fieldOrder) {
            case TIME_MACHINE_SEQUENCE -> new int[] {timestampBits, machineBits, sequenceBits};
            case TIME_SEQUENCE_MACHINE -> new int[] {timestampBits, sequenceBits, machineBits};
            case MACHINE_TIME_SEQUENCE -> new int[] {machineBits, timestampBits, sequenceBits};
        };
        return fieldOrder.hyphenated() + " " + bits[0] + "/" + bits[1] + "/" + bits[2] + " tick " + tickMillis()
                + " ms epoch " + epoch.toEpochMilli();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnowflakeLayout l && name.equals(l.name) && timestampBits == l.timestampBits
                && machineBits == l.machineBits && sequenceBits == l.sequenceBits && epoch.equals(l.epoch)
                && tick.equals(l.tick) && fieldOrder == l.fieldOrder && machineParts.equals(l.machineParts)
                && sequenceName.equals(l.sequenceName) && javaScriptSafe == l.javaScriptSafe;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, timestampBits, machineBits, sequenceBits, epoch, tick, fieldOrder, machineParts,
                sequenceName, javaScriptSafe);
    }

    /**
     * The fields from high bits to low.
     *
     * @return e.g. {@code twitter (41 bits of 1 ms ticks since 2010-11-04T01:42:54.657Z | 10 machine
     *     bits: datacenter 5, worker 5 | 12 sequence bits)}
     */
    @Override
    public String toString() {
        String machine = machineBits + " machine bits" + (machineParts.size() == 1
                && machineParts.get(0).name().equals("machine") ? "" : machineParts.stream()
                        .map(p -> p.name() + " " + p.bits()).collect(Collectors.joining(", ", ": ", "")));
        String sequence = sequenceBits + " " + sequenceName + " bits";
        String time = timestampBits + " bits of " + tickMillis() + " ms ticks since " + epoch;
        String fields = switch (fieldOrder) {
            case TIME_MACHINE_SEQUENCE -> time + " | " + machine + " | " + sequence;
            case TIME_SEQUENCE_MACHINE -> time + " | " + sequence + " | " + machine;
            case MACHINE_TIME_SEQUENCE -> machine + " | " + time + " | " + sequence;
        };
        return name + " (" + fields + (javaScriptSafe ? " | JavaScript-safe" : "") + ")";
    }

    /**
     * Builds a {@link SnowflakeLayout}; see {@link SnowflakeLayout#custom(String)}. Every setter takes
     * its value as given; {@link #build()} checks them all together.
     */
    public static final class Builder {

        private final String name;
        private int timestampBits = -1;
        private int machineBits = -1;
        private int sequenceBits = -1;
        private Instant epoch;
        private Duration tick = Duration.ofMillis(1);
        private FieldOrder fieldOrder = FieldOrder.TIME_MACHINE_SEQUENCE;
        private final List<Part> machineParts = new ArrayList<>();
        private String sequenceName = "sequence";
        private boolean javaScriptSafe;

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("layout name is blank; give it a short name");
            }
            this.name = name;
        }

        /**
         * @param epoch the instant of tick 0, a whole Unix millisecond from 1970-01-01T00:00:00Z on
         * @return this builder
         */
        public Builder epoch(Instant epoch) {
            this.epoch = Objects.requireNonNull(epoch, "epoch");
            return this;
        }

        /**
         * @param tick the length of one tick, a whole number of milliseconds (default 1 ms)
         * @return this builder
         */
        public Builder tick(Duration tick) {
            this.tick = Objects.requireNonNull(tick, "tick");
            return this;
        }

        /**
         * @param bits bits of the tick count, 1 to 62
         * @return this builder
         */
        public Builder timestampBits(int bits) {
            this.timestampBits = bits;
            return this;
        }

        /**
         * The machine field as one part named {@code machine}; instead of {@link #machine(String, int)}.
         *
         * @param bits bits of the machine id, 0 or more
         * @return this builder
         */
        public Builder machineBits(int bits) {
            this.machineBits = bits;
            return this;
        }

        /**
         * Adds a named part to the machine field, below the parts added before it; the machine bits
         * are then the sum of the parts.
         *
         * @param partName the part's name, such as {@code "datacenter"}
         * @param bits its width, 1 or more
         * @return this builder
         * @throws IllegalArgumentException if the name is blank or the width below 1
         */
        public Builder machine(String partName, int bits) {
            machineParts.add(new Part(partName, bits));
            return this;
        }

        /**
         * @param bits bits of the per-tick sequence, 1 to 31
         * @return this builder
         */
        public Builder sequenceBits(int bits) {
            this.sequenceBits = bits;
            return this;
        }

        /**
         * The sequence under the name the layout's authors use, such as Discord's {@code "increment"}.
         *
         * @param fieldName the name
         * @param bits bits of the per-tick sequence, 1 to 31
         * @return this builder
         */
        public Builder sequence(String fieldName, int bits) {
            Objects.requireNonNull(fieldName, "fieldName");
            if (fieldName.isBlank()) {
                throw new IllegalArgumentException("layout " + name + ": sequence name is blank");
            }
            this.sequenceName = fieldName;
            this.sequenceBits = bits;
            return this;
        }

        /**
         * @param order the order of the fields, from high bits to low (default
         *     {@link FieldOrder#TIME_MACHINE_SEQUENCE}); {@link FieldOrder#MACHINE_TIME_SEQUENCE} needs
         *     1 or more machine bits and at most 63 bits in all, checked at {@link #build()}
         * @return this builder
         */
        public Builder fieldOrder(FieldOrder order) {
            this.fieldOrder = Objects.requireNonNull(order, "order");
            return this;
        }

        /**
         * Promises that every ID is at most 2^53 - 1, the largest integer a JavaScript {@code Number}
         * (and so a JSON number read in a browser) holds exactly; {@link #build()} refuses a layout
         * of more than 53 bits.
         *
         * @return this builder
         */
        public Builder javaScriptSafe() {
            this.javaScriptSafe = true;
            return this;
        }

        /**
         * Checks the layout and makes it.
         *
         * @return the layout
         * @throws IllegalArgumentException naming the value and what is allowed, if a value is
         *     missing or out of range, or the values do not fit together
         */
        public SnowflakeLayout build() {
            if (epoch == null) {
                throw fail("no epoch given; call epoch(Instant), an instant from 1970-01-01T00:00:00Z on");
            }
            if (timestampBits < 0) {
                throw fail("no timestamp bits given; call timestampBits(1..62)");
            }
            if (sequenceBits < 0) {
                throw fail("no sequence bits given; call sequenceBits(1..31)");
            }
            int partBits = machineParts.stream().mapToInt(Part::bits).sum();
            if (machineBits < 0 && machineParts.isEmpty()) {
                throw fail("no machine bits given; call machineBits(0 or more) or machine(name, bits)");
            }
            if (machineBits >= 0 && !machineParts.isEmpty() && machineBits != partBits) {
                throw fail("machine bits " + machineBits + " but the named parts add up to " + partBits
                        + "; give one or the other");
            }
            // the builder stays as the caller left it: the defaults are worked out here, not stored
            int machine = machineParts.isEmpty() ? machineBits : partBits;
            List<Part> parts = !machineParts.isEmpty() || machine == 0 ? machineParts
                    : List.of(new Part("machine", machine));
            if (timestampBits < 1 || timestampBits > 62) {
                throw fail("timestamp bits " + timestampBits + " out of range; allowed 1 to 62");
            }
            if (machine > 61) {
                throw fail("machine bits " + machine + " out of range; allowed 0 to 61");
            }
            if (sequenceBits < 1 || sequenceBits > 31) {
                throw fail("sequence bits " + sequenceBits + " out of range; allowed 1 to 31");
            }
            int total = timestampBits + machine + sequenceBits;
            if (total > SIGNED_BITS + 1) {
                throw fail("timestamp " + timestampBits + " + machine " + machine + " + sequence "
                        + sequenceBits + " = " + total + " bits; allowed at most 63 (below the sign bit),"
                        + " or 64 (the sign bit then being the timestamp's top bit)");
            }
            if (fieldOrder == FieldOrder.MACHINE_TIME_SEQUENCE && machine == 0) {
                throw fail("field order MACHINE_TIME_SEQUENCE with 0 machine bits; allowed in this order: 1 or"
                        + " more machine bits (with none, TIME_MACHINE_SEQUENCE makes the same IDs)");
            }
            if (fieldOrder == FieldOrder.MACHINE_TIME_SEQUENCE && total > SIGNED_BITS) {
                throw fail("field order MACHINE_TIME_SEQUENCE with timestamp " + timestampBits + " + machine "
                        + machine + " + sequence " + sequenceBits + " = " + total + " bits would make the sign"
                        + " bit a machine bit; allowed in this order: at most 63 bits (only a timestamp may"
                        + " take the sign bit, in a time-first order)");
            }
            if (javaScriptSafe && total > JAVASCRIPT_SAFE_BITS) {
                throw fail("timestamp " + timestampBits + " + machine " + machine + " + sequence "
                        + sequenceBits + " = " + total + " bits, so IDs reach " + ((total > SIGNED_BITS)
                        ? Long.MAX_VALUE : (1L << total) - 1) + "; a JavaScript-safe layout has at most 53"
                        + " bits (every ID at most 9007199254740991 = 2^53 - 1)");
            }
            // the range first: Duration.toNanos() and toMillis() overflow past 2^63 - 1 of their unit
            if (tick.isNegative() || tick.isZero() || tick.getSeconds() > MAX_TICK_SECONDS) {
                throw fail("tick " + tick + " is out of range; allowed: a whole number of milliseconds from 1 ms to "
                        + MAX_TICK_SECONDS + " s");
            }
            if (tick.getNano() % 1_000_000 != 0) {
                throw fail("tick " + tick + " is not allowed; a tick is a whole number of milliseconds, 1 ms or more");
            }
            if (epoch.getNano() % 1_000_000 != 0) {
                throw fail("epoch " + epoch + " has a sub-millisecond part (" + epoch.getNano() % 1_000_000
                        + " ns); allowed: a whole Unix millisecond, such as " + Instant.ofEpochMilli(epoch.toEpochMilli()));
            }
            long tickMillis = tick.toMillis();
            long epochMillis;
            try {
                epochMillis = epoch.toEpochMilli();
                Math.addExact(epochMillis, Math.multiplyExact(1L << timestampBits, tickMillis));
            } catch (ArithmeticException e) {
                throw fail(timestampBits + " timestamp bits of " + tickMillis + " ms from " + epoch
                        + " reach past the last Unix millisecond a long can hold; use fewer bits or a longer tick");
            }
            if (epochMillis < 0) {
                throw fail("epoch " + epoch + " is before 1970-01-01T00:00:00Z; allowed: the Unix epoch or later");
            }
            return new SnowflakeLayout(this, machine, parts);
        }

        private IllegalArgumentException fail(String problem) {
            return new IllegalArgumentException("layout " + name + ": " + problem);
        }
    }
}
