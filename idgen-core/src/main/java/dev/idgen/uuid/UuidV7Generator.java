package dev.idgen.uuid;

import dev.idgen.IdGenerator;
import dev.idgen.random.LongPairFunction;
import dev.idgen.random.RandomSource;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockStats;
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
 * Makes version 7 UUIDs (RFC 9562 §5.7): 48 bits of Unix milliseconds, version 7, variant
 * {@code 10}, then bits that are random or, by default, a counter. They sort by creation time as
 * text, as bytes and as {@link Uuids#unsignedOrder()}.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                           unix_ts_ms                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          unix_ts_ms           |  ver  |   counter (high 12)   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |var| ctr 4 |            random (58 bits, fresh every ID)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                             random                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <h2>Monotonic (the default)</h2>
 * RFC 9562 §6.2 Method 1: a 16-bit counter right after the timestamp, filling {@code rand_a} (12
 * bits) and the top 4 bits of {@code rand_b}; the other 58 bits of {@code rand_b} are fresh random
 * bits for every ID. The (millisecond, counter) pair is kept in one packed {@code long} advanced by
 * one CAS, the mechanism the Snowflake generator uses, so across all threads the UUIDs of one
 * generator are unique and strictly increase in the order the calls return (if one call returns
 * before another starts, its UUID is smaller), also for many IDs in one millisecond.
 * <ul>
 *   <li><b>New millisecond:</b> the counter starts at a random value below 2^15 (its top bit 0, as
 *       the RFC suggests), so each millisecond has room for at least 32,769 IDs.</li>
 *   <li><b>Counter rollover</b> (the counter reaches 65,535 within one millisecond): the next UUID
 *       takes the next millisecond at once, ahead of the clock, and its counter starts again at a
 *       random value; the generator never waits for the clock unless the embedded time is already
 *       the run-ahead bound ahead of it.</li>
 *   <li><b>Clock step back</b> (the clock reads earlier than the last millisecond used): the
 *       generator carries on from the last millisecond used, incrementing the counter (and rolling
 *       over into later milliseconds as above), as RFC 9562 §6.2 allows; the embedded time does not
 *       go back. A step back further than the bound throws {@link ClockMovedBackwardsException} and
 *       makes no ID; once the clock is back within the bound, calls succeed again, still
 *       increasing. After a forward blip that is as long as the blip lasted: see
 *       {@link Builder#rebaseAfterStepBack(boolean)} for the way out, which gives up order across
 *       that one step.</li>
 *   <li><b>How far ahead:</b> the embedded time is never more than the bound ahead of the clock's
 *       reading in the same call. The default bound is {@link #DEFAULT_RUN_AHEAD} (10 s); set it
 *       with {@link Builder#onClockBackwards(ClockBackwardsPolicy)} and
 *       {@link ClockBackwardsPolicy#runAhead(Duration)}. Only a burst of over 32,768 IDs a
 *       millisecond, sustained, or a step back makes the time run ahead at all; the clock catching
 *       up ends it. With {@link ClockBackwardsPolicy#refuse()} or
 *       {@link ClockBackwardsPolicy#waitUpTo(Duration)} the generator instead never runs ahead: it
 *       refuses (or waits out) a step back, and on a rollover spins until the clock reaches the
 *       next millisecond.</li>
 *   <li><b>Range:</b> the packed pair holds 47 bits of milliseconds, so the clock must read
 *       1970-01-01T00:00:00Z to {@link #LAST_MONOTONIC_INSTANT} (year 6429); outside it
 *       {@link #next()} throws {@link IllegalStateException}, and the builder refuses a clock that
 *       already reads outside it.</li>
 * </ul>
 * Step backs are logged once each through slf4j at warn.
 *
 * <h2>Not monotonic ({@link Builder#monotonic(boolean) monotonic(false)})</h2>
 * The clock's millisecond and 74 fresh random bits ({@code rand_a} and {@code rand_b}); no shared
 * state, so no CAS. UUIDs still sort by millisecond, but not within one, and a clock step back
 * makes earlier times appear. Uniqueness is by chance, as for v4, over 74 bits per millisecond.
 * The clock must read 1970 to the end of the 48-bit field (year 10889).
 *
 * <pre>{@code
 * UuidV7Generator ids = UuidV7Generator.builder()
 *         .clock(InstantSource.system())                               // the default
 *         .randomness(RandomSource.secure())                           // the default
 *         .onClockBackwards(ClockBackwardsPolicy.runAhead(Duration.ofSeconds(10)))  // the default
 *         .build();
 * UUID id = ids.next();
 * }</pre>
 */
public final class UuidV7Generator implements IdGenerator<UUID> {

    /** The default run-ahead bound: 10 s. */
    public static final Duration DEFAULT_RUN_AHEAD = Duration.ofSeconds(10);

    /** Bits of counter in a monotonic UUID: 12 of {@code rand_a} and the top 4 of {@code rand_b}. */
    public static final int COUNTER_BITS = 16;

    /** The last instant a monotonic generator can encode: 2^47 - 1 ms after the Unix epoch. */
    public static final Instant LAST_MONOTONIC_INSTANT = Instant.ofEpochMilli((1L << (63 - COUNTER_BITS)) - 1);

    /** The last instant the 48-bit {@code unix_ts_ms} field can hold. */
    public static final Instant LAST_INSTANT = Instant.ofEpochMilli((1L << 48) - 1);

    private static final long VERSION_7 = 0x7000L;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;
    private static final int RANDOM_LOW_BITS = 58;
    private static final long MAX_UNIX_MILLIS = (1L << 48) - 1;
    /** Random values drawn at once by {@link #fill(UUID[])}. */
    private static final int BULK_RANDOM_RUN = 64;

    private final InstantSource clock;
    private final RandomSource random;
    private final ClockBackwardsPolicy policy;
    private final boolean rebase;
    /** Null when not monotonic. */
    private final TickSequence sequence;
    /** {@link #stamp(long, long)}, bound once: the non-monotonic path allocates nothing but the UUID. */
    private final LongPairFunction<UUID> stampNow = this::stamp;

    private UuidV7Generator(Builder b) {
        this.clock = b.clock;
        this.random = b.random;
        this.policy = b.policy;
        // tick = Unix ms, counter below it; the counter of a new ms starts under 2^15, from the CSPRNG
        this.rebase = b.rebase;
        this.sequence = b.monotonic
                ? TickSequence.builder(new TickSpace(0L, 1L, LAST_MONOTONIC_INSTANT.toEpochMilli(), COUNTER_BITS), clock)
                        .counterStart(CounterStart.randomBelow(1L << (COUNTER_BITS - 1), random::nextLong))
                        .policy(policy)
                        .rebaseBeyondBound(b.rebase)
                        .waitTimer(b.waitTimer)
                        .logAs(UuidV7Generator.class)
                        .build()
                : null;
    }

    /**
     * A builder with the system clock, {@link RandomSource#secure()}, monotonic order and
     * {@code runAhead(10 s)}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Makes the next UUID.
     *
     * @return a new version 7 UUID; when monotonic, greater (in {@link Uuids#unsignedOrder()}, and in
     *     {@link UUID#compareTo(UUID)} too, as the first bit stays 0 until year 6429) than every UUID
     *     this generator returned before
     * @throws ClockMovedBackwardsException if monotonic and the clock is further behind the last
     *     millisecond used than the policy allows
     * @throws IllegalStateException if the clock reads a time outside the range above, or the thread
     *     is interrupted while waiting for the clock
     */
    @Override
    public UUID next() {
        if (sequence == null) {
            return unordered();
        }
        long pair = sequence.next();
        long millis = sequence.tickOf(pair);
        long counter = sequence.counterOf(pair);
        long randomLow = random.nextLong() >>> (Long.SIZE - RANDOM_LOW_BITS);
        return new UUID(millis << 16 | VERSION_7 | counter >>> 4,
                VARIANT_RFC | (counter & 0xF) << RANDOM_LOW_BITS | randomLow);
    }

    /**
     * Fills {@code out} with new UUIDs, for a batch insert. When monotonic: UUIDs as {@link #next()}
     * makes them, with the same promises, but the (millisecond, counter) pairs are taken from the
     * sequence a block at a time, with one clock read and one CAS per block, and the random bits in
     * runs from the source. A block holds what is left of the current millisecond's counter; when
     * the array needs more, the next block starts in a later millisecond, reached as {@code next()}
     * reaches it on a counter rollover (a run ahead, or a wait, as the policy says). So {@code out}
     * is strictly increasing, greater than every UUID returned before this call started and smaller
     * than every UUID returned by a call that starts after it returns; blocks taken by other threads
     * never overlap it. Not monotonic: {@code out.length} UUIDs as {@code next()} makes them.
     *
     * @param out the array to fill; an empty array is left alone, without reading the clock
     * @throws ClockMovedBackwardsException as {@link #next()}; the array's content is then unspecified
     * @throws IllegalStateException as {@link #next()}
     */
    public void fill(UUID[] out) {
        Objects.requireNonNull(out, "out");
        if (sequence == null) {
            for (int i = 0; i < out.length; i++) {
                out[i] = unordered();
            }
            return;
        }
        long[] randomBits = new long[Math.min(out.length, BULK_RANDOM_RUN)];
        int i = 0;
        while (i < out.length) {
            int wanted = out.length - i;
            long first = sequence.nextBlock(wanted);
            long millisField = sequence.tickOf(first) << 16 | VERSION_7;
            long counter = sequence.counterOf(first);
            for (int end = i + sequence.blockSize(first, wanted); i < end;) {
                int run = Math.min(end - i, randomBits.length);
                random.nextLongs(randomBits, 0, run);
                for (int r = 0; r < run; r++, i++, counter++) {
                    out[i] = new UUID(millisField | counter >>> 4,
                            VARIANT_RFC | (counter & 0xF) << RANDOM_LOW_BITS | randomBits[r] >>> (Long.SIZE - RANDOM_LOW_BITS));
                }
            }
        }
    }

    private UUID unordered() {
        return random.nextTwoLongs(stampNow);
    }

    /**
     * Puts the clock's millisecond and 74 of the random bits into a UUID. Bound once per generator
     * (as {@link #stampNow}), so a call allocates only its UUID; the source calls it after it has
     * given its stripe back, so the clock is not read while a stripe is held.
     */
    private UUID stamp(long first, long second) {
        long millis = clock.millis();
        if (millis < 0 || millis > MAX_UNIX_MILLIS) {
            throw new IllegalStateException("Clock reads " + Instant.ofEpochMilli(millis)
                    + ", outside the range UUIDv7 can encode: " + Instant.EPOCH + " to " + LAST_INSTANT);
        }
        return new UUID(millis << 16 | VERSION_7 | first >>> 52, VARIANT_RFC | second >>> 2);
    }

    /** {@return whether UUIDs strictly increase in the order calls return} */
    public boolean isMonotonic() {
        return sequence != null;
    }

    /** {@return the clock-backwards policy (used only when monotonic)} */
    public ClockBackwardsPolicy policy() {
        return policy;
    }

    /** {@return whether a step back beyond the policy's bound re-bases on the clock; see {@link Builder#rebaseAfterStepBack(boolean)}} */
    public boolean rebasesAfterStepBack() {
        return rebase;
    }

    /**
     * What the clock has done to this generator since it was built: steps back, waits, refusals,
     * run-aheads. Counted only off the fast path; see {@link ClockStats}. A generator that is not
     * monotonic keeps no state and reports {@link ClockStats#NONE}.
     *
     * @return a snapshot
     */
    public ClockStats clockStats() {
        return sequence == null ? ClockStats.NONE : sequence.clockStats();
    }

    /** {@return the source of the random bits} */
    public RandomSource randomness() {
        return random;
    }

    @Override
    public String toString() {
        return "UuidV7Generator[" + (sequence != null ? "monotonic, policy=" + policy : "not monotonic")
                + ", " + random + "]";
    }

    /** Configures a {@link UuidV7Generator}. Not thread-safe; each {@link #build()} is independent. */
    public static final class Builder {
        private InstantSource clock = InstantSource.system();
        private RandomSource random = RandomSource.secure();
        private ClockBackwardsPolicy policy = ClockBackwardsPolicy.runAhead(DEFAULT_RUN_AHEAD);
        private boolean monotonic = true;
        private boolean rebase;
        private LongSupplier waitTimer = System::nanoTime;

        private Builder() {
        }

        /**
         * The way out of a long refusal. After a transient forward blip (the clock jumps ahead, a
         * UUID is made, the clock comes back), a monotonic generator is behind its last millisecond
         * for as long as the blip lasted and, by default, refuses every call until the clock gets
         * there again. With {@code rebaseAfterStepBack(true)}, a step back further than the policy's
         * bound instead re-bases the generator on the clock: the next UUID carries the clock's
         * millisecond and a fresh random counter, and a warning is logged.
         *
         * <p>What it then promises: every UUID is still unique (as likely as two v4 UUIDs are not: a
         * UUID made after the step can equal one made before only if its millisecond, 16-bit
         * counter and 58 fresh random bits all match, a chance of at most 2^-58 per UUID);
         * UUIDs still strictly increase in the order calls return <em>except across that step</em>:
         * those made after it are greater than each other but may be smaller than those made
         * before it. Steps back within the bound are handled by the policy as before, keeping
         * order. Snowflake has no such option: without random bits its IDs would repeat.
         *
         * @param rebase default {@code false}: refuse, as the policy says
         * @return this builder
         */
        public Builder rebaseAfterStepBack(boolean rebase) {
            this.rebase = rebase;
            return this;
        }

        /** For tests: the monotonic time source that bounds waits (never UUID time). */
        Builder waitTimer(LongSupplier nanoTime) {
            this.waitTimer = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
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
         * @param random where the random bits (and each millisecond's first counter) come from;
         *     default {@link RandomSource#secure()}
         * @return this builder
         */
        public Builder randomness(RandomSource random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * @param monotonic {@code true} (the default) for strictly increasing UUIDs from one CAS-kept
         *     counter; {@code false} for time and fresh random bits with no shared state
         * @return this builder
         */
        public Builder monotonic(boolean monotonic) {
            this.monotonic = monotonic;
            return this;
        }

        /**
         * What a monotonic generator does when the clock steps back, and whether it may run ahead
         * of the clock on a counter rollover; see the class documentation. Ignored when not
         * monotonic.
         *
         * @param policy the policy; default {@code runAhead(10 s)}
         * @return this builder
         */
        public Builder onClockBackwards(ClockBackwardsPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @return a new generator
         * @throws IllegalArgumentException if the clock reads a time the generator cannot encode
         */
        public UuidV7Generator build() {
            UuidV7Generator generator = new UuidV7Generator(this);
            try {
                if (generator.sequence != null) {
                    generator.sequence.currentTick();
                } else {
                    generator.unordered();
                }
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException("UUIDv7 cannot be made with this clock: " + e.getMessage(), e);
            }
            return generator;
        }
    }
}
