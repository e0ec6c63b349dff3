package dev.idgen.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md is the list of what idgen promises; the root pom's {@code idgen.api.packages} and
 * {@code idgen.api.internal} (what the api-compat profile compares and leaves out) and each
 * {@code module-info}'s exports must say the same, and every package of a published module must be
 * in the list.
 */
class ApiListTest {

    private static final Path ROOT = DocsSnippetsTest.ROOT;
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][\\w.]*)`[^|]*\\| (stable|SPI|internal)\\b[^|]*\\|(.*)\\|\\s*$");
    private static final Pattern MODULE_ROW = Pattern.compile("^\\| `(idgen-[\\w-]+)` \\| `([\\w.]+)` \\|.*$");
    private static final Pattern EXPORT = Pattern.compile("^\\s*exports\\s+([\\w.]+)\\s*(to\\s+[^;]+)?;", Pattern.MULTILINE);
    private static final Pattern MODULE = Pattern.compile("^\\s*(?:open\\s+)?module\\s+([\\w.]+)\\s*\\{", Pattern.MULTILINE);
    private static final Pattern AUTOMATIC = Pattern.compile("<Automatic-Module-Name>([\\w.]+)</Automatic-Module-Name>");
    private static final Pattern BOM_ENTRY = Pattern.compile("<artifactId>(idgen-[\\w-]+)</artifactId>");

    /** One row of a package table: the status and the row's last cell (what it holds). */
    record Row(String status, String holds) {
        boolean promised() {
            return !status.equals("internal");
        }
    }

    static Map<String, Row> packageRows(List<String> apiMd) {
        Map<String, Row> rows = new TreeMap<>();
        for (String line : apiMd) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                Row before = rows.put(m.group(1), new Row(m.group(2), m.group(3)));
                assertEquals(null, before, "docs/api.md names package " + m.group(1) + " twice");
            }
        }
        return rows;
    }

    static Set<String> property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</" + Pattern.quote(name) + ">").matcher(pom);
        assertTrue(m.find(), "root pom.xml has no property " + name);
        return Arrays.stream(m.group(1).split(";")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The published modules: those idgen-bom manages. */
    static List<String> published() throws IOException {
        String bom = Files.readString(ROOT.resolve("idgen-bom/pom.xml"));
        List<String> modules = new ArrayList<>();
        Matcher m = BOM_ENTRY.matcher(bom);
        while (m.find()) {
            if (!m.group(1).equals("idgen-bom") && Files.isDirectory(ROOT.resolve(m.group(1)))) {
                modules.add(m.group(1));
            }
        }
        return modules;
    }

    /** Packages with at least one class in a module's src/main/java. */
    static Set<String> sourcePackages(String module) throws IOException {
        Path src = ROOT.resolve(module).resolve("src/main/java");
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(src)) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .forEach(p -> packages.add(src.relativize(p.getParent()).toString().replace('/', '.')));
        }
        return packages;
    }

    private static boolean isClass(String entry) {
        String last = entry.substring(entry.lastIndexOf('.') + 1);
        return Character.isUpperCase(last.charAt(0));
    }

    private static String packageOf(String type) {
        return type.substring(0, type.lastIndexOf('.'));
    }

    @Test
    void thePomsListsAreTheTablesOfApiMd() throws IOException {
        Map<String, Row> rows = packageRows(Files.readAllLines(ROOT.resolve("docs/api.md")));
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Set<String> compared = property(pom, "idgen.api.packages");
        Set<String> internal = property(pom, "idgen.api.internal");
        assertTrue(rows.size() >= 30, "package rows found in docs/api.md: " + rows.keySet());

        Set<String> promisedRows = rows.entrySet().stream().filter(e -> e.getValue().promised())
                .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
        Set<String> internalRows = rows.entrySet().stream().filter(e -> !e.getValue().promised())
                .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(promisedRows, compared, "stable and SPI packages of docs/api.md vs idgen.api.packages");
        assertEquals(internalRows, internal.stream().filter(e -> !isClass(e))
                .collect(Collectors.toCollection(TreeSet::new)), "internal packages of docs/api.md vs idgen.api.internal");

        List<String> problems = new ArrayList<>();
        for (String type : internal) {
            if (!isClass(type)) {
                continue;
            }
            Row row = rows.get(packageOf(type));
            String simple = type.substring(type.lastIndexOf('.') + 1);
            if (row == null || !row.promised()) {
                problems.add(type + ": idgen.api.internal names a class of a package docs/api.md does not list as stable or SPI");
            } else if (!row.holds().matches("(?s).*internal:.*`" + Pattern.quote(simple) + "`.*")) {
                problems.add(type + ": docs/api.md's row for " + packageOf(type) + " does not name `" + simple + "` after \"internal:\"");
            }
        }
        Pattern named = Pattern.compile("`([A-Z]\\w*)`");
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            int at = e.getValue().holds().indexOf("internal:");
            if (!e.getValue().promised() || at < 0) {
                continue;
            }
            Matcher m = named.matcher(e.getValue().holds().substring(at));
            while (m.find()) {
                if (!internal.contains(e.getKey() + "." + m.group(1))) {
                    problems.add(e.getKey() + "." + m.group(1) + ": docs/api.md calls it internal, idgen.api.internal does not list it");
                }
            }
        }
        assertEquals("", String.join("\n", problems));
    }

    @Test
    void everyPackageOfAPublishedModuleIsInTheList() throws IOException {
        Map<String, Row> rows = packageRows(Files.readAllLines(ROOT.resolve("docs/api.md")));
        List<String> modules = published();
        assertTrue(modules.contains("idgen-core") && modules.contains("idgen-jdbc"), "published modules: " + modules);
        Set<String> seen = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (String module : modules) {
            for (String p : sourcePackages(module)) {
                seen.add(p);
                if (!rows.containsKey(p)) {
                    problems.add(module + ": package " + p + " is in no table of docs/api.md");
                }
            }
        }
        for (String p : rows.keySet()) {
            if (!seen.contains(p)) {
                problems.add("docs/api.md lists " + p + ", which no published module has");
            }
        }
        assertEquals("", String.join("\n", problems));
    }

    @Test
    void moduleInfoExportsTheStableAndSpiPackagesOnly() throws IOException {
        Map<String, Row> rows = packageRows(Files.readAllLines(ROOT.resolve("docs/api.md")));
        List<String> problems = new ArrayList<>();
        int withModuleInfo = 0;
        for (String module : published()) {
            Path info = ROOT.resolve(module).resolve("src/main/java/module-info.java");
            if (!Files.exists(info)) {
                continue;
            }
            withModuleInfo++;
            String text = Files.readString(info);
            Set<String> exported = new TreeSet<>();
            Matcher m = EXPORT.matcher(text);
            while (m.find()) {
                Row row = rows.get(m.group(1));
                if (m.group(2) == null) {
                    exported.add(m.group(1));
                } else if (row != null && row.promised()) {
                    problems.add(module + ": exports " + m.group(1) + " only " + m.group(2).trim() + ", but it is " + row.status());
                }
            }
            Set<String> promised = sourcePackages(module).stream()
                    .filter(p -> rows.containsKey(p) && rows.get(p).promised())
                    .collect(Collectors.toCollection(TreeSet::new));
            if (!exported.equals(promised)) {
                problems.add(module + ": module-info exports " + exported + " but its stable and SPI packages are " + promised);
            }
        }
        assertEquals(3, withModuleInfo, "published modules with a module-info (core, testkit, jdbc)");
        assertEquals("", String.join("\n", problems));
    }

    @Test
    void theModuleNamesAreThoseOfApiMd() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        for (String line : Files.readAllLines(ROOT.resolve("docs/api.md"))) {
            Matcher m = MODULE_ROW.matcher(line);
            if (m.matches()) {
                documented.put(m.group(1), m.group(2));
            }
        }
        Map<String, String> actual = new LinkedHashMap<>();
        for (String module : published()) {
            Path info = ROOT.resolve(module).resolve("src/main/java/module-info.java");
            Matcher m = Files.exists(info) ? MODULE.matcher(Files.readString(info))
                    : AUTOMATIC.matcher(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
            actual.put(module, m.find() ? m.group(1) : "(none)");
        }
        assertEquals(actual, documented, "JPMS module names: the build vs docs/api.md's table");
    }
}
