package dev.idgen.index.model;

import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Where the keys of an index run come from, and the column that stores them. {@link #feeder}
 * makes the seeded key stream that {@link IndexScoreboard} (and anything else that wants the same
 * numbers) inserts.
 */
public enum KeySource {
    /** 1, 2, 3, ...: a database's own counter, the append-only baseline. */
    AUTO_INCREMENT("auto-increment", KeyType.BIGINT),
    /** Twitter-layout Snowflake IDs from real generators on machine ids 1 to the writer count. */
    SNOWFLAKE("Snowflake", KeyType.BIGINT),
    /** UUIDv7 as {@code BINARY(16)}. */
    UUID_V7("UUIDv7", KeyType.BINARY16),
    /** UUIDv4 as {@code BINARY(16)}. */
    UUID_V4("UUIDv4", KeyType.BINARY16),
    /** UUIDv4 as {@code CHAR(36)} text. */
    UUID_V4_TEXT("UUIDv4 as text", KeyType.CHAR36);

    /** Simulated time starts here in every stream: 2026-01-01T00:00:00Z. */
    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final String label;
    private final KeyType keyType;

    KeySource(String label, KeyType keyType) {
        this.label = label;
        this.keyType = keyType;
    }

    /** {@return a short name for tables, such as {@code "UUIDv7"}} */
    public String label() {
        return label;
    }

    /** {@return the column that stores these keys} */
    public KeyType keyType() {
        return keyType;
    }

    /**
     * A seeded stream of this source's keys, as {@link IdStreams} makes them: {@code writers}
     * writers whose clocks agree, {@code rowsPerMilli} rows per millisecond of simulated time from
     * {@link #START}, each row from a writer picked at random. Each call of the returned consumer
     * inserts the next key into the model it is given (which must be on {@link #keyType()} keys).
     *
     * @param seed the stream's seed
     * @param writers writers making keys at once, 1 to 1023
     * @param rowsPerMilli rows per millisecond, 1 to 4096
     * @return the feeder; not thread-safe
     * @throws IllegalArgumentException if a count is out of range
     */
    public Consumer<IndexModel> feeder(long seed, int writers, int rowsPerMilli) {
        if (writers < 1 || writers > 1023 || rowsPerMilli < 1 || rowsPerMilli > 4096) {
            throw new IllegalArgumentException(writers + " writers at " + rowsPerMilli
                    + " rows per ms is out of range; allowed 1..1023 writers and 1..4096 rows per ms");
        }
        SplittableRandom random = new SplittableRandom(seed);
        switch (this) {
            case AUTO_INCREMENT -> {
                long[] next = {1};
                return model -> model.insert(next[0]++);
            }
            case SNOWFLAKE -> {
                long[] machines = new long[writers];
                for (int g = 0; g < writers; g++) {
                    machines[g] = g + 1;
                }
                LongSupplier ids = IdStreams.snowflake(random, SnowflakeLayout.TWITTER, machines, START, rowsPerMilli, 0);
                return model -> model.insert(ids.getAsLong());
            }
            case UUID_V7 -> {
                Supplier<UUID> ids = IdStreams.uuidV7(random, writers, START, rowsPerMilli, 0);
                return model -> model.insert(ids.get());
            }
            default -> {
                Supplier<UUID> ids = IdStreams.uuidV4(random);
                return model -> model.insert(ids.get());
            }
        }
    }
}
