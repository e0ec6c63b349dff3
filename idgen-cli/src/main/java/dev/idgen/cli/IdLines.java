package dev.idgen.cli;

import java.io.PrintWriter;
import java.util.function.Supplier;

/** Writes IDs one a line, and stops early when the reader has gone (a closed pipe, as in {@code | head}). */
final class IdLines {

    private static final int CHECK_EVERY = 1024;

    private IdLines() {
    }

    static void write(PrintWriter out, long count, Supplier<String> next) {
        for (long i = 0; i < count; i++) {
            out.println(next.get());
            if ((i + 1) % CHECK_EVERY == 0 && out.checkError()) {
                return; // checkError flushes; true once the pipe is closed
            }
        }
        out.flush();
    }
}
