package dev.idgen.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds the fenced java, xml, properties and yaml blocks of a Markdown text. */
final class DocSnippets {

    /** The languages the checker reads; other fences (sh, text, none) are prose. */
    static final Set<String> CHECKED = Set.of("java", "xml", "properties", "yaml", "yml");

    private static final Pattern OPEN = Pattern.compile("^( *)```(\\w+)\\s*$");
    private static final Pattern CLOSE = Pattern.compile("^ *```\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*snippet:\\s*(.*?)\\s*-->\\s*$");

    private DocSnippets() {
    }

    /**
     * @param file the file's path as reported
     * @param text the Markdown text
     * @return every checked block, in order; an unclosed fence is an error
     */
    static List<Snippet> extract(Path file, String text) {
        List<String> lines = text.lines().toList();
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = OPEN.matcher(lines.get(i));
            if (!open.matches()) {
                if (CLOSE.matcher(lines.get(i)).matches()) {
                    // an unlabelled block: skip to its end so its lines are not read as fences
                    int end = i + 1;
                    while (end < lines.size() && !CLOSE.matcher(lines.get(end)).matches()) {
                        end++;
                    }
                    i = end;
                }
                continue;
            }
            int indent = open.group(1).length();
            int end = i + 1;
            while (end < lines.size() && !CLOSE.matcher(lines.get(end)).matches()) {
                end++;
            }
            if (end == lines.size()) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": the ```" + open.group(2) + " block is never closed");
            }
            String lang = open.group(2);
            if (CHECKED.contains(lang)) {
                StringBuilder code = new StringBuilder();
                for (int k = i + 1; k < end; k++) {
                    String l = lines.get(k);
                    int cut = 0;
                    while (cut < indent && cut < l.length() && l.charAt(cut) == ' ') {
                        cut++;
                    }
                    code.append(l.substring(cut)).append('\n');
                }
                String marker = "";
                if (i > 0) {
                    Matcher m = MARKER.matcher(lines.get(i - 1));
                    if (m.matches()) {
                        marker = m.group(1);
                    }
                }
                out.add(new Snippet(file, i + 1, lang, marker, code.toString()));
            }
            i = end;
        }
        return out;
    }
}
