package dev.idgen.releasecheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * A pom.xml as written, with its parent when the parent is in the same tree, and the part of
 * Maven's inheritance the check needs: coordinates, properties (a child's value wins, and a
 * parent's {@code ${...}} is read in the child's context, as Maven interpolates after
 * inheritance), elements Maven inherits ({@code url}, {@code licenses}, {@code scm}, ...),
 * dependencies, and versions from {@code dependencyManagement}, imported BOMs of the same tree
 * included. {@code name} is not inherited by Maven, and not here.
 */
public final class Pom {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    private final Path file;
    private final Element project;
    private final Pom parent;

    private Pom(Path file, Element project, Pom parent) {
        this.file = file;
        this.project = project;
        this.parent = parent;
    }

    /**
     * Reads a pom and, through {@code relativePath} (default {@code ../pom.xml}), its parents as
     * far as they are on disk with the coordinates the child names.
     *
     * @param file the pom.xml
     * @return the pom
     * @throws IOException when the file cannot be read or is not XML
     */
    public static Pom read(Path file) throws IOException {
        Element project = parse(file);
        Element parentRef = child(project, "parent");
        Pom parent = null;
        if (parentRef != null) {
            String relative = Optional.ofNullable(text(parentRef, "relativePath")).orElse("../pom.xml");
            Path candidate = file.toAbsolutePath().getParent().resolve(relative).normalize();
            if (Files.isDirectory(candidate)) {
                candidate = candidate.resolve("pom.xml");
            }
            if (Files.isRegularFile(candidate)) {
                Pom p = read(candidate);
                if (p.artifactId().equals(text(parentRef, "artifactId"))) {
                    parent = p;
                }
            }
        }
        return new Pom(file.toAbsolutePath().normalize(), project, parent);
    }

    /** @return the pom.xml this was read from */
    public Path file() {
        return file;
    }

    /** @return the module's directory */
    public Path dir() {
        return file.getParent();
    }

    /** @return the parent pom, when one is declared and was found on disk */
    public Optional<Pom> parent() {
        return Optional.ofNullable(parent);
    }

    /** @return whether the pom declares a parent (found on disk or not) */
    public boolean declaresParent() {
        return child(project, "parent") != null;
    }

    /** @return the groupId, the parent's when the pom gives none */
    public String groupId() {
        String own = text(project, "groupId");
        return own != null ? own : text(child(project, "parent"), "groupId");
    }

    /** @return the artifactId */
    public String artifactId() {
        return text(project, "artifactId");
    }

    /** @return the version, the parent's when the pom gives none */
    public String version() {
        String own = text(project, "version");
        return interpolate(own != null ? own : text(child(project, "parent"), "version"));
    }

    /** @return {@code groupId:artifactId} */
    public String coordinates() {
        return groupId() + ":" + artifactId();
    }

    /** @return the packaging, {@code jar} by default */
    public String packaging() {
        return Optional.ofNullable(text(project, "packaging")).orElse("jar");
    }

    /** @return the pom's own {@code name} (Maven does not inherit it), or null */
    public String name() {
        return text(project, "name");
    }

    /** @return the {@code modules} this pom aggregates, as written */
    public List<String> modules() {
        List<String> modules = new ArrayList<>();
        for (Element m : children(child(project, "modules"), "module")) {
            modules.add(m.getTextContent().trim());
        }
        return modules;
    }

    /**
     * The element as the effective pom has it: this pom's, else the nearest parent's, for the
     * elements Maven inherits.
     *
     * @param name a direct child of {@code project}, for example {@code scm}
     * @return the element, or empty
     */
    public Optional<Element> inherited(String name) {
        for (Pom p = this; p != null; p = p.parent) {
            Element e = child(p.project, name);
            if (e != null) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * The text of an inherited element's child, interpolated in this pom's context.
     *
     * @param element for example {@code scm}
     * @param childName for example {@code url}
     * @return the text, or null when either is missing or blank
     */
    public String inheritedText(String element, String childName) {
        return inherited(element).map(e -> text(e, childName)).map(this::interpolate).orElse(null);
    }

    /**
     * A property as the effective pom has it: the {@code project.*} built-ins, else this pom's
     * {@code properties}, else the nearest parent's, read in this pom's context.
     *
     * @param name the property
     * @return the value, or null
     */
    public String property(String name) {
        return property(name, 0);
    }

    private String property(String name, int depth) {
        switch (name) {
            case "project.version", "pom.version", "version":
                return version();
            case "project.groupId", "pom.groupId":
                return groupId();
            case "project.artifactId", "pom.artifactId":
                return artifactId();
            case "project.parent.version", "parent.version":
                return text(child(project, "parent"), "version");
            case "project.basedir", "basedir":
                return dir().toString();
            default:
                break;
        }
        for (Pom p = this; p != null; p = p.parent) {
            String raw = text(child(p.project, "properties"), name);
            if (raw != null || hasChild(child(p.project, "properties"), name)) {
                return interpolate(raw == null ? "" : raw, depth + 1);
            }
        }
        return null;
    }

    /**
     * Replaces every {@code ${name}} this pom can resolve; unresolved ones stay as written.
     *
     * @param value text, or null
     * @return the text with properties replaced, or null
     */
    public String interpolate(String value) {
        return interpolate(value, 0);
    }

    private String interpolate(String value, int depth) {
        if (value == null || depth > 20 || !value.contains("${")) {
            return value;
        }
        Matcher m = PROPERTY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String resolved = property(m.group(1), depth);
            m.appendReplacement(out, Matcher.quoteReplacement(resolved != null ? resolved : m.group()));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * A dependency of the effective pom.
     *
     * @param groupId its groupId
     * @param artifactId its artifactId
     * @param version its version, from the dependency or dependencyManagement; null when neither has one
     * @param scope its scope, {@code compile} by default
     * @param type its type, {@code jar} by default
     * @param classifier its classifier, or null
     * @param optional whether it is optional
     */
    public record Dependency(String groupId, String artifactId, String version, String scope, String type,
            String classifier, boolean optional) {

        /** @return {@code groupId:artifactId:version} */
        @Override
        public String toString() {
            return groupId + ":" + artifactId + ":" + version;
        }
    }

    /**
     * The dependencies of the effective pom: this pom's and its parents', each with its version
     * resolved from dependencyManagement where it gives none.
     *
     * @param reactor finds a pom of the same tree by {@code groupId:artifactId}, for imported BOMs
     * @return the dependencies
     */
    public List<Dependency> dependencies(Function<String, Optional<Pom>> reactor) {
        List<Dependency> deps = new ArrayList<>();
        for (Pom p = this; p != null; p = p.parent) {
            for (Element d : children(child(p.project, "dependencies"), "dependency")) {
                String g = interpolate(text(d, "groupId"));
                String a = interpolate(text(d, "artifactId"));
                String v = interpolate(text(d, "version"));
                String scope = interpolate(text(d, "scope"));
                if (v == null || scope == null) {
                    Managed managed = managed(g, a, reactor, 0).orElse(null);
                    if (managed != null) {
                        v = v != null ? v : managed.version();
                        scope = scope != null ? scope : managed.scope();
                    }
                }
                String type = Optional.ofNullable(interpolate(text(d, "type"))).orElse("jar");
                deps.add(new Dependency(g, a, v, scope == null ? "compile" : scope, type,
                        interpolate(text(d, "classifier")), "true".equals(interpolate(text(d, "optional")))));
            }
        }
        return deps;
    }

    /** A dependencyManagement entry, read in the context of the pom whose effective model holds it. */
    private record Managed(String version, String scope) {
    }

    private Optional<Managed> managed(String g, String a, Function<String, Optional<Pom>> reactor, int depth) {
        for (Pom p = this; p != null; p = p.parent) {
            for (Element d : children(child(child(p.project, "dependencyManagement"), "dependencies"), "dependency")) {
                String dg = interpolate(text(d, "groupId"));
                String da = interpolate(text(d, "artifactId"));
                if (g.equals(dg) && a.equals(da) && !"import".equals(text(d, "scope"))) {
                    return Optional.of(new Managed(interpolate(text(d, "version")), interpolate(text(d, "scope"))));
                }
            }
        }
        if (depth > 5) {
            return Optional.empty();
        }
        // imported BOMs: only those of the same tree can be read here
        for (Pom p = this; p != null; p = p.parent) {
            for (Element d : children(child(child(p.project, "dependencyManagement"), "dependencies"), "dependency")) {
                if ("import".equals(text(d, "scope"))) {
                    Optional<Pom> bom = reactor.apply(interpolate(text(d, "groupId")) + ":" + interpolate(text(d, "artifactId")));
                    if (bom.isPresent()) {
                        Optional<Managed> found = bom.get().managed(g, a, reactor, depth + 1);
                        if (found.isPresent()) {
                            return found;
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** @return the dependencyManagement entries of this pom alone, as {@code groupId:artifactId} → version */
    public Map<String, String> ownManagedVersions() {
        Map<String, String> managed = new LinkedHashMap<>();
        for (Element d : children(child(child(project, "dependencyManagement"), "dependencies"), "dependency")) {
            managed.put(interpolate(text(d, "groupId")) + ":" + interpolate(text(d, "artifactId")),
                    interpolate(text(d, "version")));
        }
        return managed;
    }

    private static Element parse(Path file) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(file + " is not a readable pom: " + e.getMessage(), e);
        }
    }

    /**
     * @param parent an element, or null
     * @param name a child's tag
     * @return the first such direct child, or null
     */
    static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * @param parent an element, or null
     * @param name a child's tag
     * @return every such direct child, in order
     */
    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent == null) {
            return found;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    private static boolean hasChild(Element parent, String name) {
        return child(parent, name) != null;
    }

    /**
     * @param parent an element, or null
     * @param name a child's tag
     * @return the child's trimmed text, or null when it is missing or blank
     */
    static String text(Element parent, String name) {
        Element e = child(parent, name);
        if (e == null) {
            return null;
        }
        String t = e.getTextContent().trim();
        return t.isEmpty() ? null : t;
    }
}
