package dev.idgen.docs;

import java.nio.file.Path;

/**
 * One fenced block of a Markdown file.
 *
 * @param file the Markdown file, relative to the repository root
 * @param line the 1-based line of the opening fence; the block's first line is {@code line + 1}
 * @param lang the fence's language: java, xml, properties, yaml
 * @param marker what the {@code <!-- snippet: ... -->} comment on the line above says, or "" when there is none
 * @param code the block's text, the fence's indentation removed, ending with a line break
 */
record Snippet(Path file, int line, String lang, String marker, String code) {

    /** Where a line of the block is: {@code file:line}, the block's first line being {@code lineInBlock} 1. */
    String at(long lineInBlock) {
        return file + ":" + (line + lineInBlock);
    }

    @Override
    public String toString() {
        return file + ":" + line + " (" + lang + ")";
    }
}
