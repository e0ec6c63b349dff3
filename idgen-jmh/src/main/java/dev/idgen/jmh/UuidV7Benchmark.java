package dev.idgen.jmh;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import com.github.f4b6a3.uuid.UuidCreator;
import dev.idgen.IdGenerators;
import dev.idgen.uuid.UuidV7Generator;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * UUIDv7 from one generator shared by the benchmark's threads, every one with CSPRNG randomness as
 * it comes out of the box: ours monotonic (the default: a 16-bit counter under the millisecond,
 * one CAS) and ours non-monotonic (time and fresh random bits, no shared state), uuid-creator's
 * {@code UuidCreator.getTimeOrderedEpoch()} and java-uuid-generator's
 * {@code Generators.timeBasedEpochGenerator()} (both monotonic).
 *
 * <p>{@code oursBulk} is ours monotonic filling an array of {@value #BULK} UUIDs per call
 * ({@code fill(UUID[])}, as for one JDBC batch), scored per UUID: one clock read and one CAS per
 * block, the random bits drawn in runs. Each thread fills its own array.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class UuidV7Benchmark {

    /** UUIDs per {@code fill} call in {@link #oursBulk(Batch)}. */
    public static final int BULK = 256;

    /** One array per thread for the bulk rows. */
    @State(Scope.Thread)
    public static class Batch {
        final UUID[] ids = new UUID[BULK];
    }

    private UuidV7Generator ours;
    private UuidV7Generator oursNonMonotonic;
    private TimeBasedEpochGenerator jug;

    /** The generators, each shared by the threads. */
    @Setup
    public void setUp() {
        ours = IdGenerators.uuidV7();
        oursNonMonotonic = UuidV7Generator.builder().monotonic(false).build();
        jug = Generators.timeBasedEpochGenerator();
    }

    /** @return ours, monotonic */
    @Benchmark
    public UUID ours() {
        return ours.next();
    }

    /**
     * @param batch this thread's array
     * @return ours, monotonic, {@value #BULK} at a time; scored per UUID
     */
    @Benchmark
    @OperationsPerInvocation(BULK)
    public UUID[] oursBulk(Batch batch) {
        ours.fill(batch.ids);
        return batch.ids;
    }

    /** @return ours, not monotonic */
    @Benchmark
    public UUID oursNonMonotonic() {
        return oursNonMonotonic.next();
    }

    /** @return uuid-creator */
    @Benchmark
    public UUID uuidCreator() {
        return UuidCreator.getTimeOrderedEpoch();
    }

    /** @return java-uuid-generator */
    @Benchmark
    public UUID jug() {
        return jug.generate();
    }
}
