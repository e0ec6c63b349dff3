package dev.idgen.lease.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A private in-process ZooKeeper server (Curator's {@code TestingServer}, 200 ms ticks) for one test,
 * and whatever the test opens on it: closed together, last opened first.
 */
final class ZkTestServer implements AutoCloseable {

    /** The Curator clients' session timeout: only the connection's, the leases do not depend on it. */
    static final int SESSION_MS = 3000;
    /**
     * The test leases' ttl; with renewals every 400 ms, a 600 ms skew bound and a 300 ms margin, a holder
     * cut off is fenced within 1.4 s. The skew bound is wide enough that a quarter of it (the suite's
     * narrow bound) still takes a request slowed to 150 ms by a loaded machine.
     */
    static final Duration TTL = Duration.ofSeconds(3);

    private static final AtomicInteger PATHS = new AtomicInteger();

    private final TestingServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private CuratorFramework admin;

    ZkTestServer() throws Exception {
        server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1), true);
    }

    TestingServer server() {
        return server;
    }

    /** {@return a started client of this server, connected} */
    CuratorFramework client() {
        return client(server.getConnectString());
    }

    /** {@return a started client of {@code connectString}, connected, closed with this server} */
    CuratorFramework client(String connectString) {
        return track(connect(connectString));
    }

    /** {@return a started client, connected; the caller closes it} */
    static CuratorFramework connect(String connectString) {
        return connect(connectString, SESSION_MS);
    }

    /**
     * {@return a started client with the session timeout given, connected; the caller closes it. A
     * request on a silenced connection fails after two thirds of the session timeout}
     */
    static CuratorFramework connect(String connectString, int sessionMillis) {
        CuratorFramework c = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(sessionMillis).connectionTimeoutMs(1000).retryPolicy(new RetryForever(100)).build();
        c.start();
        try {
            assertTrue(c.blockUntilConnected(20, TimeUnit.SECONDS), "connected to ZooKeeper at " + connectString);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return c;
    }

    /** {@return the client the tests use to look at and change znodes behind the leases' backs} */
    synchronized CuratorFramework admin() {
        if (admin == null) {
            admin = client();
        }
        return admin;
    }

    synchronized <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    /**
     * {@return a path no test used, initialised as new ({@code initializeNewNamespace()}, as an
     * operator provisions a path once), so its first claim does not wait a ttl}
     */
    String freshPath(String name) {
        String path = "/" + name + "-" + PATHS.incrementAndGet();
        assertTrue(lease(admin(), path).initializeNewNamespace(), "a new namespace record under " + path);
        return path;
    }

    /** {@return a builder with the test timings: ttl 3 s, renewals every 400 ms, skew bound 600 ms} */
    static ZkMachineIdLease.Builder lease(CuratorFramework client, String path) {
        return ZkMachineIdLease.builder(client).path(path).ttl(TTL).renewEvery(Duration.ofMillis(400))
                .maxClockSkew(Duration.ofMillis(600));
    }

    /** Waits for {@code condition}, polling every millisecond, and fails naming {@code what} after {@code limit}. */
    static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        Collections.reverse(opened);
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing " + c + ": " + e, e);
            }
        }
        server.close();
    }
}
