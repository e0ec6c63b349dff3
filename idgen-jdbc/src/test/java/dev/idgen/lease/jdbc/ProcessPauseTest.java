package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * A real process pause: a child JVM holding a lease on PostgreSQL writes IDs as fast as it can; it
 * is stopped ({@code kill -STOP}) for longer than the TTL; a second claimer takes the id and makes
 * IDs; the child is continued ({@code kill -CONT}). The two ID sets must be disjoint, the child must
 * be refused, and no call the child started after resuming may return an ID.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@Tag("slow")
class ProcessPauseTest {

    @Test
    void aStoppedHolderResumesRefusedAndNeverRepeatsTheNextHoldersIds() throws Exception {
        TestDatabase db = TestDatabase.POSTGRESQL;
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        Path out = Files.createTempFile(Paths.get("target"), "paused-holder-", ".ids");
        Process child = null;
        try {
            JdbcMachineIdLeaseTest.shortTimings(JdbcMachineIdLease.builder(ds)).table(table).createTableNow();
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            child = new ProcessBuilder(java, "-cp", childClassPath(),
                    PausedHolderChild.class.getName(), table, out.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Process p = child;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    lines.add("error " + e);
                }
            });
            reader.setDaemon(true);
            reader.start();
            String held = lines.poll(30, TimeUnit.SECONDS);
            assertTrue(held != null && held.startsWith("held "), "the child holds the id: " + held);
            Thread.sleep(700); // the child writes IDs and renews

            long stoppedAt = signal("STOP", child);
            JdbcMachineIdLease.Builder b = JdbcMachineIdLeaseTest.shortTimings(JdbcMachineIdLease.builder(ds)).table(table)
                    .maxMachineId(0).owner("B").background(false);
            JdbcMachineIdLease lease = JdbcMachineIdLeaseTest.acquireWithin(b, Duration.ofSeconds(20),
                    Duration.ofMillis(10));
            long bStart = System.currentTimeMillis();
            SnowflakeGenerator gb = SnowflakeGenerator.builder().machineId(lease).build();
            long[] bIds = new long[1 << 21];
            int nb = 0;
            long until = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() - until < 0 && nb < bIds.length) {
                bIds[nb++] = gb.nextLong();
            }
            bIds = Arrays.copyOf(bIds, nb);
            long continuedAt = signal("CONT", child);

            String done = lines.poll(30, TimeUnit.SECONDS);
            assertTrue(done != null && done.startsWith("done "), "the child reports: " + done);
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
            Map<String, Long> r = new HashMap<>();
            for (String kv : done.substring(5).split(" ")) {
                String[] f = kv.split("=");
                r.put(f[0], Long.parseLong(f[1]));
            }
            long[] aIds = read(out);
            assertEquals(r.get("made").longValue(), aIds.length);
            Arrays.sort(bIds);
            long aMax = Long.MIN_VALUE;
            long afterContinue = 0;
            for (long id : aIds) {
                assertTrue(Arrays.binarySearch(bIds, id) < 0, "both made " + SnowflakeLayout.TWITTER.decode(id));
                long ms = SnowflakeLayout.TWITTER.decode(id).timestamp().toEpochMilli();
                aMax = Math.max(aMax, ms);
                if (ms >= continuedAt) {
                    afterContinue++;
                }
            }
            assertTrue(aMax < bStart, "the child made an ID at " + aMax + ", B started at " + bStart);
            assertTrue(r.get("resumedAt") > 0, "the child noticed its stop");
            assertTrue(r.get("refusals") > 0, "the child was refused");
            assertEquals(0, r.get("madeAfterResume"), "calls started after resuming returned IDs");
            assertEquals(0, afterContinue, "IDs stamped after SIGCONT");
            System.out.printf("process pause (PostgreSQL, ttl 3000 ms): child made %d IDs before its stop; stopped"
                    + " %d ms; B claimed %d ms after the stop and made %d IDs; after SIGCONT the child's first"
                    + " refusal came %d ms later, %d refusals, %d IDs from calls started after resuming, %d IDs"
                    + " stamped after SIGCONT; newest child ID %d ms before B's start%n",
                    aIds.length, continuedAt - stoppedAt, bStart - stoppedAt, nb,
                    r.get("firstRefusalAfterResume") - continuedAt, r.get("refusals"), r.get("madeAfterResume"),
                    afterContinue, bStart - aMax);
            lease.close();
        } finally {
            if (child != null && child.isAlive()) {
                signal("CONT", child);
                child.destroyForcibly();
            }
            Files.deleteIfExists(out);
            db.drop(table);
        }
    }

    private static long signal(String sig, Process p) throws IOException, InterruptedException {
        long at = System.currentTimeMillis();
        Process kill = new ProcessBuilder(List.of("kill", "-" + sig, Long.toString(p.pid()))).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + sig);
        return at;
    }

    private static long[] read(Path file) throws IOException {
        long n = Files.size(file) / 8;
        long[] ids = new long[(int) n];
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file),
                1 << 20))) {
            for (int i = 0; i < n; i++) {
                ids[i] = in.readLong();
            }
        } catch (EOFException e) {
            throw new IOException("short file", e);
        }
        return ids;
    }

    /**
     * The test's own classes and dependencies as a plain class path for the child JVM: surefire puts
     * this module (it has a module-info) and idgen-core on the module path, the rest on the class path.
     */
    private static String childClassPath() {
        String modules = System.getProperty("jdk.module.path", "");
        String classes = System.getProperty("java.class.path", "");
        return modules.isEmpty() ? classes : modules + java.io.File.pathSeparator + classes;
    }
}
