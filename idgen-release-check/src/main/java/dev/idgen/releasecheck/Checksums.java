package dev.idgen.releasecheck;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The checksum files a Maven repository keeps beside each file: {@code .md5} and {@code .sha1}
 * (Central requires both), {@code .sha256} and {@code .sha512} (Central accepts them), each the
 * lower-case hex digest alone, as Maven writes them.
 */
public final class Checksums {

    /** Algorithm and file suffix, the required ones first. */
    static final List<String[]> KINDS = List.of(
            new String[] {"MD5", ".md5"}, new String[] {"SHA-1", ".sha1"},
            new String[] {"SHA-256", ".sha256"}, new String[] {"SHA-512", ".sha512"});

    /** Central rejects a file without these. */
    static final List<String> REQUIRED = List.of(".md5", ".sha1");

    private Checksums() {
    }

    /**
     * Writes every checksum file of {@code file} beside it.
     *
     * @param file a file of the bundle
     * @throws IOException when the file cannot be read or a checksum written
     */
    public static void write(Path file) throws IOException {
        for (String[] kind : KINDS) {
            Files.writeString(sibling(file, kind[1]), digest(file, kind[0]), StandardCharsets.US_ASCII);
        }
    }

    /**
     * Checks the required checksum files of {@code file}: present and equal to the file's digest.
     *
     * @param file a file of the bundle
     * @return what is missing or wrong, or empty
     * @throws IOException when a file cannot be read
     */
    public static Optional<String> check(Path file) throws IOException {
        for (String[] kind : KINDS) {
            Path sum = sibling(file, kind[1]);
            if (!Files.exists(sum)) {
                if (REQUIRED.contains(kind[1])) {
                    return Optional.of("no " + sum.getFileName() + " checksum");
                }
                continue;
            }
            String written = Files.readString(sum, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
            if (!written.equalsIgnoreCase(digest(file, kind[0]))) {
                return Optional.of(sum.getFileName() + " does not match the file");
            }
        }
        return Optional.empty();
    }

    static Path sibling(Path file, String suffix) {
        return file.resolveSibling(file.getFileName() + suffix);
    }

    private static String digest(Path file, String algorithm) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has " + algorithm, e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                md.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
