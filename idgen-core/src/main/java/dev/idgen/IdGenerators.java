package dev.idgen;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.ulid.UlidGenerator;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;

/**
 * The front door: generators with the defaults most services want.
 *
 * <p>Each call makes a new, independent generator. Keep one per process (per machine id, for
 * Snowflake) and share it between threads: all generators here are thread-safe. A second Snowflake
 * generator on a machine id whose first generator is still reachable is refused (both would make
 * the same IDs); see {@link SnowflakeGenerator.Builder#build()}.
 */
public final class IdGenerators {

    private IdGenerators() {
    }

    /**
     * A Snowflake generator with Twitter's layout (41-bit milliseconds since 2010-11-04T01:42:54.657Z,
     * 10-bit machine id, 12-bit sequence), the system clock and the default clock-backwards policy
     * ({@link dev.idgen.clock.ClockBackwardsPolicy#defaultPolicy()}).
     *
     * @param machineId this generator's machine id, 0 to 1023, unique among all generators that
     *     write to the same ID space
     * @return a new generator
     * @throws IllegalArgumentException if {@code machineId} is outside 0..1023, or a generator from
     *     an earlier call with the same machine id (and Twitter's layout) is still reachable
     */
    public static SnowflakeGenerator snowflake(long machineId) {
        return SnowflakeGenerator.builder().machineId(machineId).build();
    }

    /**
     * A monotonic UUIDv7 generator (RFC 9562): the system clock, {@link dev.idgen.random.RandomSource#secure()}
     * randomness, and {@code runAhead(10 s)} for counter rollovers and clock step backs (see
     * {@link UuidV7Generator}).
     *
     * @return a new generator
     */
    public static UuidV7Generator uuidV7() {
        return UuidV7Generator.builder().build();
    }

    /**
     * A UUIDv4 generator (RFC 9562): 122 bits from {@link dev.idgen.random.RandomSource#secure()}.
     *
     * @return a new generator
     */
    public static UuidV4Generator uuidV4() {
        return UuidV4Generator.builder().build();
    }

    /**
     * A monotonic ULID generator: the system clock, {@link dev.idgen.random.RandomSource#secure()}
     * randomness, and {@code runAhead(10 s)} for counter rollovers and clock step backs (see
     * {@link UlidGenerator}). Write its ULIDs as text with {@link dev.idgen.ulid.Ulids#toString(java.util.UUID)}.
     *
     * @return a new generator
     */
    public static UlidGenerator ulid() {
        return UlidGenerator.builder().build();
    }
}
