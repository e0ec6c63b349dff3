package dev.idgen.releasecheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Signs bundle files as {@code maven-gpg-plugin} does (an ASCII-armoured detached signature,
 * {@code file.asc}), with a key made for this run alone: no passphrase, in a temporary
 * {@code GNUPGHOME} that {@link #close()} deletes, so no real key is ever touched. When gpg is
 * missing or cannot make a key, {@link #start()} gives a signer that signs nothing and says why.
 */
public final class Signer implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 60;

    private final Path home;
    private final String skipReason;

    private Signer(Path home, String skipReason) {
        this.home = home;
        this.skipReason = skipReason;
    }

    /**
     * A signer with a fresh throwaway key, or one that skips signing when gpg is not usable.
     *
     * @return the signer
     */
    public static Signer start() {
        Path home;
        try {
            // short path: gpg-agent's socket lives here and a socket path has a length limit
            home = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "idgen-gpg");
        } catch (IOException e) {
            return none("no temporary GNUPGHOME: " + e.getMessage());
        }
        Signer signer = new Signer(home, null);
        try {
            Result version = signer.gpg("--version");
            if (version.code() != 0) {
                signer.close();
                return none("gpg --version failed: " + version.output());
            }
            Result key = signer.gpg("--batch", "--pinentry-mode", "loopback", "--passphrase", "",
                    "--quick-gen-key", "idgen release check <release-check@idgen.invalid>", "ed25519", "sign", "1d");
            if (key.code() != 0) {
                signer.close();
                return none("gpg could not make a throwaway key: " + key.output());
            }
            return signer;
        } catch (IOException e) {
            signer.close();
            return none("no gpg on the PATH (" + e.getMessage() + ")");
        }
    }

    /**
     * @param reason why nothing is signed
     * @return a signer that signs nothing
     */
    public static Signer none(String reason) {
        return new Signer(null, reason);
    }

    /** @return why this signer signs nothing, or empty when it signs */
    public Optional<String> skipReason() {
        return Optional.ofNullable(skipReason);
    }

    /**
     * Writes {@code file.asc}.
     *
     * @param file a bundle file
     * @return the failure, or empty
     * @throws IOException when gpg cannot be run
     */
    public Optional<String> sign(Path file) throws IOException {
        Result r = gpg("--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", "",
                "--armor", "--detach-sign", "--output", file + ".asc", file.toString());
        return r.code() == 0 ? Optional.empty() : Optional.of("gpg --detach-sign failed: " + r.output());
    }

    /**
     * Checks {@code file.asc} against {@code file}.
     *
     * @param file a bundle file
     * @return the failure, or empty
     * @throws IOException when gpg cannot be run
     */
    public Optional<String> verify(Path file) throws IOException {
        Path asc = Checksums.sibling(file, ".asc");
        if (!Files.exists(asc)) {
            return Optional.of("no " + asc.getFileName() + " signature");
        }
        Result r = gpg("--batch", "--verify", asc.toString(), file.toString());
        return r.code() == 0 ? Optional.empty() : Optional.of(asc.getFileName() + " does not verify: " + r.output());
    }

    private record Result(int code, String output) {
    }

    private Result gpg(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("gpg");
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("GNUPGHOME", home.toString());
        Process process = pb.start();
        process.getOutputStream().close();
        try {
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "gpg did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while gpg ran", e);
        }
    }

    /** Stops this run's gpg-agent and deletes the throwaway key. */
    @Override
    public void close() {
        if (home == null) {
            return;
        }
        try {
            ProcessBuilder pb = new ProcessBuilder("gpgconf", "--kill", "gpg-agent").redirectErrorStream(true);
            pb.environment().put("GNUPGHOME", home.toString());
            Process p = pb.start();
            p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no gpgconf: the agent exits by itself once its home is gone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(home)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a socket the agent removes while we walk; nothing secret is left: the key had no use
        }
    }
}
