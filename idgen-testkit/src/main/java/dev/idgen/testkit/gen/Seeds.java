package dev.idgen.testkit.gen;

import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Runs a property over many seeded cases and, when one fails, says which seed reproduces it.
 *
 * <p>Framework-neutral: the property is a {@code Consumer<SplittableRandom>} that throws on
 * failure (an {@link AssertionError} or any exception). Case {@code i} gets
 * {@code new SplittableRandom(caseSeed)}, the case seeds drawn from the base seed, and a failure
 * comes back as an {@link AssertionError} whose message starts with the case seed and whose cause
 * is the original failure. Re-run one case with {@link #replay(long, Consumer)}.
 *
 * <p>The base seed is fixed in the test, so runs are deterministic; the system property
 * {@value #SEED_PROPERTY} overrides it to explore other seeds ({@code -Didgen.seed=0x1234}).
 */
public final class Seeds {

    /** The system property that overrides a base seed. */
    public static final String SEED_PROPERTY = "idgen.seed";

    private Seeds() {
    }

    /**
     * Runs {@code property} on {@code cases} cases.
     *
     * @param baseSeed the seed the case seeds are drawn from (or {@value #SEED_PROPERTY}, if set)
     * @param cases how many cases, 1 or more
     * @param property the property: throws on failure
     * @throws AssertionError on the first failing case, naming its seed
     */
    public static void forEach(long baseSeed, int cases, Consumer<SplittableRandom> property) {
        Objects.requireNonNull(property, "property");
        if (cases < 1) {
            throw new IllegalArgumentException("cases " + cases + " is out of range; allowed 1 or more");
        }
        long base = baseSeed(baseSeed);
        SplittableRandom seeds = new SplittableRandom(base);
        for (int i = 0; i < cases; i++) {
            long seed = seeds.nextLong();
            try {
                property.accept(new SplittableRandom(seed));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("case " + i + " of " + cases + " failed; replay with seed 0x"
                        + Long.toHexString(seed) + " (base seed 0x" + Long.toHexString(base) + "): " + e.getMessage(), e);
            }
        }
    }

    /**
     * Runs {@code property} once on the case seed a failure reported.
     *
     * @param seed the case seed
     * @param property the property
     * @throws AssertionError if it fails, naming the seed
     */
    public static void replay(long seed, Consumer<SplittableRandom> property) {
        try {
            property.accept(new SplittableRandom(seed));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed 0x" + Long.toHexString(seed) + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The base seed to use: {@value #SEED_PROPERTY} if set (decimal or {@code 0x} hex), else the
     * given one.
     *
     * @param fallback the seed written in the test
     * @return the seed
     */
    public static long baseSeed(long fallback) {
        String value = System.getProperty(SEED_PROPERTY);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        String v = value.trim();
        try {
            return v.startsWith("0x") || v.startsWith("0X") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SEED_PROPERTY + "=" + value + " is not a seed; allowed a decimal long or 0x hex", e);
        }
    }
}
