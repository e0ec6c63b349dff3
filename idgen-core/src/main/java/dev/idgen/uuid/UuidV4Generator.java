package dev.idgen.uuid;

import dev.idgen.IdGenerator;
import dev.idgen.random.LongPairFunction;
import dev.idgen.random.RandomSource;
import java.util.Objects;
import java.util.UUID;

/**
 * Makes version 4 UUIDs (RFC 9562 §5.4): 122 random bits, version 4, variant {@code 10}.
 *
 * <p>Thread-safe and without shared state beyond its {@link RandomSource}: by default
 * {@link RandomSource#secure()}, so the IDs are unguessable. Uniqueness is a matter of chance, not
 * of coordination: among a trillion (10^12) IDs from a good source the chance that any two are
 * equal is about 10^-13; it reaches about 40 % only at 2^61 (2.3 × 10^18) IDs, the birthday bound of
 * 122 bits.
 *
 * <pre>{@code
 * UuidV4Generator ids = UuidV4Generator.builder().build();   // or IdGenerators.uuidV4()
 * UUID token = ids.next();
 * }</pre>
 */
public final class UuidV4Generator implements IdGenerator<UUID> {

    private static final long VERSION_MASK = 0xF000L;
    private static final long VERSION_4 = 0x4000L;
    private static final long VARIANT_CLEAR = 0x3FFF_FFFF_FFFF_FFFFL;
    private static final long VARIANT_RFC = 0x8000_0000_0000_0000L;

    /** Sets the version and variant bits over two random longs; a constant, so nothing is allocated for it. */
    private static final LongPairFunction<UUID> FROM_RANDOM = (high, low) ->
            new UUID(high & ~VERSION_MASK | VERSION_4, low & VARIANT_CLEAR | VARIANT_RFC);

    private final RandomSource random;

    private UuidV4Generator(Builder b) {
        this.random = b.random;
    }

    /**
     * A builder with {@link RandomSource#secure()}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Makes the next UUID.
     *
     * @return a new version 4 UUID
     */
    @Override
    public UUID next() {
        return random.nextTwoLongs(FROM_RANDOM);
    }

    /** {@return the source of the random bits} */
    public RandomSource randomness() {
        return random;
    }

    @Override
    public String toString() {
        return "UuidV4Generator[" + random + "]";
    }

    /** Configures a {@link UuidV4Generator}. Not thread-safe; each {@link #build()} is independent. */
    public static final class Builder {
        private RandomSource random = RandomSource.secure();

        private Builder() {
        }

        /**
         * @param random where the 122 random bits come from; default {@link RandomSource#secure()}
         * @return this builder
         */
        public Builder randomness(RandomSource random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /** {@return a new generator} */
        public UuidV4Generator build() {
            return new UuidV4Generator(this);
        }
    }
}
