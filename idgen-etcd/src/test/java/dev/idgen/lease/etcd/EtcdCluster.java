package dev.idgen.lease.etcd;

import dev.idgen.testsupport.Missing;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Real etcd members run by the tests as child processes, on free loopback ports, each with a temp
 * data dir that {@link #close()} deletes. The binary is {@code $ETCD_BIN} or {@code etcd} on the
 * {@code PATH} (Debian's {@code etcd-server}); without it the tests are skipped, or fail under
 * {@code CI=true}. Public, in the test jar, for the Spring Boot starter's tests.
 */
public final class EtcdCluster implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final String binary;
    private final int[] clientPorts;
    private final int[] peerPorts;
    private final Path[] dataDirs;
    private final Process[] processes;
    private final String initialCluster;

    private EtcdCluster(String binary, int members) throws IOException {
        this.binary = binary;
        this.clientPorts = new int[members];
        this.peerPorts = new int[members];
        this.dataDirs = new Path[members];
        this.processes = new Process[members];
        for (int i = 0; i < members; i++) {
            clientPorts[i] = freePort();
            peerPorts[i] = freePort();
            dataDirs[i] = Files.createTempDirectory("idgen-etcd-" + i + "-");
        }
        this.initialCluster = IntStream.range(0, members).mapToObj(i -> "m" + i + "=http://127.0.0.1:" + peerPorts[i])
                .collect(Collectors.joining(","));
    }

    /** Starts {@code members} members and waits until the cluster has a leader. */
    public static EtcdCluster start(int members) {
        String bin = binary();
        try {
            EtcdCluster c = new EtcdCluster(bin, members);
            for (int i = 0; i < members; i++) {
                c.launch(i);
            }
            for (int i = 0; i < members; i++) {
                c.awaitHealthy(i, Duration.ofSeconds(20));
            }
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String binary() {
        String env = System.getenv("ETCD_BIN");
        List<String> candidates = new ArrayList<>();
        if (env != null && !env.isBlank()) {
            candidates.add(env);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            candidates.add(dir + "/etcd");
        }
        for (String c : candidates) {
            if (Files.isExecutable(Path.of(c))) {
                return c;
            }
        }
        throw Missing.server("etcd", "no etcd binary ($ETCD_BIN or etcd on the PATH)", Missing.apt("etcd-server"));
    }

    int size() {
        return processes.length;
    }

    String endpoint(int i) {
        return "http://127.0.0.1:" + clientPorts[i];
    }

    int clientPort(int i) {
        return clientPorts[i];
    }

    /** {@return the members' client URLs} */
    public String[] endpoints() {
        return IntStream.range(0, size()).mapToObj(this::endpoint).toArray(String[]::new);
    }

    /** Kills member {@code i} at once (SIGKILL), as a crash or a pulled plug would. */
    public void kill(int i) {
        Process p = processes[i];
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            processes[i] = null;
        }
    }

    /** Deletes member {@code i}'s data (kill it first): started again, it is empty, as a lost disk leaves it. */
    public void wipe(int i) {
        deleteQuietly(dataDirs[i]);
        try {
            Files.createDirectories(dataDirs[i]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts member {@code i} again on its ports and data dir; returns once it is healthy. */
    public void restart(int i) {
        try {
            launch(i);
            awaitHealthy(i, Duration.ofSeconds(20));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts member {@code i} again without waiting. */
    void launch(int i) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(binary,
                "--name", "m" + i,
                "--data-dir", dataDirs[i].toString(),
                "--listen-client-urls", endpoint(i),
                "--advertise-client-urls", endpoint(i),
                "--listen-peer-urls", "http://127.0.0.1:" + peerPorts[i],
                "--initial-advertise-peer-urls", "http://127.0.0.1:" + peerPorts[i],
                "--initial-cluster", initialCluster,
                "--initial-cluster-state", "new",
                "--initial-cluster-token", "idgen-test-" + clientPorts[0],
                "--heartbeat-interval", "50",
                "--election-timeout", "500");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(dataDirs[i].resolveSibling(dataDirs[i].getFileName() + ".log")
                .toFile()));
        processes[i] = pb.start();
    }

    /** Waits until member {@code i} reports healthy (it has a leader and answers). */
    void awaitHealthy(int i, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() - end < 0) {
            Process p = processes[i];
            if (p != null && !p.isAlive()) {
                throw new IllegalStateException("etcd member " + i + " exited with " + p.exitValue() + "; log: "
                        + log(i));
            }
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(endpoint(i) + "/health"))
                        .timeout(Duration.ofMillis(500)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("\"true\"")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(50);
        }
        throw new IllegalStateException("etcd member " + i + " not healthy within " + limit.toMillis() + " ms; log: "
                + log(i));
    }

    private String log(int i) {
        try {
            String s = Files.readString(dataDirs[i].resolveSibling(dataDirs[i].getFileName() + ".log"));
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no log)";
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < size(); i++) {
            kill(i);
        }
        for (Path dir : dataDirs) {
            deleteQuietly(dir);
            deleteQuietly(dir.resolveSibling(dir.getFileName() + ".log"));
        }
    }

    private static void deleteQuietly(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // temp files; the OS cleans up
        }
    }
}
