package dev.idgen.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Random bits from a fixed array of stripes, each a buffer refilled in bulk by its own
 * {@link Refill}. See {@link RandomSource#secure()}.
 *
 * <p><b>Invariant.</b> A stripe's buffer and position are touched only by the thread that holds its
 * {@code busy} flag (taken by CAS 0 to 1 with acquire semantics, given back by a release store of
 * 0), so each byte of keystream is handed out at most once and never to two callers. Nothing is
 * shared by all threads: a call CASes only the flag of the stripe it lands on, and moves to the
 * next stripe when that one is held (for example while it is being refilled).
 *
 * <p><b>Copies.</b> Each stripe remembers the {@link SnapshotGuard} epoch its bytes belong to. A call
 * that finds the epoch moved on (a CRaC restore, a clock or process-id sign of a copy) throws the
 * buffer away and has the refill re-key from fresh entropy first, so after the signal no stripe hands
 * out a byte made before it. The guard's own check for a sign (two clock reads) runs before every
 * {@link #CHECK_LONGS} longs a stripe hands out, so a restore that moved the wall clock is taken
 * within that many longs of it, not at the next 4 KiB refill; a read per long would cost more than
 * the long itself (a clock read is about 20 ns, a UUIDv4 about 15 ns).
 *
 * <p><b>Copies with no sign.</b> Each long handed out is keystream XOR the monotonic clock's reading
 * at the start of its block of {@link #CHECK_LONGS}. Keystream XOR a value known to all is still
 * keystream to whoever lacks the key; but two copies of one state, which would otherwise hand out the
 * same longs, part at their next block unless both read the very same nanosecond there. This is for
 * uniqueness only: unpredictability to whoever holds a copy comes back at the next re-key.
 */
final class StripedRandom implements RandomSource {

    /** Bytes per refill. */
    static final int BUFFER_BYTES = 4096;
    /** Longs per block: a stripe looks for a copy, and takes a new stamp, before each; a power of two. */
    static final int CHECK_LONGS = 64;
    private static final int CHECK_MASK = CHECK_LONGS * Long.BYTES - 1;

    private static final int MAX_STRIPES = 64;
    private static final long PROBE_MIX = 0x9E3779B97F4A7C15L;
    private static final byte[] EMPTY = new byte[0];
    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** Holds the shared default, made on first use of {@link RandomSource#secure()}. */
    static final class Shared {
        /** Stripes key themselves on their first refill. */
        static final StripedRandom SECURE = secure(new SecureRandom(), SnapshotGuard.jvm());

        private Shared() {
        }
    }

    /** Fills a whole buffer with fresh random bytes. Called only by the stripe's holder. */
    @FunctionalInterface
    interface Refill {
        void fill(byte[] buffer);

        /**
         * The state may have been copied: the next {@link #fill} must not follow from the state held
         * now alone. Called by the stripe's holder.
         */
        default void reseed() {
        }

        /** Asks {@code random} to reseed from its entropy source, where it can. */
        static void tryReseed(SecureRandom random) {
            try {
                random.reseed();
            } catch (UnsupportedOperationException e) {
                // NativePRNG: reads the operating system on every call, nothing to reseed
            }
        }
    }

    /** Refills from a {@code SecureRandom} directly, asking it to reseed when told of a copy. */
    static final class FromSecureRandom implements Refill {
        private final SecureRandom random;

        FromSecureRandom(SecureRandom random) {
            this.random = random;
        }

        @Override
        public void fill(byte[] buffer) {
            random.nextBytes(buffer);
        }

        @Override
        public void reseed() {
            Refill.tryReseed(random);
        }
    }

    private final Stripe[] stripes;
    private final int mask;
    private final String name;

    StripedRandom(Supplier<Refill> refills, SnapshotGuard guard, String name) {
        this(stripesFor(Runtime.getRuntime().availableProcessors()), refills, guard, name);
    }

    StripedRandom(int stripeCount, Supplier<Refill> refills, SnapshotGuard guard, String name) {
        if (Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripe count " + stripeCount + " is not a power of two");
        }
        this.stripes = new Stripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new Stripe(refills.get(), guard);
        }
        this.mask = stripeCount - 1;
        this.name = name;
    }

    static StripedRandom secure(SecureRandom fresh, SnapshotGuard guard) {
        return new StripedRandom(() -> new AesCtrKeystream(fresh), guard, "RandomSource.secure()");
    }

    /**
     * This source as a snapshot restored into another process holds it: each stripe's buffer,
     * position, stamp and epoch as they are now, over {@code guard} (the copy's guard, itself
     * restored from this source's) and each stripe's refill as {@code refillImage} copies it. For the
     * tests, which run the original and the copy side by side; nothing in production copies a
     * source. The caller is the only thread using this source.
     *
     * @param guard the copy's guard
     * @param refillImage makes the copy of a stripe's refill, as the image holds it
     * @return the copy
     */
    StripedRandom restoredAs(SnapshotGuard guard, UnaryOperator<Refill> refillImage) {
        StripedRandom copy = new StripedRandom(stripes.length, () -> null, guard, name);
        for (int i = 0; i < stripes.length; i++) {
            Stripe from = stripes[i];
            Stripe to = copy.stripes[i];
            to.refill = refillImage.apply(from.refill);
            to.buffer = from.buffer.clone();
            to.position = from.position;
            to.stamp = from.stamp;
            to.epoch = from.epoch;
        }
        return copy;
    }

    /** The next power of two at or above twice the processors, 2 to 64. */
    static int stripesFor(int processors) {
        int wanted = Math.max(2, Math.min(MAX_STRIPES, 2 * processors));
        return Integer.highestOneBit(wanted - 1) << 1;
    }

    int stripeCount() {
        return stripes.length;
    }

    /**
     * For the tests: one long from stripe {@code i}, taken as {@link #nextLong()} takes it (the
     * check for a copy included). The caller is the only thread using this source.
     */
    long nextLongFrom(int i) {
        Stripe s = stripes[i];
        if (!s.tryAcquire()) {
            throw new IllegalStateException("stripe " + i + " is held; nextLongFrom is for one thread only");
        }
        try {
            return s.take();
        } finally {
            s.release();
        }
    }

    @Override
    public long nextLong() {
        Stripe s = acquire();
        try {
            return s.take();
        } finally {
            s.release();
        }
    }

    @Override
    public <T> T nextTwoLongs(LongPairFunction<T> then) {
        long first;
        long second;
        Stripe s = acquire();
        try {
            first = s.take();
            second = s.take();
        } finally {
            s.release();
        }
        return then.apply(first, second);
    }

    /** How many values one stripe acquisition gives {@link #nextLongs}: others wait a bounded time. */
    private static final int LONGS_PER_ACQUIRE = 64;

    @Override
    public void nextLongs(long[] out, int from, int to) {
        Objects.checkFromToIndex(from, to, out.length);
        for (int i = from; i < to;) {
            int end = Math.min(to, i + LONGS_PER_ACQUIRE);
            Stripe s = acquire();
            try {
                for (; i < end; i++) {
                    out[i] = s.take();
                }
            } finally {
                s.release();
            }
        }
    }

    /**
     * Takes the stripe this thread hashes to, or failing that the next free one. Stripes are held for
     * a few nanoseconds (a refill: about a microsecond), so a full round of held stripes is rare; after
     * one the thread yields rather than spin against holders that may not be running.
     */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19+
    private Stripe acquire() {
        long id = Thread.currentThread().getId();
        int i = (int) ((id * PROBE_MIX) >>> 32) & mask;
        for (int failed = 0;; i = (i + 1) & mask) {
            Stripe s = stripes[i];
            if (s.tryAcquire()) {
                return s;
            }
            if (++failed == stripes.length) {
                failed = 0;
                Thread.yield();
            }
        }
    }

    @Override
    public String toString() {
        return name + " (" + stripes.length + " stripes of " + BUFFER_BYTES + " bytes)";
    }

    /**
     * One stripe: a buffer of random bytes, the position of the next unread byte, the guard epoch
     * the bytes belong to, and its flag.
     */
    static final class Stripe extends StripePadded {
        private static final VarHandle BUSY;

        static {
            try {
                BUSY = MethodHandles.lookup().findVarHandle(StripeState.class, "busy", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        Stripe(Refill refill, SnapshotGuard guard) {
            this.refill = refill;
            this.guard = guard;
            this.buffer = EMPTY; // allocated and filled on first use
            this.epoch = guard.epoch();
        }

        boolean tryAcquire() {
            return busy == 0 && (int) BUSY.compareAndExchangeAcquire(this, 0, 1) == 0;
        }

        void release() {
            BUSY.setRelease(this, 0);
        }

        /**
         * Caller holds the stripe. At the start of every block of {@link #CHECK_LONGS} longs (so
         * also when the buffer is used up), or when the guard's epoch moved on (a signal, one
         * volatile read per call), the stripe looks for a copy before it hands out a byte.
         */
        long take() {
            int p = position;
            if ((p & CHECK_MASK) == 0 || epoch != guard.epoch()) {
                p = startBlock(p);
            }
            position = p + Long.BYTES;
            return (long) LONGS.get(buffer, p) ^ stamp;
        }

        /**
         * Caller holds the stripe. Has the guard look for a copy; refills (re-keying first if the
         * epoch moved on: unread bytes of an older epoch are dropped, never handed out) when the
         * buffer is used up or the epoch moved; and takes the monotonic reading that the next
         * block's longs are XORed with, so two copies of this state part here unless both read the
         * same nanosecond.
         *
         * @return the position of the next long
         */
        private int startBlock(int p) {
            long now = guard.monotonicNanos();
            int current = guard.check(now);
            if (p == buffer.length || current != epoch) {
                if (buffer.length == 0) {
                    buffer = new byte[BUFFER_BYTES];
                }
                position = BUFFER_BYTES; // unread only once a refill has succeeded; if one throws, still "empty"
                if (current != epoch) {
                    refill.reseed();
                    epoch = current;
                }
                refill.fill(buffer);
                p = 0;
            }
            stamp = now;
            return p;
        }
    }

    /** Padding before the stripe's fields, so that two stripes never share a cache line. */
    abstract static class StripeLeftPad {
        long p00, p01, p02, p03, p04, p05, p06, p07;
    }

    /** The fields; see {@link Stripe}. */
    abstract static class StripeState extends StripeLeftPad {
        volatile int busy;
        int position;
        int epoch;
        /** The monotonic reading at the start of the current block, XORed into each of its longs. */
        long stamp;
        byte[] buffer;
        Refill refill;
        SnapshotGuard guard;
    }

    /** Padding after the fields. */
    abstract static class StripePadded extends StripeState {
        long p10, p11, p12, p13, p14, p15, p16, p17;
    }
}
