package dev.idgen.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/** The guessable sources, reachable only by name from {@link RandomSource}. */
final class GuessableRandom {

    static final RandomSource THREAD_LOCAL = new RandomSource() {
        @Override
        public long nextLong() {
            return ThreadLocalRandom.current().nextLong();
        }

        @Override
        public String toString() {
            return "RandomSource.threadLocalRandom() (guessable)";
        }
    };

    private GuessableRandom() {
    }

    /** SplitMix64 (Steele, Lea and Flood, 2014): a Weyl sequence through a 64-bit mixer. */
    static final class SplitMix implements RandomSource {
        private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(SplitMix.class, "state", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final long seed;
        private volatile long state;

        SplitMix(long seed) {
            this.seed = seed;
            this.state = seed;
        }

        @Override
        public long nextLong() {
            // each call owns the value its atomic add moved past, so no two calls mix the same input
            long z = (long) STATE.getAndAdd(this, GOLDEN_GAMMA) + GOLDEN_GAMMA;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        @Override
        public String toString() {
            return "RandomSource.seeded(" + seed + ") (guessable)";
        }
    }
}
