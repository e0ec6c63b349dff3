package dev.idgen.jmh;

import dev.idgen.segment.InMemorySegmentSource;
import dev.idgen.segment.SegmentGenerator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One number from a segment generator shared by the benchmark's threads, each over an in-memory
 * store granting {@code step} numbers at a time: ours ({@link SegmentGenerator}, default prefetch
 * bounds), CosId's {@code SegmentChainId} over its {@code IdSegmentDistributor.Atomic} (its
 * recommended segment mode, default safe distance), and the floor, a bare
 * {@code AtomicLong.incrementAndGet()} with no store at all. Both segment generators fetch on a
 * background thread, whose allocation (one range object per grant) the gc profiler counts too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SegmentBenchmark {

    /** Numbers per grant, the same for both segment generators. */
    @Param({"1000", "100000"})
    public long step;

    private AtomicLong atomic;
    /** Allocated around the AtomicLong so no other object of the run shares its cache line. */
    private long[] padBefore;
    private long[] padAfter;
    private SegmentGenerator ours;
    private SegmentChainId cosid;

    /** The generators, each shared by the threads. */
    @Setup
    public void setUp() {
        padBefore = new long[16];
        atomic = new AtomicLong();
        padAfter = new long[16];
        ours = SegmentGenerator.builder().source(new InMemorySegmentSource()).name("bench").step(step).build();
        cosid = new SegmentChainId(new IdSegmentDistributor.Atomic(step));
    }

    /** Stops our fetch thread. */
    @TearDown
    public void tearDown() {
        ours.close();
    }

    /** {@return the floor: one atomic add, no ranges} */
    @Benchmark
    public long atomicLong() {
        return atomic.incrementAndGet();
    }

    /** {@return ours} */
    @Benchmark
    public long ours() {
        return ours.nextLong();
    }

    /** {@return CosId's SegmentChainId} */
    @Benchmark
    public long cosidSegmentChain() {
        return cosid.generate();
    }
}
