package dev.idgen.docs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Checks one snippet and returns what is wrong with it, each problem as {@code file:line: what}.
 *
 * <p>The conventions a block of the docs follows (docs/README.md, "Snippets", says the same):
 * <ul>
 *   <li>java: a block whose first declaration is a type (an annotation, class, record, interface,
 *       enum) is a compilation unit, compiled as the file its public type names (so it holds at most
 *       one public type, as a file does). Any other block is statements: its import lines stay on top
 *       and the rest becomes the body of a method of a generated class; the variables it uses
 *       without declaring are named, with their types, in {@code <!-- snippet: given Type name, ... -->}
 *       right above the fence (they become the method's parameters). Either way the block
 *       compiles against every published module, with the imports it shows and no others. An
 *       {@code @Entity} whose table would be a reserved word of SQL fails.</li>
 *   <li>{@code <!-- snippet: excerpt of path/File.java -->} above a block: the block is a part of
 *       that file, not compiled alone; each of its lines must be a line of the file.
 *       {@code <!-- snippet: SomeTest -->}: the block is run by that test of the reactor, which
 *       also holds it; the same line rule applies.</li>
 *   <li>xml: parses (several top-level elements allowed); a dependency on dev.idgen names a module
 *       of this reactor at this version, any other names an artifact the reactor itself uses.</li>
 *   <li>properties and yaml: load; no value carries a {@code #} comment; every key is declared by
 *       configuration metadata on the class path (the starter's for idgen.*, Spring Boot's for
 *       management.* and spring.*).</li>
 * </ul>
 */
final class SnippetChecker {

    /** Names a table must not have: reserved in PostgreSQL, MariaDB/MySQL or standard SQL. */
    static final Set<String> RESERVED = Set.of("order", "user", "group", "select", "table", "from", "where",
            "key", "index", "column", "check", "default", "desc", "limit", "offset", "references", "primary",
            "union", "all", "and", "or", "end", "case", "grant", "session", "role", "range", "rank", "window",
            "values", "value", "year", "time", "timestamp", "position", "system", "release", "lock", "match");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?[\\w.]+(\\.\\*)?\\s*;\\s*$");
    private static final Pattern TYPE_START = Pattern.compile(
            "^(@\\w+.*|((public|protected|private|abstract|final|sealed|non-sealed|static)\\s+)*(class|record|interface|enum)\\s+\\w+.*)$");
    /** A public type declared at the start of a line with no indentation: a top-level type. */
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+(?:(?:abstract|final|sealed|non-sealed|strictfp)\\s+)*(?:class|record|interface|enum|@interface)\\s+(\\w+)");
    private static final Pattern ENTITY = Pattern.compile("@Entity\\b(\\s*\\(([^)]*)\\))?");
    private static final Pattern NAME_ATTR = Pattern.compile("name\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern TABLE = Pattern.compile("@Table\\s*\\(([^)]*)\\)");
    private static final Pattern CLASS = Pattern.compile("\\bclass\\s+(\\w+)");
    private static final Pattern GIVEN = Pattern.compile("given\\s+(.+)");
    private static final Pattern EXCERPT = Pattern.compile("excerpt of\\s+(\\S+)");
    private static final Pattern TEST_NAME = Pattern.compile("[A-Z]\\w*");
    private static final Pattern VALUE_COMMENT = Pattern.compile("\\s#");

    private final Path root;
    private final ConfigurationKeys keys;
    private final Reactor reactor;
    private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    /** One file manager for every block: the class path's jars are opened and indexed once. */
    private final StandardJavaFileManager files;

    /**
     * @param root the repository root (paths of excerpts and tests are resolved from it)
     * @param classPath what java blocks compile against
     * @param keys the configuration properties a properties block may set
     * @param reactor the modules and artifacts an xml block may name
     */
    SnippetChecker(Path root, String classPath, ConfigurationKeys keys, Reactor reactor) {
        this.root = root;
        this.keys = keys;
        this.reactor = reactor;
        this.files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
        try {
            files.setLocation(StandardLocation.CLASS_PATH,
                    Stream.of(classPath.split(File.pathSeparator)).map(File::new).toList());
            files.setLocation(StandardLocation.CLASS_OUTPUT, List.of(Files.createTempDirectory("idgen-snippet").toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every problem of the snippet; empty when it passes */
    List<String> check(Snippet s) {
        List<String> problems = new ArrayList<>();
        try {
            if (isExcerpt(s)) {
                excerpt(s, problems);
                return problems;
            }
            if (!s.marker().isEmpty() && !GIVEN.matcher(s.marker()).matches()) {
                problems.add(s.at(0) + ": unknown snippet marker '" + s.marker()
                        + "' (given Type name, ...; excerpt of PATH; or a test class name)");
                return problems;
            }
            switch (s.lang()) {
                case "java" -> java(s, problems);
                case "xml" -> xml(s, problems);
                case "properties" -> properties(s, problems);
                case "yaml", "yml" -> yaml(s, problems);
                default -> problems.add(s + ": no rule for " + s.lang());
            }
        } catch (Exception e) {
            problems.add(s.at(1) + ": " + s.lang() + " block does not load: " + e.getMessage());
        }
        return problems;
    }

    /** Whether the block is held to the lines of a file instead of being compiled or loaded alone. */
    static boolean isExcerpt(Snippet s) {
        return EXCERPT.matcher(s.marker()).matches() || TEST_NAME.matcher(s.marker()).matches();
    }

    private void excerpt(Snippet s, List<String> problems) throws IOException {
        Path source;
        Matcher m = EXCERPT.matcher(s.marker());
        if (m.matches()) {
            source = root.resolve(m.group(1));
        } else {
            String name = s.marker() + ".java";
            try (Stream<Path> files = Files.walk(root)) {
                source = files.filter(p -> p.getFileName().toString().equals(name))
                        .filter(p -> p.toString().contains("src" + File.separator + "test"))
                        .findFirst().orElse(null);
            }
        }
        if (source == null || !Files.isRegularFile(source)) {
            problems.add(s.at(0) + ": the marker '" + s.marker() + "' names no file of the reactor (excerpt of PATH, or a test class)");
            return;
        }
        Set<String> lines = Set.copyOf(Files.readAllLines(source).stream().map(String::strip).toList());
        List<String> code = s.code().lines().toList();
        for (int i = 0; i < code.size(); i++) {
            String line = code.get(i).strip();
            if (!line.isEmpty() && !lines.contains(line)) {
                problems.add(s.at(i + 1) + ": not a line of " + root.relativize(source) + ": " + line);
            }
        }
    }

    private void java(Snippet s, List<String> problems) throws IOException {
        List<String> lines = s.code().lines().toList();
        int body = 0;
        while (body < lines.size() && (lines.get(body).isBlank() || IMPORT.matcher(lines.get(body)).matches())) {
            body++;
        }
        for (int i = body; i < lines.size(); i++) {
            if (lines.get(i).startsWith("import ")) {
                problems.add(s.at(i + 1) + ": an import below the code: imports go on top of the block");
            }
        }
        int first = body;
        while (first < lines.size() && (lines.get(first).isBlank() || lines.get(first).strip().startsWith("//"))) {
            first++;
        }
        boolean unit = first < lines.size() && TYPE_START.matcher(lines.get(first)).matches();
        Matcher given = GIVEN.matcher(s.marker());
        if (unit && given.matches()) {
            problems.add(s.at(0) + ": 'given' is for a block of statements; this block declares a type");
        }
        String source;
        if (unit) {
            source = s.code();
        } else {
            // statements: the method header goes on the first line after the imports, so javac's line
            // numbers stay the block's own
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < lines.size(); i++) {
                if (i == body) {
                    b.append("class Snippet { void snippet(").append(given.matches() ? given.group(1) : "")
                            .append(") throws Throwable { ");
                }
                b.append(lines.get(i)).append('\n');
            }
            if (body == lines.size()) {
                b.append("class Snippet { void snippet() {");
            }
            source = b.append("}}\n").toString();
        }
        compile(s, unit ? fileName(s.code()) : "Snippet", source, problems);
        entities(s, problems);
    }

    /**
     * The file a reader pastes a compilation unit into: named after its public top-level type, or
     * any name when it has none. javac then refuses a second public type, as it would in that file.
     */
    static String fileName(String code) {
        Matcher m = PUBLIC_TYPE.matcher(code);
        return m.find() ? m.group(1) : "Snippet";
    }

    private void compile(Snippet s, String name, String source, List<String> problems) {
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        boolean ok = javac.getTask(null, files, diagnostics, List.of("-proc:none", "-nowarn", "--release", "17"),
                null, List.of(file)).call();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                problems.add(s.at(d.getLineNumber()) + ": " + String.join("; ", d.getMessage(Locale.ROOT).lines().map(String::strip)
                        .filter(l -> !l.startsWith("location:")).toList()));
            }
        }
        if (!ok && problems.isEmpty()) {
            problems.add(s.at(1) + ": javac failed without an error message");
        }
    }

    private static void entities(Snippet s, List<String> problems) {
        String code = s.code();
        Matcher entity = ENTITY.matcher(code);
        while (entity.find()) {
            Matcher cls = CLASS.matcher(code);
            if (!cls.find(entity.end())) {
                continue;
            }
            String between = code.substring(entity.start(), cls.start());
            String table = cls.group(1);
            Matcher name = entity.group(2) == null ? null : NAME_ATTR.matcher(entity.group(2));
            if (name != null && name.find()) {
                table = name.group(1);
            }
            Matcher t = TABLE.matcher(between);
            if (t.find()) {
                Matcher tn = NAME_ATTR.matcher(t.group(1));
                if (tn.find()) {
                    table = tn.group(1);
                }
            }
            String bare = table.replaceAll("[`\"\\\\]", "").toLowerCase(Locale.ROOT);
            if (RESERVED.contains(bare)) {
                long line = code.substring(0, entity.start()).chars().filter(c -> c == '\n').count() + 1;
                problems.add(s.at(line) + ": @Entity " + cls.group(1) + " maps to the table '" + bare
                        + "', a reserved word of SQL; give it @Table(name = \"...\") with another name");
            }
        }
    }

    private void xml(Snippet s, List<String> problems) throws Exception {
        Element top = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader("<snippet>" + s.code() + "</snippet>"))).getDocumentElement();
        NodeList deps = top.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            String group = Reactor.child(d, "groupId");
            String artifact = Reactor.child(d, "artifactId");
            String version = Reactor.child(d, "version");
            String where = s.at(lineOf(s.code(), "<artifactId>" + artifact + "</artifactId>"));
            if (group.equals(Reactor.GROUP)) {
                if (!reactor.modules().contains(artifact)) {
                    problems.add(where + ": dev.idgen:" + artifact + " is no module of this reactor; modules: "
                            + reactor.modules().stream().sorted().toList());
                }
                if (!version.isEmpty() && !reactor.isOurVersion(version)) {
                    problems.add(where + ": version " + version + " of dev.idgen:" + artifact
                            + " is not the project's " + reactor.version()
                            + (reactor.released().isEmpty() ? "" : " nor its last release " + reactor.released()));
                }
            } else if (!reactor.externals().contains(group + ":" + artifact)) {
                problems.add(where + ": " + group + ":" + artifact + " is no artifact this reactor uses");
            }
        }
    }

    private static long lineOf(String code, String text) {
        int at = code.indexOf(text);
        return at < 0 ? 1 : code.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }

    private void properties(Snippet s, List<String> problems) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(s.code()));
        for (String key : p.stringPropertyNames()) {
            long line = lineOf(s.code(), key);
            String value = p.getProperty(key);
            if (VALUE_COMMENT.matcher(value).find()) {
                problems.add(s.at(line) + ": the value of " + key + " carries a comment ('" + value
                        + "'): a properties file has no inline comments; put it on a line of its own");
            }
            known(s, line, key, problems);
        }
    }

    private void yaml(Snippet s, List<String> problems) {
        Object doc = new Yaml().load(s.code());
        List<String> flat = new ArrayList<>();
        flatten("", doc, flat);
        for (String key : flat) {
            known(s, 1, key, problems);
        }
    }

    private static void flatten(String prefix, Object node, List<String> out) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? k.toString() : prefix + "." + k, v, out));
        } else if (!prefix.isEmpty()) {
            out.add(prefix);
        }
    }

    private void known(Snippet s, long line, String key, List<String> problems) {
        if (!keys.knows(key)) {
            String whose = key.startsWith("idgen.") ? "the starter's configuration metadata" : "Spring Boot's configuration metadata";
            problems.add(s.at(line) + ": " + key + " is not a property of " + whose);
        }
    }
}
