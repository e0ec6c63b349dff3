package dev.idgen.testkit.gen;

import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Seeded Snowflake layouts and machine ids. Every value is valid; the edges (one sequence bit, no
 * machine bits, the largest machine id) come up more often than uniform draws would give them.
 */
public final class Layouts {

    /** Epochs are drawn from 2000-01-01 to 2030-01-01. */
    private static final long EARLIEST_EPOCH = Instant.parse("2000-01-01T00:00:00Z").toEpochMilli();
    private static final long LATEST_EPOCH = Instant.parse("2030-01-01T00:00:00Z").toEpochMilli();
    private static final long[] TICKS = {1, 1, 1, 2, 10};

    private Layouts() {
    }

    /**
     * One of the presets ({@link SnowflakeLayout#presets()}).
     *
     * @param random the source
     * @return a preset
     */
    public static SnowflakeLayout preset(SplittableRandom random) {
        List<SnowflakeLayout> presets = SnowflakeLayout.presets();
        return presets.get(random.nextInt(presets.size()));
    }

    /**
     * A valid layout: 20 to 50 timestamp bits, 1 to 22 sequence bits, the rest of 63 bits (or, one
     * time in eight, of all 64, as Discord's) machine bits, a tick of 1, 2 or 10 ms, an epoch from
     * 2000 to 2030, any of the three field orders (machine-first only where it is allowed: 63 bits
     * and at least one machine bit); a preset one time in four.
     *
     * @param random the source
     * @return a layout
     */
    public static SnowflakeLayout any(SplittableRandom random) {
        Objects.requireNonNull(random, "random");
        if (random.nextInt(4) == 0) {
            return preset(random);
        }
        int totalBits = random.nextInt(8) == 0 ? 64 : 63; // 64: the sign bit is the timestamp's top bit
        int timestampBits = random.nextInt(20, 51);
        int sequenceBits = random.nextInt(5) == 0 ? 1 : random.nextInt(1, Math.min(22, totalBits - timestampBits) + 1);
        int machineBits = totalBits - timestampBits - sequenceBits;
        long epoch = random.nextLong(EARLIEST_EPOCH, LATEST_EPOCH);
        long tick = TICKS[random.nextInt(TICKS.length)];
        SnowflakeLayout.FieldOrder order = SnowflakeLayout.FieldOrder.values()[random.nextInt(3)];
        if (order == SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE && (totalBits == 64 || machineBits == 0)) {
            order = SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE;   // machine-first: at most 63 bits, a machine bit
        }
        return SnowflakeLayout.custom("seeded-" + timestampBits + "-" + machineBits + "-" + sequenceBits)
                .epoch(Instant.ofEpochMilli(epoch)).tick(Duration.ofMillis(tick))
                .timestampBits(timestampBits).machineBits(machineBits).sequenceBits(sequenceBits)
                .fieldOrder(order).build();
    }

    /**
     * A machine id the layout allows: 0 or the largest one time in eight each, else uniform.
     *
     * @param random the source
     * @param layout the layout
     * @return 0 to {@code layout.maxMachineId()}
     */
    public static long machineId(SplittableRandom random, SnowflakeLayout layout) {
        long max = layout.maxMachineId();
        int edge = random.nextInt(8);
        if (edge == 0 || max == 0) {
            return 0;
        }
        if (edge == 1) {
            return max;
        }
        return random.nextLong(max + 1);
    }

    /**
     * Distinct machine ids the layout allows, in increasing order.
     *
     * @param random the source
     * @param layout the layout
     * @param count how many, 1 to {@code layout.maxMachineId() + 1} (and at most 65,536)
     * @return {@code count} distinct ids
     * @throws IllegalArgumentException if the layout has fewer machine ids
     */
    public static long[] machineIds(SplittableRandom random, SnowflakeLayout layout, int count) {
        long available = layout.maxMachineId() + 1;
        if (count < 1 || count > 65_536 || count > available) {
            throw new IllegalArgumentException(count + " distinct machine ids asked of layout " + layout.name()
                    + ", which has " + available + "; allowed 1.." + Math.min(available, 65_536));
        }
        TreeSet<Long> ids = new TreeSet<>();
        while (ids.size() < count) {
            ids.add(ids.isEmpty() ? machineId(random, layout) : random.nextLong(available));
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * An instant the layout can encode, where a test clock can start: between its epoch and 30 days
     * later, and in the first half of its range, so at least half of it is still ahead.
     *
     * @param random the source
     * @param layout the layout
     * @return an instant within the layout
     */
    public static Instant startInstant(SplittableRandom random, SnowflakeLayout layout) {
        long epoch = layout.epoch().toEpochMilli();
        long last = layout.lastInstant().toEpochMilli();
        long span = Math.min((last - epoch) / 2, Duration.ofDays(30).toMillis());
        return Instant.ofEpochMilli(epoch + random.nextLong(span + 1));
    }
}
