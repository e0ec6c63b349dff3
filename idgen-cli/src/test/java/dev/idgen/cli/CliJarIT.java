package dev.idgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.index.model.IndexScoreboard;
import dev.idgen.index.model.IndexStats;
import dev.idgen.index.model.KeySource;
import dev.idgen.uuid.Uuids;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shaded jar as a user runs it: {@code java -jar target/idgen.jar ...} in its own process,
 * output through real pipes (so neither stream is a terminal). Runs in {@code integration-test},
 * after {@code package} has built the jar.
 */
class CliJarIT {

    private static final long TIMEOUT_SECONDS = 120;

    private static Path jar;

    record Run(int exit, String out, String err) {
        String[] lines() {
            return out.isEmpty() ? new String[0] : out.split("\n");
        }
    }

    @BeforeAll
    static void findJar() {
        jar = Path.of(System.getProperty("idgen.jar", "target/idgen.jar"));
        assertTrue(Files.isRegularFile(jar), "no jar at " + jar.toAbsolutePath() + "; run mvn verify");
    }

    static Run run(String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("idgen " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        return new Run(p.exitValue(), out.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), err.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    private static String read(InputStream s) {
        try (s) {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void decodesDiscordsDocumentedId() throws Exception {
        Run r = run("", "decode", "175928847299117063", "--layout", "discord");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("\n  time       2016-04-30T11:18:25.796Z\n"), r.out());
        assertTrue(r.out().contains("\n  worker     1\n  process    0\n  increment  7\n"), r.out());
    }

    @Test
    void decodesTheRfcVersion7ExampleFromStandardInput() throws Exception {
        Run r = run("017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n", "decode", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"version\":7,"), r.out());
        assertTrue(r.out().contains("\"time\":\"2022-02-22T19:22:22Z\""), r.out());
    }

    @Test
    void badInputExitsOneWithOneLineAndNoStackTrace() throws Exception {
        Run r = run("", "decode", "not-an-id");
        assertEquals(1, r.exit());
        assertEquals("", r.out());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().startsWith("idgen decode: 'not-an-id' (9 characters) is not an ID: expected "), r.err());
    }

    @Test
    void usageErrorExitsTwo() throws Exception {
        Run r = run("", "snowflake", "--layout", "flickr");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().contains("'flickr' is not a layout"), r.err());
    }

    @Test
    void countsAndVersion() throws Exception {
        Run s = run("", "snowflake", "-n", "5000", "--machine", "9");
        assertEquals(0, s.exit(), s.err());
        assertEquals(5000, s.lines().length);
        long previous = -1;
        for (String line : s.lines()) {
            long id = Long.parseLong(line);
            assertEquals(9, SnowflakeLayout.TWITTER.decode(id).machineId());
            assertTrue(id > previous);
            previous = id;
        }
        Run v7 = run("", "uuid7", "-n", "3");
        assertEquals(3, v7.lines().length);
        assertEquals(7, Uuids.decode(Uuids.parse(v7.lines()[2])).version());
        Run v = run("", "--version");
        assertTrue(v.out().startsWith("idgen " + System.getProperty("idgen.version") + " "), v.out());
        assertEquals("", v.err());
    }

    @Test
    void indexNumbersAreTheModels() throws Exception {
        Run r = run("", "index", "--keys", "uuid4,uuid7", "--rows", "30000", "--buffer-pool", "16");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err(), "no progress bar into a pipe");
        IndexScoreboard board = IndexScoreboard.builder().rows(30000).generators(4).idsPerMilli(1).seed(42)
                .index(b -> b.bufferPoolPages(16)).build();
        for (KeySource source : List.of(KeySource.UUID_V4, KeySource.UUID_V7)) {
            IndexStats s = board.run(source);
            String[] cells = IndexCommandTest.row(r.out(), source.label());
            assertEquals(String.format(java.util.Locale.ROOT, "%,d", s.leafSplits()), cells[1], r.out());
            assertEquals(String.format(java.util.Locale.ROOT, "%,d", s.pageWrites()), cells[2], r.out());
            assertEquals(String.format(java.util.Locale.ROOT, "%.1f %%", 100 * s.averageLeafFill()), cells[5], r.out());
            assertEquals(String.format(java.util.Locale.ROOT, "%.2f %%", 100 * s.bufferPoolHitRate()), cells[8], r.out());
        }
    }

    @Test
    void demoPrintsWhatTheInProcessRunPrintsAndNothingOnStderr() throws Exception {
        Run r = run("", "demo");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err(), "the clock step-back warnings go to slf4j-nop, not the user");
        assertEquals(Cli.run("demo").out(), r.out());
    }
}
