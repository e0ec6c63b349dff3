package dev.idgen.random;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A {@code SecureRandom} for tests: bytes from a seeded {@link SplittableRandom}, so that two copies
 * of a process can be given the same entropy up to a snapshot and different entropy after it
 * ({@link #diverge(long)}), as two processes restored from one image get from the operating system.
 */
final class ScriptedEntropy extends SecureRandom {

    private static final long serialVersionUID = 1L;

    private transient SplittableRandom bytes;
    /** Every array it filled, in order: the code under test must zero them once used. */
    final transient List<byte[]> filled = new ArrayList<>();
    /** How often {@link #reseed()} was asked for. */
    int reseeds;

    ScriptedEntropy(long seed) {
        this.bytes = new SplittableRandom(seed);
    }

    /** From now on the bytes come from {@code seed}: what a restored copy reads from its kernel. */
    void diverge(long seed) {
        bytes = new SplittableRandom(seed);
    }

    @Override
    public void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) bytes.nextInt();
        }
        filled.add(out);
    }

    @Override
    public void reseed() {
        reseeds++;
    }
}
