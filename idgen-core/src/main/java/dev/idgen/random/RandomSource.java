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
     * Fills {@code out[from..to)} with random {@code long}s, for bulk generation: the striped
     * sources take a stripe once per 64 values instead of once per value.
     *
     * @param out where the values go
     * @param from the first index written
     * @param to one past the last index written
     * @throws IndexOutOfBoundsException if {@code from..to} is not a range inside {@code out}
     */
    default void nextLongs(long[] out, int from, int to) {
        Objects.checkFromToIndex(from, to, out.length);
        for (int i = from; i < to; i++) {
            out[i] = nextLong();
        }
    }

    /**
     * The default source: one per JVM, shared by every generator that does not name another.
     *
     * <p>A small fixed array of stripes (the next power of two at or above twice the number of
     * processors, 2 to 64), each a buffer of AES-256-CTR keystream refilled 4 KiB at a time under
     * its own key and counter, seeded from {@code new SecureRandom()}. A call takes the stripe its
     * thread hashes to with one CAS, or the next free one; nothing is kept per thread, so millions
     * of virtual threads cost nothing extra. Every 64 KiB a stripe replaces its key with bytes of
     * its own keystream that are never handed out, XOR fresh bytes from the {@code SecureRandom}:
     * a later copy of its state does not reveal what it gave out before, and two copies of one
     * state (processes restored from one snapshot or VM image) part ways by their next re-key.
     *
     * <p>After a copy they part ways at once when there is a sign of it: a CRaC restore (the
     * {@code org.crac} or {@code jdk.crac} API, if present at run time, is told of a resource, with
     * no dependency needed); or, looked for before every 64 longs a stripe hands out, a jump between
     * the wall clock and the monotonic clock or (on Linux) a new process id. Then every stripe drops
     * its buffer and re-keys from fresh bytes before its next call. With no sign at all, two copies
     * part at each stripe's next block of 64 longs, whose longs are XOR the monotonic clock's reading
     * at its start. See {@code docs/randomness.md} in the project for what a snapshot can and cannot
     * repeat.
     *
     * @return the shared secure source
     */
    static RandomSource secure() {
        return StripedRandom.Shared.SECURE;
    }

    /**
     * A striped source like {@link #secure()} whose stripes are refilled from {@code random}, 4 KiB
     * at a time; {@code random} is called only on a refill, so its lock is taken once per 4 KiB,
     * not once per ID. The stripes drop their buffers on the same signs of a copy as
     * {@link #secure()}'s and ask {@code random} to {@linkplain SecureRandom#reseed() reseed} where
     * it can; whether it then gives new bytes in each copy is up to it ({@code NativePRNG} reads the
     * operating system on every call; a {@code DRBG} does once reseeded).
     *
     * @param random a cryptographically strong generator
     * @return a new source
     */
    static RandomSource from(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        StripedRandom.Refill refill = new StripedRandom.FromSecureRandom(random);
        return new StripedRandom(() -> refill, SnapshotGuard.jvm(), "RandomSource.from(" + random.getAlgorithm() + ")");
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
