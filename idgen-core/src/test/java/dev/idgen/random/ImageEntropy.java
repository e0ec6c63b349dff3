package dev.idgen.random;

import java.security.SecureRandom;

/**
 * A {@code SecureRandom} whose whole state is two longs, so a test can copy it as a snapshot copies
 * a heap: the worst case for a source behind {@code RandomSource}, a generator like the JDK's
 * {@code DRBG} that holds its state in the heap and so repeats in every copy of it until it is
 * reseeded. A copy made by {@link #restoredOn(long)} gives the image's bytes until its first
 * {@link #reseed()}, and from then on bytes of the host it runs on. Deterministic: the bytes are
 * SplitMix64 ({@link GuessableRandom.SplitMix}) of (seed, counter).
 */
final class ImageEntropy extends SecureRandom {

    private static final long serialVersionUID = 1L;
    private static final long GAMMA = 0x9E3779B97F4A7C15L;

    private long seed;
    private long counter;
    private final long hostSeed;
    /** How often {@link #reseed()} was asked for. */
    int reseeds;

    ImageEntropy(long seed) {
        this(seed, 0, seed);
    }

    private ImageEntropy(long seed, long counter, long hostSeed) {
        this.seed = seed;
        this.counter = counter;
        this.hostSeed = hostSeed;
    }

    /**
     * @param hostSeed what the host of the copy gives once asked to reseed
     * @return this state as a restored image holds it
     */
    ImageEntropy restoredOn(long hostSeed) {
        return new ImageEntropy(seed, counter, hostSeed);
    }

    @Override
    public void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i += Long.BYTES) {
            long bits = new GuessableRandom.SplitMix(seed + counter++ * GAMMA).nextLong();
            for (int b = 0; b < Long.BYTES && i + b < out.length; b++) {
                out[i + b] = (byte) (bits >>> (8 * b));
            }
        }
    }

    @Override
    public void reseed() {
        reseeds++;
        seed = new GuessableRandom.SplitMix(hostSeed + reseeds).nextLong();
        counter = 0;
    }
}
