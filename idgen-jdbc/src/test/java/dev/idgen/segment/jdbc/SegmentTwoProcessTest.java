package dev.idgen.segment.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.testkit.lease.BlackholeProxy;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes × {@value SegmentWriterChild#THREADS} threads × {@value #PER_THREAD} numbers on
 * one PostgreSQL counter, reached through a proxy this test controls. Mid-run the proxy drops every
 * byte (the store unreachable, as a partition looks to the client) for {@value #PARTITION_MS} ms,
 * then forwards again. Every number must be distinct, each thread's must increase, every number
 * must lie at or below what the store granted, and callers must have been told
 * {@code SegmentUnavailableException} (naming the store, the counter and the step) only while
 * their generator held nothing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SegmentTwoProcessTest {

    private static final int PROCESSES = 2;
    private static final int PER_THREAD = 200_000;
    private static final long STEP = 1000;
    private static final long PARTITION_MS = 3_000;

    @Test
    void twoProcessesNeverShareANumberAcrossAnOutageAndFailOnlyWhenSpent() throws Exception {
        SegmentDatabase db = SegmentDatabase.POSTGRESQL;
        String table = SegmentDatabase.freshTable();
        JdbcSegmentSource.builder(db.dataSource()).table(table).createTable(true).build();
        Path dir = Files.createTempDirectory(Paths.get("target"), "segment-two-process-");
        Process[] children = new Process[PROCESSES];
        try (BlackholeProxy proxy = new BlackholeProxy(java.net.URI.create(db.url().substring(5)).getPort())) {
            // timeouts on every read: a dropped answer must end as an error, never hang a grant
            String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test"
                    + "?connectTimeout=2&socketTimeout=2&loginTimeout=2";
            @SuppressWarnings("unchecked")
            BlockingQueue<String>[] lines = new BlockingQueue[PROCESSES];
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            for (int p = 0; p < PROCESSES; p++) {
                children[p] = new ProcessBuilder(java, "-cp", childClassPath(),
                        SegmentWriterChild.class.getName(), url, table, "orders", Long.toString(STEP),
                        Integer.toString(PER_THREAD), dir.resolve("p" + p).toString())
                        .redirectError(dir.resolve("p" + p + ".log").toFile()).start();
                lines[p] = reader(children[p]);
            }
            for (int p = 0; p < PROCESSES; p++) {
                String started = lines[p].poll(30, TimeUnit.SECONDS);
                assertEquals("started", started, "child " + p + " starts");
            }
            Thread.sleep(1_000); // both count and prefetch
            proxy.partition(true);
            Thread.sleep(PARTITION_MS);
            proxy.partition(false);

            long failures = 0;
            for (int p = 0; p < PROCESSES; p++) {
                String done = lines[p].poll(120, TimeUnit.SECONDS);
                assertTrue(done != null && done.startsWith("done "), "child " + p + " finishes: " + done
                        + " (stderr in " + dir.resolve("p" + p + ".log") + ")");
                assertEquals(0, children[p].waitFor(), "child " + p + " exit code");
                String[] parts = done.split(" ", 4);
                long childFailures = Long.parseLong(parts[1]);
                long whileHolding = Long.parseLong(parts[2]);
                System.out.printf("child %d: %d SegmentUnavailableException, %d while numbers were left;"
                        + " first: %s%n", p, childFailures, whileHolding, parts[3]);
                assertEquals(0, whileHolding, "child " + p + " was told of an outage while it held numbers");
                assertTrue(childFailures > 0, "child " + p + " ran through a " + PARTITION_MS
                        + " ms outage with a buffer of at most 17 ranges and was never told");
                assertTrue(parts[3].contains("'orders'") && parts[3].contains("table " + table)
                        && parts[3].contains("step 1000"), "the error names counter, store and step: " + parts[3]);
                failures += childFailures;
            }

            long[] all = new long[PROCESSES * SegmentWriterChild.THREADS * PER_THREAD];
            int k = 0;
            for (int p = 0; p < PROCESSES; p++) {
                for (int t = 0; t < SegmentWriterChild.THREADS; t++) {
                    long previous = 0;
                    int count = 0;
                    try (DataInputStream in = new DataInputStream(new BufferedInputStream(
                            Files.newInputStream(dir.resolve("p" + p + "-" + t)), 1 << 16))) {
                        while (true) {
                            long n;
                            try {
                                n = in.readLong();
                            } catch (EOFException end) {
                                break;
                            }
                            assertTrue(n > previous, "process " + p + " thread " + t + ": " + n + " after " + previous);
                            previous = n;
                            all[k++] = n;
                            count++;
                        }
                    }
                    assertEquals(PER_THREAD, count, "process " + p + " thread " + t + " numbers");
                }
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                if (all[i] == all[i - 1]) {
                    fail("number " + all[i] + " was handed out twice");
                }
            }
            long granted = lastValue(db, table, "orders");
            assertTrue(all[0] >= 1 && all[all.length - 1] <= granted,
                    "numbers " + all[0] + ".." + all[all.length - 1] + " outside the granted 1.." + granted);
            System.out.printf("%d numbers distinct, %d SegmentUnavailableException in all, store at %d"
                    + " (%d unused: ranges dropped at exit or lost in the outage)%n",
                    all.length, failures, granted, granted - all.length);
        } finally {
            for (Process c : children) {
                if (c != null) {
                    c.destroyForcibly();
                }
            }
            db.drop(table);
        }
    }

    static long lastValue(SegmentDatabase db, String table, String name) throws Exception {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT last_value FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "no row for " + name);
                return rs.getLong(1);
            }
        }
    }

    /** Surefire may put the module under test on the module path: the child gets both as its class path. */
    private static String childClassPath() {
        String modules = System.getProperty("jdk.module.path", "");
        String classes = System.getProperty("java.class.path", "");
        return modules.isEmpty() ? classes : modules + java.io.File.pathSeparator + classes;
    }

    private static BlockingQueue<String> reader(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("error " + e);
            }
        });
        t.setDaemon(true);
        t.start();
        return lines;
    }
}
