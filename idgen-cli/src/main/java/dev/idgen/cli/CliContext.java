package dev.idgen.cli;

import dev.idgen.cli.term.Terminals;
import java.io.InputStream;
import java.time.InstantSource;
import java.util.Objects;

/**
 * What the commands take from the world besides their arguments, so that tests can give them a
 * fixed clock, their own standard input and a terminal or not.
 *
 * @param clock "now", for relative times in {@code decode} and the time inside generated IDs
 * @param stdin where {@code decode} reads IDs when none are given as arguments
 * @param stdinIsTerminal whether standard input is a terminal ({@code decode} then asks for
 *     arguments rather than wait for typing)
 * @param stdoutIsTerminal whether standard output is a terminal (help in colour)
 * @param stderrIsTerminal whether standard error is a terminal (progress bars)
 */
public record CliContext(InstantSource clock, InputStream stdin, boolean stdinIsTerminal, boolean stdoutIsTerminal,
        boolean stderrIsTerminal) {

    /**
     * @throws NullPointerException if {@code clock} or {@code stdin} is null
     */
    public CliContext {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(stdin, "stdin");
    }

    /** @return the system clock, {@code System.in}, and the terminals as this process has them */
    public static CliContext system() {
        return new CliContext(InstantSource.system(), System.in, Terminals.isTerminal(Terminals.STDIN),
                Terminals.isTerminal(Terminals.STDOUT),
                Terminals.isTerminal(Terminals.STDERR));
    }
}
