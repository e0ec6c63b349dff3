package dev.idgen.releasecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChecksumsTest {

    @TempDir
    Path dir;

    @Test
    void writesTheDigestsOfTheFileAsLowerCaseHex() throws IOException {
        Path file = dir.resolve("a.txt");
        Files.writeString(file, "abc", StandardCharsets.US_ASCII);
        Checksums.write(file);
        // the FIPS 180 / RFC 1321 test vectors for "abc"
        assertEquals("900150983cd24fb0d6963f7d28e17f72", Files.readString(dir.resolve("a.txt.md5")));
        assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", Files.readString(dir.resolve("a.txt.sha1")));
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                Files.readString(dir.resolve("a.txt.sha256")));
        assertEquals(Optional.empty(), Checksums.check(file));
    }

    @Test
    void aChangedFileNoLongerMatchesItsChecksum() throws IOException {
        Path file = dir.resolve("a.jar");
        Files.writeString(file, "abc", StandardCharsets.US_ASCII);
        Checksums.write(file);
        Files.writeString(file, "abd", StandardCharsets.US_ASCII);
        assertEquals(Optional.of("a.jar.md5 does not match the file"), Checksums.check(file));
    }

    @Test
    void aMissingRequiredChecksumIsNamed() throws IOException {
        Path file = dir.resolve("a.pom");
        Files.writeString(file, "<project/>", StandardCharsets.US_ASCII);
        Checksums.write(file);
        Files.delete(dir.resolve("a.pom.sha1"));
        assertEquals(Optional.of("no a.pom.sha1 checksum"), Checksums.check(file));
    }
}
