package dev.idgen.cli;

import dev.idgen.testkit.clock.ManualClock;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Runs {@code idgen} in this process with captured output, a fixed clock and given standard input. */
final class Cli {

    /** "Now" in every in-process run. */
    static final Instant NOW = Instant.parse("2026-12-03T06:00:00Z");

    /** What one run left behind. */
    record Run(int exit, String out, String err) {
        String[] lines() {
            return out.isEmpty() ? new String[0] : out.split("\n");
        }
    }

    private Cli() {
    }

    static Run run(String... args) {
        return runWithStdin("", args);
    }

    static Run runWithStdin(String stdin, String... args) {
        return runAt(ManualClock.at(NOW), stdin, false, args);
    }

    static Run runAt(ManualClock clock, String stdin, boolean terminals, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext context = new CliContext(clock, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                terminals, terminals, terminals);
        int code = IdgenCommand.commandLine(context, new PrintWriter(out), new PrintWriter(err)).execute(args);
        return new Run(code, out.toString().replace("\r\n", "\n"), err.toString().replace("\r\n", "\n"));
    }
}
