package dev.idgen.segment.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.idgen.testkit.segment.CrashRestartRun;
import dev.idgen.testkit.segment.ServerProcess;
import dev.idgen.testkit.segment.StoreOutage;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A ZooKeeper server in a child JVM ({@code ZooKeeperServerMain}, its default {@code forceSync=yes}:
 * a write is synced to the transaction log before it is acknowledged), killed ({@code SIGKILL}) right
 * after a grant and started again on the same port and data, five times: every grant is kept.
 * Tagged {@code slow}: a ZooKeeper JVM started six times takes 40 s here.
 */
@Tag("slow")
class ZkStoreCrashTest {

    private static final int KILLS = 5;
    private final List<CuratorFramework> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(CuratorFramework::close);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyGrantSurvivesAKillRightAfterIt() throws Exception {
        try (ChildZooKeeper zk = new ChildZooKeeper()) {
            CrashRestartRun.Report r = CrashRestartRun.run(round -> {
                CuratorFramework c = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + zk.port)
                        .sessionTimeoutMs(10_000).connectionTimeoutMs(5_000).retryPolicy(new RetryNTimes(5, 200))
                        .build();
                clients.add(c);
                c.start();
                if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                    throw new IOException("no connection to the restarted ZooKeeper within 30 s");
                }
                return ZkSegmentSource.builder(c).path("/idgen/crash").build();
            }, zk, "orders", 100, KILLS, 3, Duration.ofSeconds(60));
            System.out.println("ZooKeeper (child JVM, SIGKILL): " + r.summary());
            assertNull(r.refusal());
            assertEquals(KILLS, r.rounds());
            assertEquals(0, r.repeats(), r.summary());
            assertEquals((KILLS * 3 + 1) * 100L, r.numbers());
            assertEquals(KILLS * 3 + 1, r.grants());
        }
    }

    /** {@code ZooKeeperServerMain port dataDir} on this JVM's class path; {@link #stop()} is a SIGKILL. */
    private static final class ChildZooKeeper implements StoreOutage, AutoCloseable {
        final int port;
        private final ServerProcess server;

        ChildZooKeeper() throws Exception {
            server = new ServerProcess("zk-crash");
            port = server.port();
            start();
        }

        @Override
        public void start() throws Exception {
            String modules = System.getProperty("jdk.module.path", "");
            String classes = System.getProperty("java.class.path", "");
            String cp = modules.isEmpty() ? classes : modules + File.pathSeparator + classes;
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            server.start(List.of(java, "-Xmx128m", "-Dzookeeper.admin.enableServer=false", "-cp", cp,
                    "org.apache.zookeeper.server.ZooKeeperServerMain", Integer.toString(port),
                    server.dir().resolve("data").toString()), server.listening(), Duration.ofSeconds(60));
        }

        @Override
        public void stop() throws Exception {
            server.kill();
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }
}
