package dev.idgen.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the relative links of Markdown files: each names a file or directory of the repository,
 * and each {@code #anchor} a heading of the Markdown file it points into, by the anchor GitHub
 * gives that heading. Links to the web ({@code http:}, {@code https:}, {@code mailto:}) are not
 * followed. Text inside fenced blocks and inline code is not read as links or headings.
 */
final class DocLinks {

    /** {@code [text](target)} or {@code ![alt](target)}, with an optional title after the target. */
    private static final Pattern INLINE = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition: {@code [label]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    /** {@code href="..."} or {@code src="..."} of an HTML tag. */
    private static final Pattern HTML = Pattern.compile("\\b(?:href|src)\\s*=\\s*\"([^\"]+)\"");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^ *(```|~~~)");
    private static final Pattern CODE_SPAN = Pattern.compile("`+[^`]*`+");
    private static final Pattern WEB = Pattern.compile("^(https?:|mailto:|ftp:)", Pattern.CASE_INSENSITIVE);

    private final Path root;
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    /** @param root the repository root: no link may leave it */
    DocLinks(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /**
     * @param file a Markdown file of the repository
     * @return every broken link of {@code file}, each as {@code file:line: what}
     */
    List<String> check(Path file) throws IOException {
        Path abs = root.resolve(file).normalize();
        List<String> problems = new ArrayList<>();
        List<String> lines = prose(Files.readString(abs));
        for (int i = 0; i < lines.size(); i++) {
            for (String target : targets(lines.get(i))) {
                String problem = problem(abs, target);
                if (problem != null) {
                    problems.add(root.relativize(abs) + ":" + (i + 1) + ": " + problem);
                }
            }
        }
        return problems;
    }

    /** The link targets of one line of prose (code spans left out). */
    static List<String> targets(String line) {
        String text = CODE_SPAN.matcher(line).replaceAll("");
        List<String> out = new ArrayList<>();
        for (Pattern p : List.of(INLINE, HTML)) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        Matcher ref = REFERENCE.matcher(text);
        if (ref.matches()) {
            out.add(ref.group(1));
        }
        return out;
    }

    private String problem(Path from, String target) throws IOException {
        if (WEB.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = path.isEmpty() ? from : from.getParent().resolve(decode(path)).normalize();
        if (!to.startsWith(root)) {
            return target + ": leaves the repository";
        }
        if (!Files.exists(to)) {
            return target + ": no such file " + root.relativize(to);
        }
        if (anchor == null) {
            return null;
        }
        if (!to.toString().endsWith(".md")) {
            return target + ": an anchor into " + root.relativize(to) + ", which is not Markdown";
        }
        Set<String> known = anchors(to);
        if (!known.contains(decode(anchor))) {
            return target + ": " + root.relativize(to) + " has no heading with the anchor #" + anchor;
        }
        return null;
    }

    private Set<String> anchors(Path md) throws IOException {
        Set<String> known = anchors.get(md);
        if (known == null) {
            known = headingAnchors(Files.readString(md));
            anchors.put(md, known);
        }
        return known;
    }

    /** Every anchor GitHub gives the headings of a Markdown text (a repeated one gets -1, -2, ...). */
    static Set<String> headingAnchors(String markdown) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(markdown)) {
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return out;
    }

    /**
     * GitHub's anchor for a heading: the text as shown (links reduced to their text, code marks
     * dropped), lower case, every character but letters, digits, spaces, hyphens and underscores
     * removed, each space a hyphen.
     */
    static String slug(String heading) {
        String shown = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("[`*]|(?<!\\w)_|_(?!\\w)", "");
        StringBuilder b = new StringBuilder();
        shown.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.appendCodePoint(c);
            } else if (c == ' ') {
                b.append('-');
            }
        });
        return b.toString();
    }

    /**
     * The lines of a Markdown text with the lines of fenced blocks blanked, so that line numbers
     * stay those of the file.
     */
    static List<String> prose(String markdown) {
        List<String> out = new ArrayList<>();
        String open = null;
        for (String line : markdown.lines().toList()) {
            Matcher f = FENCE.matcher(line);
            if (open == null && f.find()) {
                open = f.group(1);
                out.add("");
            } else if (open != null) {
                if (line.strip().startsWith(open)) {
                    open = null;
                }
                out.add("");
            } else {
                out.add(line);
            }
        }
        return out;
    }

    private static String decode(String s) {
        return s.replace("%20", " ");
    }
}
