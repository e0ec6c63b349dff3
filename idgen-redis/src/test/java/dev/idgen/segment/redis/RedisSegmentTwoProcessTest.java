package dev.idgen.segment.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testkit.segment.TwoProcessReport;
import dev.idgen.testkit.segment.TwoProcessRun;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two processes × 4 threads on one counter of a private {@code redis-server} with
 * {@code appendonly yes} and {@code appendfsync always} (an acknowledged INCRBY is on disk), which
 * the test kills (SIGKILL) mid-run and starts again on the same port and data after 3 s. Every
 * number must be distinct, each thread's must increase, none above the key's value after the run,
 * and callers must have been told only once their generator held nothing. Both runs are in the slow
 * tier (tag {@code slow}, run by {@code .ci/run}): 200,000 numbers a thread, and the issue's
 * 1,000,000 (also tagged {@code issue-scale}).
 */
@Tag("slow")
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
        try (PrivateRedis redis = new PrivateRedis(PrivateRedis.DURABLE)) {
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
}
