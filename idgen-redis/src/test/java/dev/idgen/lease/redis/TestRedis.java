package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.lease.LeaseState;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.testsupport.Missing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The Redis servers the lease tests run on: the machine's server on 127.0.0.1:6379 (another through
 * the system property {@code idgen.test.redis.uri}) for the ordinary tests, under a fresh key prefix
 * deleted afterwards; and private {@code redis-server} processes on free loopback ports for the
 * fault tests, which stop, flush, fill and restart them. A server that does not answer fails the test under CI
 * ({@code CI=true}) and skips it, with the reason, elsewhere.
 */
final class TestRedis implements AutoCloseable {

    static final String URI = System.getProperty("idgen.test.redis.uri", "redis://127.0.0.1:6379");

    /** Reconnects every 100 ms, so a restarted server is found at once (Lettuce's default backs off to 30 s). */
    static final ClientResources RESOURCES = ClientResources.builder()
            .reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();

    final RedisClient client;
    final String prefix;
    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();

    private TestRedis(RedisClient client, String tag) {
        this.client = client;
        this.prefix = "idgen:test:" + tag + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 8) + ":";
    }

    /** The shared server, answering, or the test fails (CI) or is skipped. */
    static TestRedis shared() {
        return shared("");
    }

    /**
     * The shared server, with a key prefix that starts with {@code tag} (a test class's own, so its
     * keys are told apart from every other class's even by eye), answering, or the test fails (CI)
     * or is skipped.
     */
    static TestRedis shared(String tag) {
        RedisClient client = RedisClient.create(RESOURCES, uri(URI));
        TestRedis r = new TestRedis(client, tag.isEmpty() ? "" : tag + ":");
        try {
            r.connect().sync().ping();
        } catch (RuntimeException e) {
            r.close();
            unavailable("Redis at " + URI + " does not answer: " + e.getMessage());
        }
        return r;
    }

    private static RedisURI uri(String uri) {
        RedisURI u = RedisURI.create(uri);
        u.setTimeout(Duration.ofSeconds(5));
        return u;
    }

    static void unavailable(String why) {
        throw Missing.server("Redis", why, Missing.apt("redis-server"));
    }

    /** A new connection, closed with this. */
    StatefulRedisConnection<String, String> connect() {
        StatefulRedisConnection<String, String> c = client.connect();
        synchronized (connections) {
            connections.add(c);
        }
        return c;
    }

    /**
     * A store on this prefix, initialised as new ({@code initializeNewNamespace()}, as a deployment
     * sets a new prefix up), so its first claim does not wait a ttl. (On any server: the eviction
     * policy is the subject of other tests.)
     */
    RedisLeaseStore newStore(StatefulRedisConnection<String, String> connection) {
        if (!RedisMachineIdLease.builder(connection).keyPrefix(prefix).acceptEviction(true)
                .initializeNewNamespace()) {
            throw new IllegalStateException("the namespace under key prefix " + prefix + " is not new");
        }
        return new RedisLeaseStore(connection, prefix, InstantSource.system(), Duration.ofSeconds(5));
    }

    /**
     * Acquires and, for a lease without a background thread, renews until it holds (a claim may
     * wait for its floor: an id just released, a store that forgot, a restart), at most two ttls.
     * Acquires again while a claim fails because one call to Redis took longer than the lease's
     * call timeout (a loaded machine: the 3 s test ttl leaves each call 366 ms), at most for 30 s.
     * For claims whose subject is neither; every other failure is thrown.
     */
    static RedisMachineIdLease acquire(RedisMachineIdLease.Builder b) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int timeouts = 0;
        while (true) {
            RedisMachineIdLease lease;
            try {
                lease = b.acquire();
            } catch (MachineIdLeaseException e) {
                if (!(e.getCause() instanceof TimeoutException) || System.nanoTime() - end > 0) {
                    throw e;
                }
                timeouts++;
                continue;
            }
            if (timeouts > 0) {
                System.out.printf("(acquired after %d claims failed on a call timeout)%n", timeouts);
            }
            long held = System.nanoTime() + lease.timings().ttl().multipliedBy(2).toNanos();
            while (lease.phase() == LeaseState.CLAIMING) {
                if (System.nanoTime() - held > 0) {
                    throw new AssertionError("not held within two ttls of the claim: " + lease);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                lease.renewNow();
            }
            return lease;
        }
    }

    /** Deletes every key under the prefix (its hash tag {@code {prefix}} included), closes the connections and the client. */
    @Override
    public void close() {
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            RedisCommands<String, String> sync = c.sync();
            List<String> batch = new ArrayList<>();
            for (String match : List.of(prefix + "*", "{" + prefix + "}*")) {
                ScanIterator<String> keys = ScanIterator.scan(sync, ScanArgs.Builder.matches(match).limit(500));
                while (keys.hasNext()) {
                    batch.add(keys.next());
                }
            }
            if (!batch.isEmpty()) {
                sync.del(batch.toArray(String[]::new));
            }
        } catch (RedisConnectionException e) {
            // a private server already stopped: its keys went with it (it keeps no data)
        }
        synchronized (connections) {
            connections.forEach(StatefulRedisConnection::close);
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /**
     * A private {@code redis-server} on a free loopback port, without persistence unless asked, that
     * tests stop, flush and restart.
     */
    static final class Server implements AutoCloseable {
        final int port;
        private final List<String> options;
        private Process process;

        /**
         * @param options more command-line options, as {@code "--maxmemory-policy", "allkeys-lru"}
         */
        Server(String... options) throws IOException, InterruptedException {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            this.options = List.of(options);
            start();
        }

        void start() throws IOException, InterruptedException {
            String binary = System.getProperty("idgen.test.redis.server", "redis-server");
            File dir = new File("target/redis-" + port).getAbsoluteFile();
            dir.mkdirs();
            List<String> command = new ArrayList<>(List.of(binary, "--port", Integer.toString(port), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir.getPath()));
            command.addAll(options); // later options win
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.redirectErrorStream(true).redirectOutput(new File("target/redis-" + port + ".log"));
            try {
                process = pb.start();
            } catch (IOException e) {
                unavailable("cannot start " + binary + " (" + e.getMessage() + ")");
                return;
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try (java.net.Socket probe = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
                    return;
                } catch (IOException e) {
                    if (!process.isAlive() || System.nanoTime() - end > 0) {
                        fail("redis-server on port " + port + " did not start; see target/redis-" + port + ".log");
                    }
                    Thread.sleep(20);
                }
            }
        }

        /**
         * Waits until the server has been up for {@code d} or longer by {@code uptime_in_seconds}
         * (less the second it may run ahead): a lease then finds no restart in its way. For a test
         * whose subject is not the fresh start.
         */
        void awaitUptimeAbove(Duration d) throws InterruptedException {
            try (TestRedis r = redis()) {
                RedisCommands<String, String> sync = r.connect().sync();
                while (true) {
                    String info = sync.info("server");
                    long up = Long.parseLong(info.replaceAll("(?s).*uptime_in_seconds:(\\d+).*", "$1"));
                    if ((up - 1) * 1000 >= d.toMillis()) {
                        return;
                    }
                    Thread.sleep(100);
                }
            }
        }

        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }

        TestRedis redis() {
            return redis(port);
        }

        /** A client on {@code port} (this server, or a proxy in front of it). */
        static TestRedis redis(int port) {
            return redis(port, "");
        }

        /** A client on {@code port}, with a key prefix that starts with {@code tag}. */
        static TestRedis redis(int port, String tag) {
            RedisClient client = RedisClient.create(RESOURCES, TestRedis.uri("redis://127.0.0.1:" + port));
            return new TestRedis(client, tag.isEmpty() ? "" : tag + ":");
        }

        @Override
        public void close() throws InterruptedException {
            if (process != null && process.isAlive()) {
                stop();
            }
        }
    }
}
