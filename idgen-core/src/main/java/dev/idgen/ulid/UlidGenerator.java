package dev.idgen.ulid;

import dev.idgen.IdGenerator;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockStats;
import dev.idgen.random.RandomSource;
import dev.idgen.sequence.CounterStart;
import dev.idgen.sequence.TickSequence;
import dev.idgen.sequence.TickSpace;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Makes monotonic ULIDs (https://github.com/ulid/spec), held as {@link UUID} values as
 * {@link Ulids} reads and writes them: 48 bits of Unix milliseconds, then 80 bits that the
 * specification calls random.
 *
 * <pre>
 *  bits 127..80   unix milliseconds (48)
 *  bits  79..64   counter (16): the specification's "increment within a millisecond"
 *  bits  63..0    random (64), fresh for every ULID
 * </pre>
 *
 * <h2>Monotonic, on the shared tick sequence</h2>
 * The specification's monotonic mode increments the whole 80-bit random part within a millisecond.
 * This generator increments only the top 16 of those bits, as a counter, and draws the other 64
 * fresh for every ULID, so a ULID does not give away the next one. The (millisecond, counter) pair
 * is kept in one packed {@code long} advanced by one CAS, the mechanism behind the Snowflake and
 * UUIDv7 generators: across all threads the ULIDs of one generator are unique and strictly increase
 * in the order the calls return, in unsigned byte order, as text and in {@link UUID#compareTo}
 * (the first bit stays 0 until year 6429).
 *
 * <p><b>Why 16 bits of counter:</b> it is the counter of {@link dev.idgen.uuid.UuidV7Generator}, so
 * both generators have the same capacity and the same range, and it fills exactly the rest of the
 * first 64 bits, so the second 64 bits are one random {@code long}. A new millisecond's counter
 * starts at a random value below 2^15 (its top bit 0, the headroom RFC 9562 §6.2 suggests against
 * rollover), so each millisecond has room for at least 32,769 ULIDs.
 * <ul>
 *   <li><b>Counter rollover</b> (65,535 within one millisecond): where the specification throws,
 *       this generator takes the next millisecond, ahead of the clock, within the policy's
 *       run-ahead bound (by default); under {@link ClockBackwardsPolicy#refuse()} or
 *       {@link ClockBackwardsPolicy#waitUpTo(Duration)} it spins until the clock reaches it.</li>
 *   <li><b>Clock step back:</b> as the policy says; by default ({@code runAhead(10 s)}) it carries
 *       on from the last millisecond used, so the time in a ULID never goes back; further behind
 *       than the bound it throws {@link ClockMovedBackwardsException} and makes no ULID.</li>
 *   <li><b>Range:</b> the clock must read 1970-01-01T00:00:00Z to {@link #LAST_INSTANT}; the
 *       builder refuses a clock outside it.</li>
 * </ul>
 *
 * <p>A ULID and a UUIDv7 of the same millisecond start with the same 48 bits, so a mix of the two
 * sorts by time, as bytes and as {@link dev.idgen.uuid.Uuids#unsignedOrder()}.
 *
 * <pre>{@code
 * UlidGenerator ids = UlidGenerator.builder()
 *         .clock(InstantSource.system())                               // the default
 *         .randomness(RandomSource.secure())                           // the default
 *         .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(10)))  // the default
 *         .build();
 * String ulid = Ulids.toString(ids.next());
 * }</pre>
 */
public final class UlidGenerator implements IdGenerator<UUID> {

    /** The default run-ahead bound: 10 s. */
    public static final Duration DEFAULT_RUN_AHEAD = Duration.ofSeconds(10);

    /** Bits of counter, the top of the specification's 80 random bits. */
    public static final int COUNTER_BITS = 16;

    /** The last instant the generator can encode: 2^47 - 1 ms after the Unix epoch (year 6429). */
    public static final Instant LAST_INSTANT = Instant.ofEpochMilli((1L << (63 - COUNTER_BITS)) - 1);

    /** Random values drawn at once by {@link #fill(UUID[])}. */
    private static final int BULK_RANDOM_RUN = 64;

    private final RandomSource random;
    private final ClockBackwardsPolicy policy;
    private final TickSequence sequence;

    private UlidGenerator(Builder b) {
        this.random = b.random;
        this.policy = b.policy;
        // tick = Unix ms, counter below it; a new ms starts its counter under 2^15, from the source
        this.sequence = TickSequence.builder(new TickSpace(0L, 1L, LAST_INSTANT.toEpochMilli(), COUNTER_BITS), b.clock)
                .counterStart(CounterStart.randomBelow(1L << (COUNTER_BITS - 1), random::nextLong))
                .policy(policy)
                .waitTimer(b.waitTimer)
                .logAs(UlidGenerator.class)
                .build();
    }

    /**
     * A builder with the system clock, {@link RandomSource#secure()} and {@code runAhead(10 s)}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Makes the next ULID.
     *
     * @return a new ULID, greater than every ULID this generator returned before
     * @throws ClockMovedBackwardsException if the clock is further behind the last millisecond used
     *     than the policy allows
     * @throws IllegalStateException if the clock reads a time outside the range, a wait for the
     *     clock reached its bound, or the thread is interrupted while waiting for the clock
     */
    @Override
    public UUID next() {
        long pair = sequence.next();
        // the pair is (ms << 16 | counter): exactly the first 64 bits of the ULID
        return new UUID(pair, random.nextLong());
    }

    /**
     * Fills {@code out} with new ULIDs, for a batch insert: ULIDs as {@link #next()} makes them, with
     * the same promises, but the (millisecond, counter) pairs are taken a block at a time, with one
     * clock read and one CAS per block (a block holds what is left of the millisecond's counter; the
     * next block starts in a later millisecond, as {@code next()} reaches it on a rollover). So
     * {@code out} is strictly increasing, and blocks taken by other threads never overlap it.
     *
     * @param out the array to fill; an empty array is left alone, without reading the clock
     * @throws ClockMovedBackwardsException as {@link #next()}; the array's content is then unspecified
     * @throws IllegalStateException as {@link #next()}
     */
    public void fill(UUID[] out) {
        Objects.requireNonNull(out, "out");
        long[] randomBits = new long[Math.min(out.length, BULK_RANDOM_RUN)];
        int i = 0;
        while (i < out.length) {
            int wanted = out.length - i;
            long pair = sequence.nextBlock(wanted);
            for (int end = i + sequence.blockSize(pair, wanted); i < end;) {
                int run = Math.min(end - i, randomBits.length);
                random.nextLongs(randomBits, 0, run);
                for (int r = 0; r < run; r++, i++, pair++) {
                    out[i] = new UUID(pair, randomBits[r]);
                }
            }
        }
    }

    /** {@return the clock-backwards policy} */
    public ClockBackwardsPolicy policy() {
        return policy;
    }

    /** {@return the source of the random bits} */
    public RandomSource randomness() {
        return random;
    }

    /**
     * What the clock has done to this generator since it was built: steps back, waits, refusals,
     * run-aheads. Counted only off the fast path; see {@link ClockStats}.
     *
     * @return a snapshot
     */
    public ClockStats clockStats() {
        return sequence.clockStats();
    }

    @Override
    public String toString() {
        return "UlidGenerator[policy=" + policy + ", " + random + "]";
    }

    /** Configures a {@link UlidGenerator}. Not thread-safe; each {@link #build()} is independent. */
    public static final class Builder {
        private InstantSource clock = InstantSource.system();
        private RandomSource random = RandomSource.secure();
        private ClockBackwardsPolicy policy = ClockBackwardsPolicy.runAhead(DEFAULT_RUN_AHEAD);
        private LongSupplier waitTimer = System::nanoTime;

        private Builder() {
        }

        /**
         * @param clock the only source of time; default {@link InstantSource#system()}
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param random where the 64 random bits (and each millisecond's first counter) come from;
         *     default {@link RandomSource#secure()}
         * @return this builder
         */
        public Builder randomness(RandomSource random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * What the generator does when the clock steps back, and whether it may run ahead of the
         * clock on a counter rollover; see the class documentation.
         *
         * @param policy the policy; default {@code runAhead(10 s)}
         * @return this builder
         */
        public Builder onClockBackwards(ClockBackwardsPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** For tests: the monotonic time source that bounds waits (never ULID time). */
        Builder waitTimer(LongSupplier nanoTime) {
            this.waitTimer = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /**
         * @return a new generator
         * @throws IllegalArgumentException if the clock reads a time the generator cannot encode
         */
        public UlidGenerator build() {
            UlidGenerator generator = new UlidGenerator(this);
            try {
                generator.sequence.currentTick();
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException("ULIDs cannot be made with this clock: " + e.getMessage(), e);
            }
            return generator;
        }
    }
}
