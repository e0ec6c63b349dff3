package dev.idgen.random;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random bits for IDs. Implementations are thread-safe.
 *
 * <p>Pick by name:
 * <ul>
 *   <li>{@link #secure()}: the default. Unguessable (a CSPRNG, as RFC 9562 §6.9 asks), and fast
 *       under many threads;</li>
 *   <li>{@link #from(SecureRandom)}: the same striped buffers, refilled from a {@code SecureRandom}
 *       you choose (a FIPS provider, a configured {@code DRBG});</li>
 *   <li>{@link #threadLocalRandom()}: {@code ThreadLocalRandom}. <b>Guessable</b>: from a few
 *       outputs the next ones can be computed. Only where IDs need not be unpredictable;</li>
 *   <li>{@link #seeded(long)}: the same sequence for the same seed, for tests and reproducible
 *       data. <b>Guessable</b> by design.</li>
 * </ul>
 */
public interface RandomSource {

    /**
     * @return 64 random bits
     */
    long nextLong();

    /**
     * Two random {@code long}s handed to {@code then}: one step where the source can take both at
     * once (the striped sources take both under one stripe acquisition).
     *
     * @param then what to make of the two
     * @param <T> what is made
     * @return what {@code then} returned
     */
    default <T> T nextTwoLongs(LongPairFunction<T> then) {
        return then.apply(nextLong(), nextLong());
    }

    /**
     * The default source: one per JVM, shared by every generator that does not name another.
     *
     * <p>A small fixed array of stripes (the next power of two at or above twice the number of
     * processors, 2 to 64), each a buffer of AES-256-CTR keystream refilled 4 KiB at a time under
     * its own key and counter, seeded from {@code new SecureRandom()}. A call takes the stripe its
     * thread hashes to with one CAS, or the next free one; nothing is kept per thread, so millions
     * of virtual threads cost nothing extra. Every 64 KiB a stripe replaces its key and counter
     * with bytes of its own keystream that are never handed out, so a later copy of its state does
     * not reveal what it gave out before.
     *
     * @return the shared secure source
     */
    static RandomSource secure() {
        return StripedRandom.Shared.SECURE;
    }

    /**
     * A striped source like {@link #secure()} whose stripes are refilled from {@code random}, 4 KiB
     * at a time; {@code random} is called only on a refill, so its lock is taken once per 4 KiB,
     * not once per ID.
     *
     * @param random a cryptographically strong generator
     * @return a new source
     */
    static RandomSource from(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        StripedRandom.Refill refill = random::nextBytes;
        return new StripedRandom(() -> refill, "RandomSource.from(" + random.getAlgorithm() + ")");
    }

    /**
     * {@link ThreadLocalRandom}: the fastest, and <b>guessable</b>. Its 64-bit state advances by a
     * fixed step, so whoever sees a few outputs can compute the others. Use it only where IDs may be
     * predictable, never for IDs that act as secrets or whose unpredictability stops enumeration.
     *
     * @return the source
     */
    static RandomSource threadLocalRandom() {
        return GuessableRandom.THREAD_LOCAL;
    }

    /**
     * A reproducible, <b>guessable</b> source: SplitMix64 from {@code seed}, advanced with one
     * atomic add per call. One thread drawing from it always sees the same sequence; several
     * threads share that sequence in whatever order they arrive.
     *
     * @param seed the seed
     * @return a new source
     */
    static RandomSource seeded(long seed) {
        return new GuessableRandom.SplitMix(seed);
    }
}
