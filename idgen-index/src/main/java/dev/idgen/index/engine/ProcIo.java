package dev.idgen.index.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Bytes this process has passed to write calls, from Linux's {@code /proc/self/io}; -1 elsewhere. */
final class ProcIo {

    private ProcIo() {
    }

    static long writtenBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("wchar:")) {
                    return Long.parseLong(line.substring(6).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
