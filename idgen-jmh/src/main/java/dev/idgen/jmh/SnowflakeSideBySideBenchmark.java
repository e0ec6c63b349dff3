package dev.idgen.jmh;

import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SnowflakeIdGenerator;
import org.agrona.concurrent.SystemEpochClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Ours and Agrona's {@code SnowflakeIdGenerator} measured at the same moment, for a shared machine
 * whose load changes from one second to the next: each group runs one thread on ours and one on
 * Agrona's, each on its own generator (the layout of {@link SnowflakeOverheadBenchmark}, 41/0/22, so
 * the sequence never runs out). Both threads see the same load in every iteration, so the ratio of
 * the two scores of one iteration compares them under one condition, which
 * {@link SnowflakeOverheadBenchmark} (one benchmark after the other) cannot do when the load moves.
 *
 * <p>Each generator has one caller, as at 1 thread in {@link SnowflakeOverheadBenchmark}, but the
 * other core is busy with the peer's thread, so the figures are not that benchmark's. Group
 * {@code fixed} is ours with a fixed machine id; group {@code leased} is ours on a machine-id lease
 * whose fence stays open (as {@code oursLeased} there), each beside its own Agrona generator.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SnowflakeSideBySideBenchmark {

    private SnowflakeGenerator ours;
    private SnowflakeGenerator oursLeased;
    private SnowflakeIdGenerator agrona;

    /** One generator of each per group. */
    @Setup
    public void setUp() {
        var layout = SnowflakeOverheadBenchmark.WIDE_SEQUENCE;
        ours = SnowflakeGenerator.builder().layout(layout).machineId(0).build();
        oursLeased = SnowflakeGenerator.builder().layout(layout).machineId(
                StoreLease.builder(new InMemoryLeaseStore(InstantSource.system())).layout(layout)
                        .ttl(Duration.ofDays(365)).background(false).acquire()).build();
        agrona = new SnowflakeIdGenerator(0, 22, 0, layout.epoch().toEpochMilli(), SystemEpochClock.INSTANCE);
    }

    /** @return ours, fixed machine id */
    @Benchmark
    @Group("fixed")
    @GroupThreads(1)
    public long ours() {
        return ours.nextLong();
    }

    /** @return Agrona, beside {@link #ours()} */
    @Benchmark
    @Group("fixed")
    @GroupThreads(1)
    public long agrona() {
        return agrona.nextId();
    }

    /** @return ours, on a lease whose fence is open */
    @Benchmark
    @Group("leased")
    @GroupThreads(1)
    public long oursLeased() {
        return oursLeased.nextLong();
    }

    /** @return Agrona, beside {@link #oursLeased()} */
    @Benchmark
    @Group("leased")
    @GroupThreads(1)
    public long agronaBesideLeased() {
        return agrona.nextId();
    }
}
