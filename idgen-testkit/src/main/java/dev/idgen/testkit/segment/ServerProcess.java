package dev.idgen.testkit.segment;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A store's server run by a test as a child process, on a loopback port and in a directory of the
 * test's own: started with the command the test gives (its output appended to {@code server.log}
 * in the directory), killed with {@code SIGKILL} together with every process it started, as a crash
 * would, and started again on the same port and files. {@link #close()} kills it and deletes the
 * directory. The stores' kill tests use it for Redis, PostgreSQL, MariaDB and ZooKeeper; the
 * machine's shared servers are never touched.
 */
public final class ServerProcess implements AutoCloseable {

    /** Whether a server just started answers yet. */
    @FunctionalInterface
    public interface Ready {
        /**
         * Returns normally once the server answers.
         *
         * @throws Exception while it does not (the start asks again until its deadline)
         */
        void check() throws Exception;
    }

    private final Path dir;
    private final int port;
    private Process process;

    /**
     * Takes a free loopback port and a temporary directory; starts nothing.
     *
     * @param name a word for the directory's name, e.g. {@code redis}
     * @throws IOException if neither can be had
     */
    public ServerProcess(String name) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        dir = Files.createTempDirectory("idgen-" + name + "-");
    }

    /** {@return the loopback port the server is to listen on} */
    public int port() {
        return port;
    }

    /** {@return the server's directory, for its data and log} */
    public Path dir() {
        return dir;
    }

    /** {@return a check that the port accepts a connection} */
    public Ready listening() {
        return () -> {
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                probe.getPort();
            }
        };
    }

    /**
     * Starts the server and waits until it is ready.
     *
     * @param command the command line
     * @param ready what tells that it answers
     * @param within how long it may take
     * @throws IOException if it cannot be started, dies, or is not ready in time; the message holds
     *     its log
     * @throws InterruptedException if interrupted while waiting
     */
    public void start(List<String> command, Ready ready, Duration within) throws IOException, InterruptedException {
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        long deadline = System.nanoTime() + within.toNanos();
        for (;;) {
            try {
                ready.check();
                return;
            } catch (Exception notYet) {
                if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new IOException(command.get(0) + " on port " + port + " is not ready (" + notYet + "); log: "
                            + log(), notYet);
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * @return what the server wrote so far
     * @throws IOException if its log cannot be read
     */
    public String log() throws IOException {
        Path log = dir.resolve("server.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * Kills the server and every process it started, at once ({@code SIGKILL}): what they had not
     * written to their files is gone. Waits until all have ended.
     *
     * @throws Exception if one does not end within 20 s
     */
    public void kill() throws Exception {
        if (process == null) {
            return;
        }
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        process.destroyForcibly();
        all.forEach(ProcessHandle::destroyForcibly);
        process.waitFor(20, TimeUnit.SECONDS);
        for (ProcessHandle p : all) {
            p.onExit().get(20, TimeUnit.SECONDS);
        }
        process = null;
    }

    /** Kills the server if it runs and deletes its directory. */
    @Override
    public void close() throws Exception {
        kill();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
