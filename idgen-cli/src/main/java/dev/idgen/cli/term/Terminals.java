package dev.idgen.cli.term;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a standard stream is a terminal. Java has no portable call for this per stream
 * ({@code System.console()} speaks for stdin and stdout together, and from JDK 22 on not even
 * that), so on Linux the file descriptor's target is read from {@code /proc/self/fd}. Anywhere that
 * fails, and for an output stream whenever {@code TERM=dumb} or {@code NO_COLOR} is set, the answer
 * is "not a terminal": plain output is always safe.
 */
public final class Terminals {

    /** File descriptor of standard input. */
    public static final int STDIN = 0;

    /** File descriptor of standard output. */
    public static final int STDOUT = 1;

    /** File descriptor of standard error. */
    public static final int STDERR = 2;

    private Terminals() {
    }

    /**
     * @param fd {@link #STDIN}, {@link #STDOUT} or {@link #STDERR}
     * @return whether that stream goes to a terminal that may get colours and progress bars
     */
    public static boolean isTerminal(int fd) {
        if (fd != STDIN && ("dumb".equals(System.getenv("TERM")) || System.getenv("NO_COLOR") != null)) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
