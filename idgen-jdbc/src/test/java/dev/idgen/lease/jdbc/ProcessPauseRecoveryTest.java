package dev.idgen.lease.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.io.BufferedReader;
import java.io.DataInputStream;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Issue 22's recovery target with a real process pause at the builder's DEFAULT timings (ttl 30 s,
 * renewal every 6 s, margin 3 s, skew bound 1 s): a child JVM holding machine id 0 of two is
 * stopped with {@code kill -STOP} until a second holder B has taken id 0; B keeps making IDs; the
 * child is continued. It must be refused for id 0, then make IDs again under id 1 by itself (no
 * restart) within one renewal interval plus one claim, and no ID may be common to the two.
 *
 * <p>It waits out a real 30 s ttl, so it is tagged {@code default-timings}: excluded from
 * {@code mvn verify} (the module's surefire {@code excludedGroups}) and run by {@code .ci/run} on
 * its own.
 */
@Tag("default-timings")
@EnabledOnOs(OS.LINUX)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ProcessPauseRecoveryTest {

    /** One renewal interval at the defaults (ttl / 5). */
    private static final long RENEW_EVERY_MS = 6_000;
    /** What one claim may take on a loaded 2-core machine, on top of the renewal interval. */
    private static final long ONE_CLAIM_MS = 3_000;

    @Test
    void aStoppedHolderWhoseIdWasTakenMakesIdsAgainUnderAnotherIdWithinOneRenewalAndOneClaim() throws Exception {
        TestDatabase db = TestDatabase.POSTGRESQL;
        TestDatabase.Switchable ds = db.dataSource();
        String table = TestDatabase.freshTable();
        Path out = Files.createTempFile(Paths.get("target"), "recovering-holder-", ".ids");
        Process child = null;
        JdbcMachineIdLease lease = null;
        try {
            JdbcMachineIdLease.builder(ds).table(table).createTableNow();
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            child = new ProcessBuilder(java, "-cp", childClassPath(), RecoveringHolderChild.class.getName(), table,
                    out.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
            String held = lines.poll(60, TimeUnit.SECONDS);
            assertEquals("held 0", held, "the child holds the lowest id");
            Thread.sleep(1_000);

            long stoppedAt = signal("STOP", child);
            // B claims exactly id 0 once the child's row has expired (ttl 30 s after its last renewal)
            JdbcMachineIdLease.Builder b = JdbcMachineIdLease.builder(ds).table(table).machineId(0).owner("B");
            lease = JdbcMachineIdLeaseTest.acquireWithin(b, Duration.ofSeconds(60), Duration.ofMillis(200));
            long bClaimedAt = System.currentTimeMillis();
            SnowflakeGenerator gb = SnowflakeGenerator.builder().machineId(lease).build();
            long[] bIds = new long[1 << 22];
            int[] nb = {0};
            AtomicBoolean stopB = new AtomicBoolean();
            Thread bThread = new Thread(() -> {
                while (!stopB.get() && nb[0] < bIds.length - 100) {
                    for (int i = 0; i < 100; i++) {
                        try {
                            bIds[nb[0]++] = gb.nextLong();
                        } catch (MachineIdLostException e) {
                            nb[0]--;
                        }
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            });
            bThread.start();
            Thread.sleep(500);
            long continuedAt = signal("CONT", child);

            String done = lines.poll(90, TimeUnit.SECONDS);
            stopB.set(true);
            bThread.join();
            assertTrue(done != null && done.startsWith("done "), "the child reports: " + done);
            System.out.println("child: " + done);
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
            Map<String, Long> r = new HashMap<>();
            for (String kv : done.substring(5).split(" ")) {
                String[] f = kv.split("=");
                r.put(f[0], Long.parseLong(f[1]));
            }
            long[] aIds = read(out);
            assertEquals(r.get("made").longValue(), aIds.length);
            long[] bSorted = Arrays.copyOf(bIds, nb[0]);
            Arrays.sort(bSorted);
            int common = 0;
            long previous = Long.MIN_VALUE;
            for (long id : aIds) {
                if (Arrays.binarySearch(bSorted, id) >= 0) {
                    common++;
                }
                assertTrue(id > previous, "the child's IDs increase across the pause and the new id");
                previous = id;
            }
            assertEquals(0, common, "IDs made by both holders");
            // refused at once for id 0: no call started after the stop returned an ID under it, the
            // first call after SIGCONT was refused, and no ID of id 0 carries a time at or after SIGCONT
            assertEquals(0, r.get("oldIdAfterResume"), "IDs under the lost id 0 after resuming: " + done);
            assertEquals(1, r.get("firstCallAfterResume"), "the first call after resuming is refused: " + done);
            int before = (int) (aIds.length - r.get("madeAfterResume"));
            long maxBefore = Long.MIN_VALUE;
            for (int i = 0; i < before; i++) {
                maxBefore = Math.max(maxBefore, aIds[i]);
            }
            for (int i = 0; i < aIds.length; i++) {
                SnowflakeId d = SnowflakeLayout.TWITTER.decode(aIds[i]);
                if (d.timestamp().toEpochMilli() >= continuedAt) {
                    assertEquals(1, d.machineId(), "an ID stamped after SIGCONT under the lost id: " + d);
                }
                if (i >= before) {
                    assertTrue(aIds[i] > maxBefore, "an ID after resuming (" + d + ") is not above every ID"
                            + " before the pause (newest " + SnowflakeLayout.TWITTER.decode(maxBefore) + ")");
                }
            }
            assertTrue(r.get("resumedAt") > 0, "the child noticed its stop");
            assertTrue(r.get("madeAfterResume") > 0, "the child makes IDs again without a restart: " + done);
            assertEquals(1, r.get("idAfter"), "the child carries on under the free id: " + done);
            assertTrue(r.get("reclaims") >= 1, "the re-claim is counted: " + done);
            long recovery = r.get("firstAfterResume") - continuedAt;
            assertTrue(recovery <= RENEW_EVERY_MS + ONE_CLAIM_MS, "first ID after SIGCONT came " + recovery
                    + " ms later; the target is one renewal interval (" + RENEW_EVERY_MS + " ms) plus one claim");
            System.out.printf("process pause at default timings (PostgreSQL, ttl 30 s, renew 6 s): stopped %d ms;"
                    + " B claimed id 0 %d ms after the stop and made %d IDs; after SIGCONT the child made IDs again"
                    + " under id %d after %d ms (%d refusals after resuming, %d re-claims); %d IDs in common%n",
                    continuedAt - stoppedAt, bClaimedAt - stoppedAt, nb[0], r.get("idAfter"), recovery,
                    r.get("refusalsAfterResume"), r.get("reclaims"), common);
        } finally {
            if (child != null && child.isAlive()) {
                signal("CONT", child);
                child.destroyForcibly();
            }
            if (lease != null) {
                lease.close();
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
        int n = (int) (Files.size(file) / 8);
        long[] ids = new long[n];
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file),
                1 << 20))) {
            for (int i = 0; i < n; i++) {
                ids[i] = in.readLong();
            }
        }
        return ids;
    }

    private static String childClassPath() {
        String modules = System.getProperty("jdk.module.path", "");
        String classes = System.getProperty("java.class.path", "");
        return modules.isEmpty() ? classes : modules + java.io.File.pathSeparator + classes;
    }
}
