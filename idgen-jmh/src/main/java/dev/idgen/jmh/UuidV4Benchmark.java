package dev.idgen.jmh;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.RandomBasedGenerator;
import com.github.f4b6a3.uuid.UuidCreator;
import dev.idgen.IdGenerators;
import dev.idgen.uuid.UuidV4Generator;
import java.util.UUID;
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

/**
 * UUIDv4 with CSPRNG randomness, as each comes out of the box, shared by the benchmark's threads:
 * ours ({@code RandomSource.secure()}, striped AES-CTR keystream), {@code UUID.randomUUID()} (one
 * shared {@code SecureRandom}), uuid-creator's {@code UuidCreator.getRandomBased()} and
 * java-uuid-generator's {@code Generators.randomBasedGenerator()}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class UuidV4Benchmark {

    private UuidV4Generator ours;
    private RandomBasedGenerator jug;

    /** The generators, each shared by the threads. */
    @Setup
    public void setUp() {
        ours = IdGenerators.uuidV4();
        jug = Generators.randomBasedGenerator();
    }

    /** @return ours */
    @Benchmark
    public UUID ours() {
        return ours.next();
    }

    /** @return the JDK */
    @Benchmark
    public UUID jdkRandomUUID() {
        return UUID.randomUUID();
    }

    /** @return uuid-creator */
    @Benchmark
    public UUID uuidCreator() {
        return UuidCreator.getRandomBased();
    }

    /** @return java-uuid-generator */
    @Benchmark
    public UUID jug() {
        return jug.generate();
    }
}
