package dev.idgen.index.model;

import dev.idgen.random.RandomSource;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Seeded streams of IDs in the order they were made: what a table receives from several services
 * writing at once. The IDs come from core's real generators, given a simulated clock (rows arrive
 * at a fixed number per millisecond; the system clock is never read) and seeded randomness
 * ({@link RandomSource#seeded(long)}), so a stream is the same on every run with the same seed.
 *
 * <p>Rows come from {@code generators} generators; each row picks one at random. Generator
 * {@code g}'s clock runs a fixed offset ahead of the shared time, drawn once from
 * {@code 0..maxSkewMillis}: clocks that disagree by up to that much, so the stream is
 * k-sorted with k = {@code maxSkewMillis}.
 */
public final class IdStreams {

    private IdStreams() {
    }

    /**
     * Snowflake IDs from real {@link SnowflakeGenerator}s, one per machine id.
     *
     * @param random the source (generator choice, clock offsets)
     * @param layout the layout
     * @param machineIds one distinct machine id per generator
     * @param start the shared time of the first row
     * @param idsPerMilli rows per millisecond of shared time, 1 or more, no more than one generator's
     *     sequence holds per tick (so no generator ever waits)
     * @param maxSkewMillis the largest clock offset, 0 or more
     * @return the stream; each call makes the next ID
     * @throws IllegalArgumentException if a parameter is out of range
     */
    public static LongSupplier snowflake(SplittableRandom random, SnowflakeLayout layout, long[] machineIds,
            Instant start, int idsPerMilli, long maxSkewMillis) {
        Objects.requireNonNull(layout, "layout");
        long perTick = layout.maxSequence() + 1;
        if (idsPerMilli < 1 || (long) idsPerMilli * layout.tickMillis() > perTick) {
            throw new IllegalArgumentException(idsPerMilli + " ids per ms is out of range for layout " + layout.name()
                    + "; allowed 1.." + perTick / layout.tickMillis() + " (one generator's sequence per tick)");
        }
        SimulatedTime time = new SimulatedTime(random, machineIds.length, start, idsPerMilli, maxSkewMillis);
        SnowflakeGenerator[] gens = new SnowflakeGenerator[machineIds.length];
        for (int g = 0; g < gens.length; g++) {
            // a simulated fleet (ids may repeat on purpose): not the process's own generators
            gens[g] = SnowflakeGenerator.builder().layout(layout).machineId(machineIds[g])
                    .clock(time.clockOf(g)).onClockBackwards(ClockBackwardsPolicy.refuse())
                    .skipMachineIdRegistry().build();
        }
        return () -> gens[time.nextRow()].nextLong();
    }

    /**
     * UUIDv7s from real {@link UuidV7Generator}s (monotonic, the default), one per writer, on the
     * same simulated time. Each generator's UUIDs increase; within one millisecond the UUIDs of
     * different generators come in random order.
     *
     * @param random the source (generator choice, clock offsets, each generator's seed)
     * @param generators how many generators, 1 or more
     * @param start the shared time of the first row
     * @param idsPerMilli rows per millisecond of shared time, 1 or more
     * @param maxSkewMillis the largest clock offset, 0 or more
     * @return the stream
     * @throws IllegalArgumentException if a parameter is out of range
     */
    public static Supplier<UUID> uuidV7(SplittableRandom random, int generators, Instant start, int idsPerMilli,
            long maxSkewMillis) {
        SimulatedTime time = new SimulatedTime(random, generators, start, idsPerMilli, maxSkewMillis);
        UuidV7Generator[] gens = new UuidV7Generator[generators];
        for (int g = 0; g < generators; g++) {
            gens[g] = UuidV7Generator.builder().clock(time.clockOf(g))
                    .randomness(RandomSource.seeded(random.nextLong())).build();
        }
        return () -> gens[time.nextRow()].next();
    }

    /**
     * UUIDv4s from a real {@link UuidV4Generator} with seeded randomness.
     *
     * @param random the source of the generator's seed
     * @return the stream
     */
    public static Supplier<UUID> uuidV4(SplittableRandom random) {
        Objects.requireNonNull(random, "random");
        UuidV4Generator ids = UuidV4Generator.builder().randomness(RandomSource.seeded(random.nextLong())).build();
        return ids::next;
    }

    /** The shared time and each generator's offset; advances one millisecond every {@code idsPerMilli} rows. */
    private static final class SimulatedTime {
        private final SplittableRandom random;
        private final long[] offsets;
        private final int idsPerMilli;
        private long millis;
        private long rowInMilli;

        SimulatedTime(SplittableRandom random, int generators, Instant start, int idsPerMilli, long maxSkewMillis) {
            this.random = Objects.requireNonNull(random, "random");
            if (generators < 1 || idsPerMilli < 1 || maxSkewMillis < 0) {
                throw new IllegalArgumentException(generators + " generators, " + idsPerMilli + " ids per ms, skew up to "
                        + maxSkewMillis + " ms: allowed 1 or more generators and ids per ms, skew 0 or more");
            }
            this.offsets = new long[generators];
            for (int g = 0; g < generators; g++) {
                offsets[g] = maxSkewMillis == 0 ? 0 : random.nextLong(maxSkewMillis + 1);
            }
            this.idsPerMilli = idsPerMilli;
            this.millis = start.toEpochMilli();
        }

        /** Moves time on if this millisecond is full, then picks the generator of the next row. */
        int nextRow() {
            if (rowInMilli == idsPerMilli) {
                millis++;
                rowInMilli = 0;
            }
            rowInMilli++;
            return offsets.length == 1 ? 0 : random.nextInt(offsets.length);
        }

        long millisOf(int generator) {
            return millis + offsets[generator];
        }

        InstantSource clockOf(int generator) {
            return () -> Instant.ofEpochMilli(millisOf(generator));
        }
    }
}
