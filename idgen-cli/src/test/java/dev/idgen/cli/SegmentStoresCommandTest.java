package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.etcd.EtcdCluster;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code idgen segment} on the stores beside JDBC, each a real server: the machine's Redis on
 * 127.0.0.1:6379 under a key prefix of this run, a ZooKeeper TestingServer, a private etcd member;
 * and the flag combinations it refuses.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SegmentStoresCommandTest {

    private static final String REDIS = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    private static long[] numbers(Cli.Run r) {
        assertEquals(0, r.exit(), r.err());
        return Arrays.stream(r.lines()).mapToLong(Long::parseLong).toArray();
    }

    private static String from(long first, long count) {
        return Arrays.toString(LongStream.range(first, first + count).toArray());
    }

    /** Ten numbers in ranges of 4 take 1..12; the next run on the same counter starts at 13. */
    private static void countsAcrossRuns(String... store) {
        String[] first = concat(store, "--name", "orders", "--step", "4", "-n", "10");
        assertEquals(from(1, 10), Arrays.toString(numbers(Cli.run(first))));
        String[] second = concat(store, "--name", "orders", "--step", "4", "-n", "3");
        assertEquals(from(13, 3), Arrays.toString(numbers(Cli.run(second))));
        String[] other = concat(store, "--name", "invoices", "--step", "100", "-n", "2");
        assertEquals(from(1, 2), Arrays.toString(numbers(Cli.run(other))), "another name counts apart");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length + 1);
        all[0] = "segment";
        System.arraycopy(a, 0, all, 1, a.length);
        System.arraycopy(b, 0, all, 1 + a.length, b.length);
        return all;
    }

    @Test
    void redis() {
        String prefix = "idgen:test:cli:" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8) + ":";
        RedisClient client = RedisClient.create(REDIS);
        try (StatefulRedisConnection<String, String> c = connectOrSkip(client)) {
            // the machine's Redis keeps nothing on disk: refused, naming the setting, unless accepted
            Cli.Run refused = Cli.run("segment", "--redis-url", REDIS, "--key-prefix", prefix, "--name", "orders");
            assertTrue(refused.err().contains("appendonly is no") && refused.err().contains("allowLossyStore(true)"),
                    refused.err());
            countsAcrossRuns("--redis-url", REDIS, "--key-prefix", prefix, "--allow-lossy-store");
            assertEquals("16", c.sync().get(prefix + "orders"), "the key holds the last number granted (13 + 4 - 1)");
            c.sync().del(prefix + "orders", prefix + "invoices", prefix);
        } finally {
            client.shutdown();
        }
    }

    private static StatefulRedisConnection<String, String> connectOrSkip(RedisClient client) {
        try {
            StatefulRedisConnection<String, String> c = client.connect();
            c.sync().ping();
            return c;
        } catch (RuntimeException e) {
            String why = "Redis at " + REDIS + " does not answer: " + e.getMessage();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(why, e);
            }
            Assumptions.abort(why + "; skipped outside CI");
            throw e;
        }
    }

    @Test
    void zookeeper() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            countsAcrossRuns("--zookeeper", zk.getConnectString(), "--path", "/cli/segments");
        }
    }

    @Test
    void etcd() {
        withEtcd(endpoint -> countsAcrossRuns("--etcd", endpoint, "--namespace", "/cli/segments"));
    }

    private static void withEtcd(ThrowingConsumer<String> body) {
        try (EtcdCluster etcd = EtcdCluster.start(1)) {
            body.accept(etcd.endpoints()[0]);
        } catch (Throwable t) {
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new AssertionError(t);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --name x                                                         | no store given; expected one of --jdbc-url, --redis-url, --zookeeper, --etcd
            --redis-url redis://127.0.0.1:1 --etcd http://127.0.0.1:1 --name x | --redis-url and --etcd given together; expected exactly one store
            --zookeeper 127.0.0.1:1 --table t --name x                        | --table applies to --jdbc-url only, not to --zookeeper
            --redis-url redis://127.0.0.1:1 --path /p --name x                | --path applies to --zookeeper only, not to --redis-url
            --etcd http://127.0.0.1:1 --key-prefix p: --name x                | --key-prefix applies to --redis-url only, not to --etcd
            --zookeeper 127.0.0.1:1 --allow-lossy-store --name x              | --allow-lossy-store applies to --jdbc-url and --redis-url only, not to --zookeeper
            --jdbc-url jdbc:h2:mem:x --namespace /n --name x                  | --namespace applies to --etcd only, not to --jdbc-url
            --zookeeper 127.0.0.1 --name x                                    | --zookeeper '127.0.0.1': '127.0.0.1' is not host:port
            --etcd 127.0.0.1:2379 --name x                                    | --etcd '127.0.0.1:2379': '127.0.0.1:2379' is not an etcd endpoint
            --redis-url nonsense://x --name x                                 | --redis-url 'nonsense://x' is not a Redis URI
            """)
    void badCombinationsAreUsageErrorsNamingTheFlags(String args, String message) {
        Cli.Run r = Cli.run(concat(args.strip().split("\\s+")));
        assertEquals(IdgenCommand.EXIT_USAGE, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertEquals("", r.out());
    }

    @Test
    void unreachableStoresAreBadInputNamingTheirAddress() {
        for (List<String> store : List.of(List.of("--redis-url", "redis://127.0.0.1:1"),
                List.of("--zookeeper", "127.0.0.1:1"), List.of("--etcd", "http://127.0.0.1:1"))) {
            Cli.Run r = Cli.run(concat(store.toArray(String[]::new), "--name", "x", "-n", "1"));
            assertEquals(IdgenCommand.EXIT_BAD_INPUT, r.exit(), store + ": " + r.err());
            assertTrue(r.err().contains(store.get(1)), store + ": " + r.err());
            assertEquals("", r.out(), store.toString());
        }
    }
}
