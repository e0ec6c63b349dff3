package dev.idgen.jcstress.soak;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The system clock read through an offset that changes at random: on average once every
 * {@code readsPerChange} reads the offset is redrawn in {@code [0, maxStepBackMillis]} ms, so the
 * clock steps back (the new offset is larger) or jumps forward again (smaller), like a clock that
 * NTP keeps stepping. Thread-safe and lock-free.
 *
 * <p>Seeded: whether read number n changes the offset, and to what, is a fixed function of
 * {@code (seed, n)} (SplitMix64), so the sequence of offsets is the same in every run with the same
 * seed; which thread makes read n depends on scheduling.
 */
public final class StepBackClock implements InstantSource {

    private final InstantSource base;
    private final long seed;
    private final long readsPerChange;
    private final long maxStepBackMillis;
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong offset = new AtomicLong();
    private final AtomicLong stepsBack = new AtomicLong();

    /**
     * @param base the clock to offset
     * @param seed the seed
     * @param readsPerChange mean reads between offset changes, 1 or more
     * @param maxStepBackMillis the largest offset, 0 or more
     */
    public StepBackClock(InstantSource base, long seed, long readsPerChange, long maxStepBackMillis) {
        if (readsPerChange < 1 || maxStepBackMillis < 0) {
            throw new IllegalArgumentException("readsPerChange " + readsPerChange + " must be 1 or more and "
                    + "maxStepBackMillis " + maxStepBackMillis + " 0 or more");
        }
        this.base = base;
        this.seed = seed;
        this.readsPerChange = readsPerChange;
        this.maxStepBackMillis = maxStepBackMillis;
    }

    @Override
    public long millis() {
        long n = reads.getAndIncrement();
        long h = mix(seed + n * 0x9E3779B97F4A7C15L);
        if (Long.remainderUnsigned(h, readsPerChange) == 0) {
            long next = Long.remainderUnsigned(mix(h), maxStepBackMillis + 1);
            if (offset.getAndSet(next) < next) {
                stepsBack.incrementAndGet();
            }
        }
        return base.millis() - offset.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /** @return how many offset changes moved the clock back */
    public long stepsBack() {
        return stepsBack.get();
    }

    /** @return the seed */
    public long seed() {
        return seed;
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
