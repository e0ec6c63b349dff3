package dev.idgen.lease.zookeeper;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;

/**
 * The child process of {@link ZkProcessPauseTest}: holds machine id 0 under a path with a ZooKeeper
 * lease and makes IDs as fast as a paced loop allows (about 200 per millisecond), writing each to a
 * file. The parent stops it with {@code SIGSTOP} and continues it with {@code SIGCONT}; the child
 * notices the gap itself (two calls more than a second apart), runs on for 1.5 s, prints what it
 * saw after the gap and exits.
 *
 * <p>Arguments: connect string, path, file for the IDs.
 */
final class PausedHolder {

    private PausedHolder() {
    }

    public static void main(String[] args) throws Exception {
        String connect = args[0];
        String path = args[1];
        Path out = Path.of(args[2]);
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connect)
                .sessionTimeoutMs(ZkTestServer.SESSION_MS).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100))
                .build();
        client.start();
        if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
            System.out.println("FAILED not connected");
            System.exit(2);
        }
        ZkMachineIdLease lease = ZkTestServer.lease(client, path).maxMachineId(0).acquire();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        SnowflakeLayout layout = ids.layout();
        long made = 0;
        long afterGap = 0;
        long afterGapPastFence = 0;
        long refusedAfterGap = 0;
        long firstRefusalMicros = -1;
        long gapMillis = -1;
        long fenceBeforeGap = Long.MIN_VALUE;
        long gapAt = -1;
        long previous = System.nanoTime();
        try (DataOutputStream file = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out), 1 << 16))) {
            System.out.println("READY fence=" + lease.fence());
            System.out.flush();
            for (;;) {
                if (gapAt < 0) {
                    fenceBeforeGap = lease.fence().equals(java.time.Instant.MIN) ? fenceBeforeGap
                            : lease.fence().toEpochMilli();
                }
                for (int i = 0; i < 200; i++) {
                    long now = System.nanoTime();
                    if (gapAt < 0 && now - previous > 1_000_000_000L) {
                        gapAt = now;
                        gapMillis = (now - previous) / 1_000_000;
                    }
                    previous = now;
                    try {
                        long id = ids.nextLong();
                        file.writeLong(id);
                        made++;
                        if (gapAt >= 0) {
                            afterGap++;
                            if (layout.decode(id).timestamp().toEpochMilli() >= fenceBeforeGap) {
                                afterGapPastFence++;
                            }
                        }
                    } catch (MachineIdLostException e) {
                        if (gapAt >= 0) {
                            refusedAfterGap++;
                            if (firstRefusalMicros < 0) {
                                firstRefusalMicros = (System.nanoTime() - gapAt) / 1_000;
                            }
                        }
                    }
                }
                file.flush();
                if (gapAt >= 0 && System.nanoTime() - gapAt > 1_500_000_000L) {
                    break;
                }
                LockSupport.parkNanos(1_000_000);
            }
        }
        System.out.println("DONE made=" + made + " gapMs=" + gapMillis + " afterGap=" + afterGap
                + " afterGapPastFence=" + afterGapPastFence + " refusedAfterGap=" + refusedAfterGap
                + " firstRefusalMicros=" + firstRefusalMicros + " state=" + lease);
        System.out.flush();
        Runtime.getRuntime().halt(0); // no clean-up: the parent reads the file
    }
}
