package dev.idgen.segment.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testkit.segment.StoreOutage;
import dev.idgen.testkit.segment.TwoProcessReport;
import dev.idgen.testkit.segment.TwoProcessRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes × 4 threads on one counter of a real ZooKeeper server (Curator's TestingServer),
 * stopped mid-run and restarted on the same port and data after 3 s. Every number must be distinct,
 * each thread's must increase, none above the counter's value after the run, and callers must have
 * been told only once their generator held nothing. Both runs are in the slow tier (tag
 * {@code slow}, run by {@code .ci/run}): 200,000 numbers a thread, and the issue's 1,000,000 (also
 * tagged {@code issue-scale}).
 */
@Tag("slow")
class ZkSegmentTwoProcessTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void twoProcessesNeverShareANumberAcrossARestartAndFailOnlyWhenSpent() throws Exception {
        run(200_000);
    }

    @Test
    @Tag("issue-scale")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void issueScaleAMillionNumbersPerThread() throws Exception {
        run(1_000_000);
    }

    private static void run(int perThread) throws Exception {
        try (TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true)) {
            String path = "/two/segments";
            TwoProcessReport r = TwoProcessRun.builder()
                    .opener(ZkStoreOpener.class, server.getConnectString(), path)
                    .name("orders").step(1000).perThread(perThread)
                    .warmUp(Duration.ofMillis(perThread / 80)).outage(new StoreOutage() {
                        @Override
                        public void stop() throws Exception {
                            server.stop();
                        }

                        @Override
                        public void start() throws Exception {
                            server.restart();
                        }
                    }, Duration.ofSeconds(3)).directory(Path.of("target")).build().run();
            System.out.println("ZooKeeper (stop, 3 s, restart), " + perThread + " a thread: " + r.summary()
                    + "; first errors " + r.firstFailures());
            assertEquals(8L * perThread, r.distinct());
            r.checkErrorsOnlyOnceSpent("'orders'", "zookeeper path " + path);
            try (CuratorFramework c = CuratorFrameworkFactory.newClient(server.getConnectString(),
                    new RetryNTimes(3, 100))) {
                c.start();
                assertTrue(c.blockUntilConnected(10, TimeUnit.SECONDS));
                long granted = Long.parseLong(new String(c.getData().forPath(path + "/orders"),
                        StandardCharsets.US_ASCII));
                assertTrue(r.lowest() >= 1 && r.highest() <= granted,
                        "numbers " + r.lowest() + ".." + r.highest() + " outside the granted 1.." + granted);
            }
        }
    }
}
