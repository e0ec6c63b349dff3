package dev.idgen.segment.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.testkit.segment.StoreOutage;
import dev.idgen.testkit.segment.TwoProcessReport;
import dev.idgen.testkit.segment.TwoProcessRun;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes × 4 threads on one counter of a private {@code redis-server} with
 * {@code appendonly yes} and {@code appendfsync always} (an acknowledged INCRBY is on disk), which
 * the test kills (SIGKILL) mid-run and starts again on the same port and data after 3 s. Every
 * number must be distinct, each thread's must increase, none above the key's value after the run,
 * and callers must have been told only once their generator held nothing. {@code mvn verify} runs
 * 200,000 numbers a thread; the issue's 1,000,000 is tagged {@code issue-scale}.
 */
class RedisSegmentTwoProcessTest {

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void twoProcessesNeverShareANumberAcrossAKillAndFailOnlyWhenSpent() throws Exception {
        run(200_000);
    }

    @Test
    @Tag("issue-scale")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void issueScaleAMillionNumbersPerThread() throws Exception {
        run(1_000_000);
    }

    private static void run(int perThread) throws Exception {
        try (DurableRedis redis = new DurableRedis()) {
            String url = "redis://127.0.0.1:" + redis.port;
            String prefix = "idgen:two:";
            TwoProcessReport r = TwoProcessRun.builder().opener(RedisStoreOpener.class, url, prefix)
                    .name("orders").step(1000).perThread(perThread)
                    .warmUp(Duration.ofMillis(perThread / 80)).outage(redis, Duration.ofSeconds(3))
                    .directory(Path.of("target")).build().run();
            System.out.println("Redis (SIGKILL, 3 s, restart), " + perThread + " a thread: " + r.summary()
                    + "; first errors " + r.firstFailures());
            assertEquals(8L * perThread, r.distinct());
            r.checkErrorsOnlyOnceSpent("'orders'", "redis key prefix " + prefix);
            RedisClient client = RedisClient.create(url);
            try (StatefulRedisConnection<String, String> c = client.connect()) {
                long granted = Long.parseLong(c.sync().get(prefix + "orders"));
                assertTrue(r.lowest() >= 1 && r.highest() <= granted,
                        "numbers " + r.lowest() + ".." + r.highest() + " outside the granted 1.." + granted);
            } finally {
                client.shutdown();
            }
        }
    }

    /** A private redis-server that persists every write before answering; stop() is a SIGKILL. */
    private static final class DurableRedis implements StoreOutage, AutoCloseable {
        final int port;
        private final Path dir;
        private Process process;

        DurableRedis() throws Exception {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            dir = Files.createTempDirectory("idgen-redis-aof-");
            start();
        }

        @Override
        public void start() throws Exception {
            String binary = System.getProperty("idgen.test.redis.server", "redis-server");
            ProcessBuilder pb = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no",
                    "--dir", dir.toString());
            pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                    dir.resolve("redis.log").toFile()));
            try {
                process = pb.start();
            } catch (IOException e) {
                String why = "cannot start " + binary + " (" + e.getMessage() + ")";
                if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                    fail(why);
                }
                Assumptions.abort(why + "; skipped outside CI");
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    return;
                } catch (IOException e) {
                    if (!process.isAlive() || System.nanoTime() - end > 0) {
                        fail("redis-server on port " + port + " did not start; log: "
                                + Files.readString(dir.resolve("redis.log")));
                    }
                    Thread.sleep(20);
                }
            }
        }

        @Override
        public void stop() throws Exception {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            if (process != null && process.isAlive()) {
                stop();
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
