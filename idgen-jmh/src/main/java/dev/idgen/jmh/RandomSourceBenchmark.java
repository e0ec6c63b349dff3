package dev.idgen.jmh;

import dev.idgen.random.LongPairFunction;
import dev.idgen.random.RandomSource;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The randomness candidates behind a UUID: each call takes the 16 random bytes one UUID
 * needs, as two {@code long}s.
 *
 * <ul>
 *   <li>{@code ours}: {@link RandomSource#secure()}, core's default (striped AES-256-CTR keystream
 *       refilled 4 KiB at a time, one CAS per call on the caller's stripe);</li>
 *   <li>{@code stripedDrbg}: the same stripes refilled from a JDK {@code DRBG}
 *       ({@link RandomSource#from(SecureRandom)});</li>
 *   <li>{@code sharedSecureRandom}: one {@code new SecureRandom()} shared by all threads, 16 bytes
 *       a call, as {@code UUID.randomUUID()} does;</li>
 *   <li>{@code sharedDrbg}: one {@code SecureRandom.getInstance("DRBG")} shared by all threads;</li>
 *   <li>{@code threadDrbg}: a {@code DRBG} per thread (fast, but state that grows with the number
 *       of threads, which the design rules out for virtual threads);</li>
 *   <li>{@code threadLocalRandom}: {@code ThreadLocalRandom}, guessable, for scale only.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RandomSourceBenchmark {

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private RandomSource ours;
    private RandomSource stripedDrbg;
    private SecureRandom sharedSecureRandom;
    private SecureRandom sharedDrbg;

    /** The shared sources. */
    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        ours = RandomSource.secure();
        stripedDrbg = RandomSource.from(SecureRandom.getInstance("DRBG"));
        sharedSecureRandom = new SecureRandom();
        sharedDrbg = SecureRandom.getInstance("DRBG");
    }

    /** What one thread keeps: a 16-byte buffer, its own DRBG, and where the two longs land. */
    @State(Scope.Thread)
    public static class PerThread implements LongPairFunction<PerThread> {
        final byte[] bytes = new byte[16];
        SecureRandom drbg;
        long first;
        long second;

        /** @throws NoSuchAlgorithmException if the JDK has no DRBG */
        @Setup
        public void setUp() throws NoSuchAlgorithmException {
            drbg = SecureRandom.getInstance("DRBG");
        }

        @Override
        public PerThread apply(long a, long b) {
            first = a;
            second = b;
            return this;
        }

        void consumeBytes(Blackhole bh) {
            bh.consume((long) LONGS.get(bytes, 0));
            bh.consume((long) LONGS.get(bytes, 8));
        }

        void consumePair(Blackhole bh) {
            bh.consume(first);
            bh.consume(second);
        }
    }

    /**
     * @param t this thread's sink
     * @param bh the sink
     */
    @Benchmark
    public void ours(PerThread t, Blackhole bh) {
        ours.nextTwoLongs(t).consumePair(bh);
    }

    /**
     * @param t this thread's sink
     * @param bh the sink
     */
    @Benchmark
    public void stripedDrbg(PerThread t, Blackhole bh) {
        stripedDrbg.nextTwoLongs(t).consumePair(bh);
    }

    /**
     * @param t this thread's buffer
     * @param bh the sink
     */
    @Benchmark
    public void sharedSecureRandom(PerThread t, Blackhole bh) {
        sharedSecureRandom.nextBytes(t.bytes);
        t.consumeBytes(bh);
    }

    /**
     * @param t this thread's buffer
     * @param bh the sink
     */
    @Benchmark
    public void sharedDrbg(PerThread t, Blackhole bh) {
        sharedDrbg.nextBytes(t.bytes);
        t.consumeBytes(bh);
    }

    /**
     * @param t this thread's buffer and DRBG
     * @param bh the sink
     */
    @Benchmark
    public void threadDrbg(PerThread t, Blackhole bh) {
        t.drbg.nextBytes(t.bytes);
        t.consumeBytes(bh);
    }

    /**
     * One read of the wall clock, for scale: what a check for a restore costs where it reads the
     * clock ({@code RandomSource.secure()} does once per stripe acquisition).
     *
     * @return the time
     */
    @Benchmark
    public long wallClockRead() {
        return System.currentTimeMillis();
    }

    /**
     * One read of the monotonic clock, for scale.
     *
     * @return the time
     */
    @Benchmark
    public long monotonicClockRead() {
        return System.nanoTime();
    }

    /** @param bh the sink */
    @Benchmark
    public void threadLocalRandom(Blackhole bh) {
        bh.consume(ThreadLocalRandom.current().nextLong());
        bh.consume(ThreadLocalRandom.current().nextLong());
    }
}
