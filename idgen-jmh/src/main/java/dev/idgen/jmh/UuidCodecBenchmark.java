package dev.idgen.jmh;

import dev.idgen.random.RandomSource;
import dev.idgen.uuid.UuidInfo;
import dev.idgen.uuid.UuidV4Generator;
import dev.idgen.uuid.UuidV7Generator;
import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.time.InstantSource;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Text and fields: our strict {@code Uuids.parse} against {@code UUID.fromString} (which is lenient),
 * our lower-case {@code Uuids.toString} against {@code UUID.toString}, and {@code Uuids.decode} (no
 * JDK counterpart: the JDK reads a time only from v1). Each call takes the next of
 * {@value #SAMPLES} UUIDs, half v7 and half v4 made from a fixed seed, so branches see real variety.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class UuidCodecBenchmark {

    /** How many distinct UUIDs the calls go round; a power of two. */
    public static final int SAMPLES = 256;

    private final UUID[] uuids = new UUID[SAMPLES];
    private final String[] texts = new String[SAMPLES];
    private int next;

    /** Half v7 at a fixed instant, half v4, all from seed 42. */
    @Setup
    public void setUp() {
        RandomSource seeded = RandomSource.seeded(42);
        UuidV7Generator v7 = UuidV7Generator.builder().randomness(seeded)
                .clock(InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z"))).build();
        UuidV4Generator v4 = UuidV4Generator.builder().randomness(seeded).build();
        for (int i = 0; i < SAMPLES; i++) {
            uuids[i] = i % 2 == 0 ? v7.next() : v4.next();
            texts[i] = uuids[i].toString();
        }
    }

    private int advance() {
        int i = next;
        next = (i + 1) & (SAMPLES - 1);
        return i;
    }

    /** @return ours, strict */
    @Benchmark
    public UUID ours_parse() {
        return Uuids.parse(texts[advance()]);
    }

    /** @return the JDK, lenient */
    @Benchmark
    public UUID jdk_parse() {
        return UUID.fromString(texts[advance()]);
    }

    /** @return ours */
    @Benchmark
    public String ours_toString() {
        return Uuids.toString(uuids[advance()]);
    }

    /** @return the JDK */
    @Benchmark
    public String jdk_toString() {
        return uuids[advance()].toString();
    }

    /** @return ours: version, variant, time, counter and random fields */
    @Benchmark
    public UuidInfo ours_decode() {
        return Uuids.decode(uuids[advance()]);
    }
}
