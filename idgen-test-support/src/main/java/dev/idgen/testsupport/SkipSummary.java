package dev.idgen.testsupport;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Ends a test run that skipped something with one plain line: how many tests (or whole classes)
 * were skipped, grouped by what they needed, and the command that installs it. The launcher finds
 * this listener through {@code META-INF/services}, so every module with idgen-test-support on its
 * test class path prints it; a run that skipped nothing prints nothing.
 */
public final class SkipSummary implements TestExecutionListener {

    private static final Pattern NEEDS = Pattern.compile("\\[needs (.+?); install: ([^\\]]+)\\]");

    /** "what (install: command)" to count, in name order; skips without a tag under "other". */
    private final Map<String, Integer> skipped = new TreeMap<>();
    private int tests;

    /** Made by the launcher. */
    public SkipSummary() {
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        count(reason);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (id.isTest()) {
            tests++;
        }
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            count(result.getThrowable().map(Throwable::getMessage).orElse(null));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        line(Path.of(System.getProperty("user.dir")).getFileName().toString()).ifPresent(System.out::println);
    }

    /** {@return the summary line for a run of {@code module}, or empty when nothing was skipped} */
    Optional<String> line(String module) {
        int total = skipped.values().stream().mapToInt(Integer::intValue).sum();
        if (total == 0) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder("idgen tests in ").append(module).append(": ").append(total)
                .append(total == 1 ? " test or class" : " tests or classes").append(" skipped of ").append(tests)
                .append(" run: ");
        String sep = "";
        for (Map.Entry<String, Integer> e : skipped.entrySet()) {
            b.append(sep).append(e.getValue()).append(" needed ").append(e.getKey());
            sep = ", ";
        }
        return Optional.of(b.append(". Or run `bash .ci/run`, which starts every server.").toString());
    }

    void count(String reason) {
        String key = "something else (see the test reports)";
        if (reason != null) {
            Matcher m = NEEDS.matcher(reason);
            if (m.find()) {
                key = m.group(1) + " (install: " + m.group(2) + ")";
            }
        }
        skipped.merge(key, 1, Integer::sum);
    }
}
