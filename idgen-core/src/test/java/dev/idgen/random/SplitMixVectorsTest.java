package dev.idgen.random;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RandomSource#seeded(long)} is SplitMix64: the JDK's {@link SplittableRandom} is the same
 * generator (same gamma, same mixer), so its output for a seed is an independent reference.
 */
class SplitMixVectorsTest {

    @Test
    void seededMatchesTheJdksSplitMix64() {
        for (long seed : new long[] {0, 1, 42, -1, Long.MIN_VALUE, 0x0123456789ABCDEFL}) {
            RandomSource ours = RandomSource.seeded(seed);
            SplittableRandom reference = new SplittableRandom(seed);
            for (int i = 0; i < 100; i++) {
                assertEquals(reference.nextLong(), ours.nextLong(), "seed " + seed + ", draw " + i);
            }
        }
    }
}
