package dev.idgen.segment.jdbc;

import dev.idgen.testkit.segment.ServerProcess;
import dev.idgen.testkit.segment.StoreOutage;
import dev.idgen.testsupport.Missing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL or MariaDB server of the test's own, from the machine's binaries (Debian's
 * {@code postgresql} under {@code /usr/lib/postgresql/<version>/bin}, {@code /usr/sbin/mariadbd} and
 * {@code mariadb-install-db}), on a free loopback port with a temporary data dir, run with the
 * settings the test gives. {@link #stop()} kills the server and every process it started
 * ({@code SIGKILL}, as a crash would); {@link #start()} starts it on the same port and data, which
 * runs the engine's crash recovery. As root, PostgreSQL runs in a user namespace of its own
 * ({@code unshare -U}), where it is no longer uid 0 but still owns its files. The shared servers are
 * never touched.
 */
final class CrashableDatabase implements StoreOutage, AutoCloseable {

    enum Engine { POSTGRESQL, MARIADB }

    private final Engine engine;
    private final ServerProcess server;
    private final Path dir;
    private final int port;
    private List<String> settings;

    CrashableDatabase(Engine engine, List<String> settings) throws Exception {
        this.engine = engine;
        this.settings = List.copyOf(settings);
        this.server = new ServerProcess("crash-" + engine.name().toLowerCase(java.util.Locale.ROOT));
        this.port = server.port();
        this.dir = server.dir();
        if (engine == Engine.POSTGRESQL) {
            run(prefixed(postgresBin("initdb"), "-D", dir.resolve("data").toString(), "-U", "postgres", "-A", "trust",
                    "-E", "UTF8", "--no-locale"));
        } else {
            run(List.of(binary("/usr/bin/mariadb-install-db", "mariadb-server"), "--no-defaults",
                    "--datadir=" + dir.resolve("data"), "--user=root", "--skip-test-db",
                    "--auth-root-authentication-method=normal"));
        }
        start();
    }

    String url() {
        return engine == Engine.POSTGRESQL ? "jdbc:postgresql://127.0.0.1:" + port + "/postgres"
                : "jdbc:mariadb://127.0.0.1:" + port + "/test";
    }

    String user() {
        return engine == Engine.POSTGRESQL ? "postgres" : "root";
    }

    /** The settings the next {@link #start()} runs with. */
    void settings(List<String> next) {
        this.settings = List.copyOf(next);
    }

    @Override
    public void start() throws Exception {
        List<String> command;
        if (engine == Engine.POSTGRESQL) {
            List<String> args = new ArrayList<>(List.of("-D", dir.resolve("data").toString(), "-p",
                    Integer.toString(port), "-h", "127.0.0.1", "-k", dir.toString(), "-c", "max_connections=40"));
            settings.forEach(s -> args.addAll(List.of("-c", s)));
            command = prefixed(postgresBin("postgres"), args.toArray(String[]::new));
        } else {
            command = new ArrayList<>(List.of(binary("/usr/sbin/mariadbd", "mariadb-server"), "--no-defaults",
                    "--datadir=" + dir.resolve("data"), "--port=" + port, "--bind-address=127.0.0.1",
                    "--socket=" + dir.resolve("mysqld.sock"), "--user=root", "--skip-grant-tables",
                    "--innodb-buffer-pool-size=32M", "--pid-file=" + dir.resolve("mysqld.pid")));
            settings.forEach(s -> command.add("--" + s));
        }
        String base = engine == Engine.POSTGRESQL ? url() : "jdbc:mariadb://127.0.0.1:" + port + "/";
        server.start(command, () -> {
            try (Connection c = DriverManager.getConnection(base, user(), "")) {
                if (engine == Engine.MARIADB) {
                    try (Statement st = c.createStatement()) {
                        st.execute("CREATE DATABASE IF NOT EXISTS test");
                    }
                }
            }
        }, Duration.ofSeconds(90));
    }

    /** Kills the server and its children at once ({@code SIGKILL}): what it had not written is gone. */
    @Override
    public void stop() throws Exception {
        server.kill();
    }

    @Override
    public void close() throws Exception {
        server.close();
    }

    private static String postgresBin(String tool) {
        String configured = System.getProperty("idgen.test.postgresql.bin");
        if (configured != null) {
            return configured + "/" + tool;
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin/" + tool)).filter(Files::isExecutable)
                    .max(Comparator.comparing(p -> Integer.parseInt(p.getParent().getParent().getFileName().toString())))
                    .map(Path::toString).orElseThrow(() -> new IOException("no " + tool));
        } catch (IOException | RuntimeException e) {
            throw Missing.server("PostgreSQL binaries", "no /usr/lib/postgresql/*/bin/" + tool + " (" + e + ")",
                    Missing.apt("postgresql"));
        }
    }

    private static String binary(String path, String pkg) {
        if (!Files.isExecutable(Path.of(path))) {
            throw Missing.server(pkg, "no " + path, Missing.apt(pkg));
        }
        return path;
    }

    private static List<String> prefixed(String binary, String... args) throws IOException {
        List<String> all = new ArrayList<>();
        if (((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0) {
            all.addAll(List.of("unshare", "-U")); // initdb and postgres refuse to run as root
        }
        all.add(binary);
        all.addAll(List.of(args));
        return all;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + out.strip());
        }
    }

    @Override
    public String toString() {
        return engine + " " + String.join(" ", settings);
    }
}
