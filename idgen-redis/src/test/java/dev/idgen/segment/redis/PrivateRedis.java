package dev.idgen.segment.redis;

import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.testkit.segment.ServerProcess;
import dev.idgen.testkit.segment.StoreOutage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A {@code redis-server} of the test's own ({@link ServerProcess}: a free loopback port, a
 * temporary data dir), run with the settings the test gives ({@code --appendonly yes --appendfsync
 * always}, ...). {@link #stop()} is a {@code SIGKILL}; {@link #start()} starts it again on the same
 * port and files. The binary is {@code -Didgen.test.redis.server} or {@code redis-server} on the
 * PATH; without it the test fails under CI and is skipped elsewhere. The shared server is never
 * touched.
 */
final class PrivateRedis implements StoreOutage, AutoCloseable {

    /** Every write in the append-only file and synced before the answer. */
    static final List<String> DURABLE = List.of("--save", "", "--appendonly", "yes", "--appendfsync", "always");

    final int port;
    private final ServerProcess server;
    private final List<String> settings;

    PrivateRedis(List<String> settings) throws Exception {
        try {
            version();
        } catch (IOException e) {
            String why = "cannot start " + binary() + " (" + e.getMessage() + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(why);
            }
            Assumptions.abort(why + "; skipped outside CI");
        }
        this.settings = List.copyOf(settings);
        this.server = new ServerProcess("redis");
        this.port = server.port();
        start();
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** {@return the server's version, from {@code redis-server --version}} */
    static String version() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(binary(), "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(10, TimeUnit.SECONDS);
        int v = out.indexOf("v=");
        return v < 0 ? "0" : out.substring(v + 2).split("\\s")[0];
    }

    private static String binary() {
        return System.getProperty("idgen.test.redis.server", "redis-server");
    }

    @Override
    public void start() throws Exception {
        List<String> command = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--daemonize", "no", "--dir", server.dir().toString()));
        command.addAll(settings);
        server.start(command, server.listening(), Duration.ofSeconds(20));
    }

    /** Kills the server at once (SIGKILL): what it had not written to its files is gone. */
    @Override
    public void stop() throws Exception {
        server.kill();
    }

    @Override
    public String toString() {
        return String.join(" ", settings);
    }

    @Override
    public void close() throws Exception {
        server.close();
    }
}
