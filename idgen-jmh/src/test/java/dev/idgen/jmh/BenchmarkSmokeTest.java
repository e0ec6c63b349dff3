package dev.idgen.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark the annotation processor listed for one short iteration, in this JVM, on
 * 1 thread and again on 2 (the thread counts run-report.sh gives), so a benchmark that no longer
 * compiles, sets up or runs fails the build. Not a measurement: nothing here is timed or compared.
 */
class BenchmarkSmokeTest {

    private static final String ALL = "dev\\.idgen\\.jmh\\..*";

    @Test
    void everyListedBenchmarkRunsOnceAndGivesAScore() throws RunnerException {
        Set<String> listed = BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())
                .stream().map(BenchmarkListEntry::getUsername).collect(Collectors.toCollection(TreeSet::new));
        // one method per implementation: 6 randomness sources, 4 + 4 Snowflake, 4 + 4 UUID generators,
        // 5 codec operations
        assertTrue(listed.size() >= 27, "META-INF/BenchmarkList holds only " + listed);
        assertTrue(listed.stream().noneMatch(name -> name.matches(".*_\\d+t")),
                "the thread count is the runner's, not in a method name: " + listed);
        for (int threads : new int[] {1, 2}) {
            assertEquals(listed, runOnce(threads), "benchmarks listed vs benchmarks that gave a result on "
                    + threads + " thread(s)");
        }
    }

    private static Set<String> runOnce(int threads) throws RunnerException {
        // JMH's lock keeps two measuring runs apart; this run measures nothing, and other builds on
        // the same machine may hold the lock while they run their smoke tests
        System.setProperty("jmh.ignoreLock", "true");
        Options options = new OptionsBuilder()
                .include(ALL)
                .forks(0) // in this JVM: cheap, and what it checks is that the code runs
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(20))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .threads(threads)
                .build();
        Collection<RunResult> results = new Runner(options).run();

        Set<String> ran = new TreeSet<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            double score = r.getPrimaryResult().getScore();
            assertTrue(Double.isFinite(score) && score > 0, name + " scored " + score);
            ran.add(name);
        }
        return ran;
    }
}
