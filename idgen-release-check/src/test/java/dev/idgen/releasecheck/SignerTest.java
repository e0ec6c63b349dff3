package dev.idgen.releasecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signing with the throwaway key: needs gpg, which CI's machine has (the test fails there without it). */
class SignerTest {

    @TempDir
    Path dir;

    @Test
    void signsWithAThrowawayKeyAndCatchesAChangedFile() throws IOException {
        try (Signer signer = Signer.start()) {
            if (signer.skipReason().isPresent()) {
                assertFalse("true".equals(System.getenv("CI")), "CI has gpg: " + signer.skipReason().get());
                assumeTrue(false, "gpg is not usable here: " + signer.skipReason().get());
            }
            Path file = dir.resolve("lib-1.0.jar");
            Files.writeString(file, "content", StandardCharsets.US_ASCII);
            assertEquals(Optional.empty(), signer.sign(file));
            assertTrue(Files.readString(dir.resolve("lib-1.0.jar.asc")).startsWith("-----BEGIN PGP SIGNATURE-----"));
            assertEquals(Optional.empty(), signer.verify(file));

            Files.writeString(file, "changed", StandardCharsets.US_ASCII);
            assertTrue(signer.verify(file).orElseThrow().startsWith("lib-1.0.jar.asc does not verify"));
        }
    }

    @Test
    void aFileWithoutSignatureIsNamed() throws IOException {
        Path file = dir.resolve("lib-1.0.pom");
        Files.writeString(file, "<project/>", StandardCharsets.US_ASCII);
        assertEquals(Optional.of("no lib-1.0.pom.asc signature"), Signer.none("unit test").verify(file));
    }

    @Test
    void aSignerWithoutGpgSaysWhy() {
        Signer none = Signer.none("no gpg on the PATH");
        assertEquals(Optional.of("no gpg on the PATH"), none.skipReason());
        none.close();
    }
}
