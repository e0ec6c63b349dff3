package dev.idgen.jmh;

import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.StoreLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.SnowflakeIdGenerator;
import org.agrona.concurrent.SystemEpochClock;
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
 * What a Snowflake ID costs when the sequence never runs out: a layout with no machine bits and a
 * 22-bit sequence (4,194,304 IDs per millisecond, about 0.24 ns an ID, far below what a call
 * costs), for ours and for Agrona's {@code SnowflakeIdGenerator} alike, next to
 * {@code System.currentTimeMillis()} alone, the clock read every generator makes and so the floor.
 * One generator shared by the benchmark's threads.
 *
 * <p>{@code clockAndCas} is a control, not a generator anyone should use: the clock read plus one
 * compare-and-set on an {@code AtomicLong}, the least any lock-free Snowflake does. It shows what
 * the CAS alone adds to the floor on the machine at hand.
 *
 * <p>{@code oursBulk} is ours filling an array of {@value #BULK} IDs per call
 * ({@code fill(long[])}, as for one JDBC batch), scored per ID: one clock read and one CAS per
 * block. Each thread fills its own array.
 *
 * <p>{@code oursLeased} is ours on a machine-id lease whose fence stays open: the holding (machine
 * id, first tick, fence) is read before the clock and after the CAS, and the tick compared with
 * both ends. Beside {@code ours} (a fixed id) it shows what the fence and the re-claimable machine
 * id cost per ID.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SnowflakeOverheadBenchmark {

    /** 41 bits of milliseconds from Twitter's epoch, no machine id, 22 sequence bits. */
    public static final SnowflakeLayout WIDE_SEQUENCE = SnowflakeLayout.custom("wide-sequence")
            .epoch(SnowflakeLayout.TWITTER.epoch()).tick(Duration.ofMillis(1))
            .timestampBits(41).machineBits(0).sequenceBits(22)
            .fieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE).build();

    /** IDs per {@code fill} call in {@link #oursBulk(Batch)}. */
    public static final int BULK = 256;

    /** One array per thread for the bulk row. */
    @State(Scope.Thread)
    public static class Batch {
        final long[] ids = new long[BULK];
    }

    private SnowflakeGenerator ours;
    private SnowflakeGenerator oursLeased;
    private SnowflakeIdGenerator agrona;
    private final AtomicLong cell = new AtomicLong();

    /** The same layout for both. */
    @Setup
    public void setUp() {
        ours = SnowflakeGenerator.builder().layout(WIDE_SEQUENCE).machineId(0).build();
        oursLeased = SnowflakeGenerator.builder().layout(WIDE_SEQUENCE).machineId(openLease(WIDE_SEQUENCE)).build();
        agrona = new SnowflakeIdGenerator(0, 22, 0, WIDE_SEQUENCE.epoch().toEpochMilli(), SystemEpochClock.INSTANCE);
    }

    /** @return ours */
    @Benchmark
    public long ours() {
        return ours.nextLong();
    }

    /**
     * @param batch this thread's array
     * @return ours, {@value #BULK} at a time; scored per ID
     */
    @Benchmark
    @OperationsPerInvocation(BULK)
    public long[] oursBulk(Batch batch) {
        ours.fill(batch.ids);
        return batch.ids;
    }

    /** @return ours, on a lease whose fence is open */
    @Benchmark
    public long oursLeased() {
        return oursLeased.nextLong();
    }

    /**
     * A lease on machine id 0 from an in-memory store, with a ttl of a year: its fence stands weeks
     * ahead, held for the whole run, and the generator goes through the same fence check as on any
     * store.
     */
    private static MachineIdLease openLease(SnowflakeLayout layout) {
        return StoreLease.builder(new InMemoryLeaseStore(InstantSource.system())).layout(layout)
                .ttl(Duration.ofDays(365)).background(false).acquire();
    }

    /** @return Agrona */
    @Benchmark
    public long agrona() {
        return agrona.nextId();
    }

    /** @return the clock read alone */
    @Benchmark
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    /** @return the clock read and one CAS (control) */
    @Benchmark
    public long clockAndCas() {
        return readClockAndCasOnce();
    }

    private long readClockAndCasOnce() {
        long now = System.currentTimeMillis() << 22;
        long prev = cell.get();
        long next = Math.max(now, prev + 1);
        // one attempt, success or not: the cost of the instruction, not of a retry loop
        return cell.compareAndSet(prev, next) ? next : -next;
    }
}
