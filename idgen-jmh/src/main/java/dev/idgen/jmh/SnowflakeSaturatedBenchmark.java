package dev.idgen.jmh;

import cn.hutool.core.lang.Snowflake;
import com.github.f4b6a3.tsid.TsidFactory;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SnowflakeIdGenerator;
import org.agrona.concurrent.SystemEpochClock;
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
 * Snowflake generators in Twitter's 41/10/12 layout, called as fast as the threads can: a 12-bit
 * sequence allows 4,096 IDs per millisecond, so a generator that waits for the next millisecond
 * when its sequence runs out can make at most {@value #CEILING_PER_SECOND} IDs per second. The score
 * (IDs per second, summed over the threads) is read as a fraction of that ceiling.
 *
 * <p>All four share one generator between the threads: ours (lock-free CAS), Agrona's
 * {@code SnowflakeIdGenerator} (lock-free CAS), Hutool's {@code Snowflake} ({@code synchronized})
 * and tsid-creator's {@code TsidFactory} with 10 node bits (a lock; when its counter runs out it
 * moves its time forward instead of waiting, so its score is not held to the ceiling).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SnowflakeSaturatedBenchmark {

    /** 4,096 IDs per millisecond: the most a 12-bit sequence allows. */
    public static final long CEILING_PER_SECOND = 4_096_000L;

    private static final long TWITTER_EPOCH_MILLIS = SnowflakeLayout.TWITTER.epoch().toEpochMilli();
    private static final int MACHINE = 1;

    private SnowflakeGenerator ours;
    private SnowflakeIdGenerator agrona;
    private Snowflake hutool;
    private TsidFactory tsid;

    /** One generator of each kind, shared by the benchmark's threads. */
    @Setup
    public void setUp() {
        ours = SnowflakeGenerator.builder().layout(SnowflakeLayout.TWITTER).machineId(MACHINE).build();
        agrona = new SnowflakeIdGenerator(10, 12, MACHINE, TWITTER_EPOCH_MILLIS, SystemEpochClock.INSTANCE);
        hutool = new Snowflake(null, MACHINE, 0, false); // 5 worker + 5 datacenter bits, twepoch
        tsid = TsidFactory.builder().withNodeBits(10).withNode(MACHINE).build();
    }

    /** @return ours */
    @Benchmark
    public long ours() {
        return ours.nextLong();
    }

    /** @return Agrona */
    @Benchmark
    public long agrona() {
        return agrona.nextId();
    }

    /** @return Hutool */
    @Benchmark
    public long hutool() {
        return hutool.nextId();
    }

    /** @return tsid-creator */
    @Benchmark
    public long tsid() {
        return tsid.create().toLong();
    }
}
