package dev.idgen.segment.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.testkit.segment.CrashRestartRun;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A private {@code redis-server} killed ({@code SIGKILL}) right after a grant and started again,
 * five times, with each persistence setting: every grant kept, or the source refuses the server
 * naming the setting. A run that accepts a server without persistence shows the repeats the
 * refusal prevents.
 */
@Tag("slow")
class RedisStoreCrashTest {

    private static final int KILLS = 5;
    private final List<RedisClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(RedisClient::shutdown);
    }

    private CrashRestartRun.Report run(PrivateRedis redis, boolean allowLossy) throws Exception {
        // generous: the machine may be loaded by other builds, and a slow answer only slows the test
        RedisURI uri = RedisURI.create(redis.url());
        uri.setTimeout(Duration.ofSeconds(10));
        RedisClient client = RedisClient.create(uri);
        clients.add(client);
        // each round a connection of its own, as a process started after the kill would have
        CrashRestartRun.Report r = CrashRestartRun.run(round -> RedisSegmentSource.builder(client.connect())
                .keyPrefix("idgen:crash:").allowLossyStore(allowLossy).timeout(Duration.ofSeconds(10)).build(),
                redis, "orders", 100, KILLS, 3, Duration.ofSeconds(30));
        System.out.println("Redis " + PrivateRedis.version() + " " + redis + ": " + r.summary());
        return r;
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void appendOnlyWithAlwaysKeepsEveryGrantAcrossKills() throws Exception {
        try (PrivateRedis redis = new PrivateRedis(PrivateRedis.DURABLE)) {
            CrashRestartRun.Report r = run(redis, false);
            assertNull(r.refusal());
            assertEquals(KILLS, r.rounds());
            assertEquals(0, r.repeats(), r.summary());
            assertEquals((KILLS * 3 + 1) * 100L, r.numbers());
        }
    }

    /**
     * {@code appendfsync everysec}: from Redis 7.2 each grant waits for {@code WAITAOF} and is kept;
     * an older server has no way to show a grant is on disk before it is used, and is refused
     * naming the setting.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everySecondIsKeptThroughWaitAofOrRefusedBeforeIt() throws Exception {
        boolean waitAof = RedisSegmentSource.atLeast(PrivateRedis.version(), 7, 2);
        try (PrivateRedis redis = new PrivateRedis(List.of("--save", "", "--appendonly", "yes", "--appendfsync",
                "everysec"))) {
            CrashRestartRun.Report r = run(redis, false);
            assertEquals(0, r.repeats(), r.summary());
            if (waitAof) {
                assertNull(r.refusal());
                assertEquals(KILLS, r.rounds());
            } else {
                assertEquals(0, r.grants(), "refused before the first grant");
                assertTrue(r.refusal().contains("appendfsync is everysec and this server has no WAITAOF (Redis 7.2),"
                        + " so a write is acknowledged before it reaches the disk"), r.refusal());
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aServerWithoutPersistenceIsRefusedNamingTheSetting() throws Exception {
        for (List<String> settings : List.of(List.of("--save", "", "--appendonly", "no"),
                List.of("--save", "3600 1", "--appendonly", "no"))) { // snapshots only: a crash goes back to the last
            try (PrivateRedis redis = new PrivateRedis(settings)) {
                CrashRestartRun.Report r = run(redis, false);
                assertEquals(0, r.grants(), settings + ": " + r.summary());
                assertTrue(r.refusal().startsWith("redis key prefix idgen:crash: is refused: it may lose a grant after"
                        + " acknowledging it, and numbers would then repeat: appendonly is no"), r.refusal());
            }
        }
    }

    /** The control: the same server accepted anyway restarts empty, and the next process counts again from 1. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aServerWithoutPersistenceAcceptedAnywayRepeatsNumbers() throws Exception {
        try (PrivateRedis redis = new PrivateRedis(List.of("--save", "", "--appendonly", "no"))) {
            CrashRestartRun.Report r = run(redis, true);
            assertNull(r.refusal());
            // rounds 1 to 4 count 1..300 again, and the grant after the last kill 1..100
            assertEquals((KILLS - 1) * 300L + 100, r.repeats(), r.summary());
        }
    }
}
