package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real stop-the-world pause longer than the lease: a child JVM (same classpath) holds machine id 0
 * against a ZooKeeper server in this JVM and writes every ID it makes to a file. The test stops it
 * with {@code SIGSTOP}, lets another client take the id once the child's claim has expired and make
 * IDs, then continues the child with {@code SIGCONT}. When it resumes, the child's application
 * thread runs before its lease's thread can renew; the time fence refuses it anyway, and the two
 * sets of IDs are disjoint. Bounded to about 20 s of real time.
 */
@Tag("slow")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ZkProcessPauseTest {

    private static final Pattern DONE = Pattern.compile("DONE made=(\\d+) gapMs=(-?\\d+) afterGap=(\\d+)"
            + " afterGapPastFence=(\\d+) refusedAfterGap=(\\d+) firstRefusalMicros=(-?\\d+) state=(.*)");

    @TempDir
    Path dir;

    @Test
    void aHolderStoppedLongerThanItsLeaseIsRefusedWhenItResumesAndRepeatsNoId() throws Exception {
        try (ZkTestServer zk = new ZkTestServer()) {
            String path = zk.freshPath("paused");
            Path childIds = dir.resolve("child.ids");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                    PausedHolder.class.getName(), zk.server().getConnectString(), path, childIds.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (Exception e) {
                    lines.add("FAILED " + e);
                }
            }, "child-stdout");
            reader.setDaemon(true);
            reader.start();
            try {
                String ready = lines.poll(40, TimeUnit.SECONDS);
                assertNotNull(ready, "the child did not start");
                assertTrue(ready.startsWith("READY"), ready);
                Thread.sleep(500); // fault test: let the child make IDs for real

                signal("STOP", child.pid());
                long stopped = System.nanoTime();

                CuratorFramework b = zk.client();
                ZkMachineIdLease taken = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (taken == null) {
                    try {
                        taken = ZkTestServer.lease(b, path).maxMachineId(0).acquire();
                    } catch (MachineIdLeaseException e) {
                        if (System.nanoTime() > deadline) {
                            fail("the stopped child's id was never freed: " + e.getMessage());
                        }
                        Thread.sleep(50);
                    }
                }
                long takenAfter = (System.nanoTime() - stopped) / 1_000_000;
                try (ZkMachineIdLease lease = taken) {
                    SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(lease).build();
                    Set<Long> bMade = new HashSet<>();
                    AtomicBoolean stop = new AtomicBoolean();
                    Thread bThread = new Thread(() -> {
                        while (!stop.get()) {
                            for (int i = 0; i < 200; i++) {
                                bMade.add(bIds.nextLong());
                            }
                            LockSupport.parkNanos(1_000_000);
                        }
                    }, "holder-b");
                    bThread.start();
                    Thread.sleep(800);

                    signal("CONT", child.pid());
                    long continued = System.nanoTime();
                    String done = lines.poll(30, TimeUnit.SECONDS);
                    stop.set(true);
                    bThread.join();
                    assertNotNull(done, "the child did not finish after SIGCONT");
                    Matcher m = DONE.matcher(done);
                    assertTrue(m.matches(), done);
                    assertTrue(child.waitFor(10, TimeUnit.SECONDS));

                    Set<Long> childMade = readIds(childIds);
                    long made = Long.parseLong(m.group(1));
                    long gapMs = Long.parseLong(m.group(2));
                    long afterGap = Long.parseLong(m.group(3));
                    long pastFence = Long.parseLong(m.group(4));
                    long refused = Long.parseLong(m.group(5));
                    long firstRefusalMicros = Long.parseLong(m.group(6));
                    assertEquals(made, childMade.size(), "every ID the child made is in its file, once");
                    assertTrue(made > 1000, "the child made IDs before the pause: " + made);
                    assertTrue(gapMs > ZkTestServer.TTL.toMillis(), "the child saw its pause: " + gapMs + " ms");
                    assertTrue(refused > 0, "the child was refused after it resumed: " + done);
                    assertEquals(0, pastFence, "IDs the child returned after resuming past its fence");
                    assertTrue(bMade.size() > 1000, "the new holder made IDs: " + bMade.size());
                    Set<Long> both = new HashSet<>(childMade);
                    both.retainAll(bMade);
                    assertEquals(Set.of(), both, "IDs made by both holders");
                    System.out.printf("SIGSTOP %d ms (ttl %d ms): new holder given the id after %d ms;"
                            + " after SIGCONT the child returned %d IDs (%d past its fence), was refused %d"
                            + " times, first refusal %d us after resuming; %d child IDs and %d new-holder IDs,"
                            + " 0 in common; child finished %d ms after SIGCONT%n",
                            gapMs, ZkTestServer.TTL.toMillis(), takenAfter, afterGap, pastFence, refused,
                            firstRefusalMicros, childMade.size(), bMade.size(),
                            (System.nanoTime() - continued) / 1_000_000);
                }
            } finally {
                if (child.isAlive()) {
                    signal("CONT", child.pid());
                    child.destroyForcibly();
                }
            }
        }
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " " + pid);
    }

    private static Set<Long> readIds(Path file) throws Exception {
        Set<Long> ids = new HashSet<>();
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
            for (;;) {
                ids.add(in.readLong());
            }
        } catch (EOFException end) {
            return ids;
        }
    }
}
