package dev.idgen.index.engine;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.index.model.KeyType;
import dev.idgen.random.RandomSource;
import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The keys a real run inserts. The first five are what services use (real idgen generators, one
 * per writer, on the system clock); the rest are layouts for many writers. The two Snowflake field
 * orders among them are core's generators too, on Twitter's widths in another
 * {@link SnowflakeLayout.FieldOrder} (so a run measures the code that ships); the sub-millisecond
 * UUIDv7 and the blocks are made by arithmetic on the same clock; the segment ids come from core's
 * {@link SegmentGenerator}, one per writer over one shared counter.
 */
public enum RealKey {
    /** The engine's own counter (AUTO_INCREMENT, identity; SQLite: a counter taken under its write lock). */
    AUTO_INCREMENT("autoinc", "auto-increment", KeyType.BIGINT),
    /** Twitter-layout Snowflake: time, machine (writer 1..n), sequence. */
    SNOWFLAKE("snowflake", "Snowflake", KeyType.BIGINT),
    /** Monotonic UUIDv7 (RFC 9562 method 1 counter), as 16 bytes. */
    UUID_V7("uuid7", "UUIDv7", KeyType.BINARY16),
    /** UUIDv4, as 16 bytes. */
    UUID_V4("uuid4", "UUIDv4", KeyType.BINARY16),
    /** UUIDv4 as 36 characters of text. */
    UUID_V4_TEXT("uuid4-text", "UUIDv4 as text", KeyType.CHAR36),
    /**
     * Snowflake with the sequence above the machine id (Sonyflake's field order): time, sequence,
     * machine; Twitter's widths in {@link SnowflakeLayout.FieldOrder#TIME_SEQUENCE_MACHINE}.
     */
    SNOWFLAKE_SEQ_MACHINE("snowflake-seq-first", "Snowflake, sequence above machine", KeyType.BIGINT),
    /**
     * The machine id above the time: machine, time, sequence; one append point per writer. Twitter's
     * widths in {@link SnowflakeLayout.FieldOrder#MACHINE_TIME_SEQUENCE}.
     */
    SNOWFLAKE_MACHINE_FIRST("snowflake-machine-first", "Snowflake, machine above time", KeyType.BIGINT),
    /**
     * UUIDv7 with the sub-millisecond fraction in {@code rand_a} (RFC 9562 section 6.2 method 3:
     * floor(fraction * 4096)), kept increasing per writer; {@code rand_b} random.
     */
    UUID_V7_SUBMILLI("uuid7-submilli", "UUIDv7, sub-ms fraction", KeyType.BINARY16),
    /** Blocks of 1,000 counter values per writer (hi/lo), handed out by one shared counter. */
    BLOCKS("blocks", "blocks of 1000 per writer", KeyType.BIGINT),
    /**
     * Segment ids: one {@link SegmentGenerator} per writer (as one per service instance), all over
     * one store counter, ranges of 100 numbers. Each writer counts up inside its own range: W writers
     * are W append points, each moving on to a fresh range at the right end once its range is spent.
     */
    SEGMENT_100("segment-100", "segment ids, step 100", KeyType.BIGINT),
    /** Segment ids, ranges of 1,000 numbers (the generator's default step). */
    SEGMENT_1000("segment-1000", "segment ids, step 1,000", KeyType.BIGINT),
    /** Segment ids, ranges of 10,000 numbers. */
    SEGMENT_10000("segment-10000", "segment ids, step 10,000", KeyType.BIGINT),
    /** Segment ids, ranges of 100,000 numbers. */
    SEGMENT_100000("segment-100000", "segment ids, step 100,000", KeyType.BIGINT);

    /** Ids a writer takes at once from the shared counter of {@link #BLOCKS}. */
    public static final int BLOCK_SIZE = 1000;

    /** The keys real services use; the default of {@code --keys}. */
    public static final String DEFAULT_NAMES = "autoinc,snowflake,uuid7,uuid4,uuid4-text";

    private final String cliName;
    private final String label;
    private final KeyType keyType;

    RealKey(String cliName, String label, KeyType keyType) {
        this.cliName = cliName;
        this.label = label;
        this.keyType = keyType;
    }

    /** @return the name on the command line */
    public String cliName() {
        return cliName;
    }

    /** @return a short label for tables */
    public String label() {
        return label;
    }

    /** @return the column the keys go into */
    public KeyType keyType() {
        return keyType;
    }

    /** {@return the numbers a segment key's writer takes from the store at once, 0 for a key that is no segment id} */
    public long segmentStep() {
        return switch (this) {
            case SEGMENT_100 -> 100;
            case SEGMENT_1000 -> 1_000;
            case SEGMENT_10000 -> 10_000;
            case SEGMENT_100000 -> 100_000;
            default -> 0;
        };
    }

    /** @return every name, for messages */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (RealKey k : values()) {
            b.append(b.length() == 0 ? "" : ", ").append(k.cliName);
        }
        return b.toString();
    }

    /**
     * @param name a {@link #cliName()}, any case
     * @return the key
     * @throws IllegalArgumentException if unknown
     */
    public static RealKey parse(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (RealKey k : values()) {
            if (k.cliName.equals(n)) {
                return k;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a key kind; expected one of " + names());
    }

    /**
     * One writer's key maker.
     *
     * @param writer the writer, 0 to writers - 1 (its machine id is writer + 1)
     * @param clock the clock
     * @param shared state the writers of one run share (the block counter)
     * @param seed the seed of this writer's random bits (UUIDv4 and the arithmetic layouts)
     * @return the maker; not thread-safe
     */
    Maker maker(int writer, InstantSource clock, AtomicLong shared, long seed) {
        return switch (this) {
            case AUTO_INCREMENT -> new Maker() {
                @Override
                void next(long[] key) {
                    key[0] = shared.incrementAndGet();
                }
            };
            case SNOWFLAKE, SNOWFLAKE_SEQ_MACHINE, SNOWFLAKE_MACHINE_FIRST -> snowflake(writer, clock);
            case UUID_V7 -> uuid(UuidV7Generator.builder().clock(clock).build()::next);
            // seeded like the other random layouts, so a run (and the model beside it) can be repeated
            case UUID_V4, UUID_V4_TEXT -> uuid(UuidV4Generator.builder().randomness(RandomSource.seeded(seed)).build()::next);
            case UUID_V7_SUBMILLI -> subMilli(clock, seed);
            case SEGMENT_100, SEGMENT_1000, SEGMENT_10000, SEGMENT_100000 -> segment(clock, shared, segmentStep());
            case BLOCKS -> new Maker() {
                private long next;
                private long end;

                @Override
                void next(long[] key) {
                    if (next == end) {
                        end = shared.addAndGet(BLOCK_SIZE) + 1;
                        next = end - BLOCK_SIZE;
                    }
                    key[0] = next++;
                }
            };
        };
    }

    /**
     * The layout a Snowflake key is made with: Twitter's, or Twitter's widths in another order.
     *
     * @return the layout, or null for a key that is no Snowflake
     */
    SnowflakeLayout snowflakeLayout() {
        return switch (this) {
            case SNOWFLAKE -> SnowflakeLayout.TWITTER;
            case SNOWFLAKE_SEQ_MACHINE -> SEQUENCE_FIRST;
            case SNOWFLAKE_MACHINE_FIRST -> MACHINE_FIRST;
            default -> null;
        };
    }

    /** Twitter's widths, 41 | 12 | 10: time, sequence, machine. */
    private static final SnowflakeLayout SEQUENCE_FIRST =
            SnowflakeLayout.TWITTER.withFieldOrder(SnowflakeLayout.FieldOrder.TIME_SEQUENCE_MACHINE);

    /** Twitter's widths, 10 | 41 | 12: machine, time, sequence. */
    private static final SnowflakeLayout MACHINE_FIRST =
            SnowflakeLayout.TWITTER.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE);

    private Maker snowflake(int writer, InstantSource clock) {
        // a simulated index: its writers' generators are not the process's own, so not registered
        SnowflakeGenerator gen = SnowflakeGenerator.builder().layout(snowflakeLayout()).machineId(writer + 1L)
                .clock(clock).onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofSeconds(1)))
                .skipMachineIdRegistry().build();
        return new Maker() {
            @Override
            void next(long[] key) {
                key[0] = gen.nextLong();
            }
        };
    }

    /**
     * The shipped generator, fetching on the writer's own thread with no prefetch (so a run starts
     * no threads and takes no range it does not count in): each range is taken when the last one is
     * spent. With prefetch a writer takes its next ranges earlier; it still counts in one range at a
     * time, so the index still sees one append point per writer.
     */
    private static Maker segment(InstantSource clock, AtomicLong shared, long step) {
        SegmentSource store = (name, n) -> {
            long last = shared.addAndGet(n); // the store's atomic increment
            return new SegmentGrant(last - n + 1, last, clock.instant());
        };
        SegmentGenerator g = SegmentGenerator.builder().source(store).name("index").step(step).prefetch(0, 0)
                .executor(Runnable::run).clock(clock).build();
        return new Maker() {
            @Override
            void next(long[] key) {
                key[0] = g.nextLong();
            }
        };
    }

    private static Maker uuid(java.util.function.Supplier<UUID> ids) {
        return new Maker() {
            @Override
            void next(long[] key) {
                UUID u = ids.get();
                key[0] = u.getMostSignificantBits();
                key[1] = u.getLeastSignificantBits();
            }
        };
    }

    /** Method 3: 48 bits of ms, version, 12 bits of sub-ms fraction, variant, 62 random bits. */
    private static Maker subMilli(InstantSource clock, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return new Maker() {
            private long last = -1; // ms << 12 | fraction of the last key

            @Override
            void next(long[] key) {
                Instant now = clock.instant();
                long fraction = (now.getNano() % 1_000_000L) * 4096 / 1_000_000L;
                long stamp = Math.max(now.toEpochMilli() << 12 | fraction, last + 1); // increasing per writer
                last = stamp;
                key[0] = (stamp >>> 12) << 16 | 0x7000L | (stamp & 0xFFF);
                key[1] = 0x8000_0000_0000_0000L | (random.nextLong() >>> 2);
            }
        };
    }

    /** Makes one writer's keys into a two-word array (the second word only for 128-bit keys). */
    abstract static class Maker {
        abstract void next(long[] key);
    }
}
