package dev.idgen.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time per operation of the benchmark's worker threads, for a shared machine: JMH's own score
 * is wall time, which on an oversubscribed machine (load average well above the core count) counts
 * the time a worker waits for a core. The CPU time the workers were given is not counted that way,
 * so two benchmarks measured minutes apart under a changing load can still be compared by it. It is
 * not immune to load: caches and branch predictors shared with other processes still cost cycles.
 *
 * <p>Use: {@code -prof dev.idgen.jmh.CpuTimeProfiler}. Reported as the secondary result
 * {@code cpu-time}, nanoseconds per operation: the sum of the workers' CPU time in an iteration over
 * the operations measured in it (with 2 threads, as JMH's average time: what one ID costs a thread).
 * Workers are found by JMH's thread name ({@code -jmh-worker-}).
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long before;

    @Override
    public String getDescription() {
        return "CPU time of the benchmark's worker threads per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = workerCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
            IterationResult result) {
        long spent = workerCpuNanos() - before;
        long ops = result.getMetadata().getMeasuredOps();
        if (ops <= 0) {
            return List.of();
        }
        return List.of(new ScalarResult("cpu-time", (double) spent / ops, "ns/op", AggregationPolicy.AVG));
    }

    private long workerCpuNanos() {
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains("-jmh-worker-")) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }
}
