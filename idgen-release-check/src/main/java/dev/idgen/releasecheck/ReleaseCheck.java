package dev.idgen.releasecheck;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.w3c.dom.Element;

/**
 * Builds, on disk, the bundle a release would hand to Maven Central, from what the reactor's
 * build left in each module's {@code target/}, and checks it the way Central validates a
 * deployment, plus this project's own rules:
 *
 * <ul>
 *   <li>the published modules are exactly those {@code idgen-bom} manages, and every module of the
 *       reactor that does not set {@code idgen.publish.skip} is one of them;</li>
 *   <li>every published pom has, itself or through its parent, name, description, url, a license,
 *       a developer, scm and issueManagement;</li>
 *   <li>every published jar has its sources and javadoc jars, {@code Implementation-Title} and
 *       {@code -Version}, and a module name ({@code module-info.class} or
 *       {@code Automatic-Module-Name});</li>
 *   <li>no published artifact depends, outside test scope, on a SNAPSHOT other than a published
 *       module of this reactor at its version, on one of our modules that is not published, or
 *       on a test-only artifact;</li>
 *   <li>every file has its {@code .md5} and {@code .sha1}, and its {@code .asc} when gpg is there.</li>
 * </ul>
 *
 * Each failure names the artifact and the missing piece.
 */
public final class ReleaseCheck {

    /** The module whose dependencyManagement is the list of published modules. */
    static final String BOM = "idgen-bom";
    /** This module: its dependencies make the reactor build the published modules first. */
    static final String CHECK_MODULE = "idgen-release-check";
    /** Groups whose artifacts exist only for tests (and benchmarks): never a published dependency. */
    private static final List<String> TEST_GROUPS = List.of("junit", "org.junit", "org.quicktheories", "org.mockito",
            "org.assertj", "org.hamcrest", "org.testcontainers", "net.jqwik", "org.openjdk.jmh",
            "org.openjdk.jcstress", "org.jetbrains.lincheck");
    /** Zip entries get one fixed time, so the bundle of one build is the same bytes each time. */
    private static final FileTime ZIP_TIME = FileTime.fromMillis(0);

    private final Path root;
    private final Path out;
    private final Signer signer;
    private final Consumer<String> log;
    private final List<Problem> problems = new ArrayList<>();
    private final Map<String, Pom> reactor = new LinkedHashMap<>();
    private int files;

    /**
     * @param root the reactor's root directory (its pom.xml aggregates the modules)
     * @param out where the bundle is laid out; emptied first
     * @param signer signs the bundle's files, or skips signing
     * @param log where progress lines go
     */
    public ReleaseCheck(Path root, Path out, Signer signer, Consumer<String> log) {
        this.root = root.toAbsolutePath().normalize();
        this.out = out.toAbsolutePath().normalize();
        this.signer = signer;
        this.log = log;
    }

    /**
     * Runs the check from a build: {@code ReleaseCheck ROOT OUT}.
     *
     * @param args the reactor's root directory and the bundle directory
     * @throws IOException when a file cannot be read or written
     * @throws IllegalStateException naming every problem, when there is one
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ReleaseCheck ROOT OUT; got " + args.length + " argument(s)");
        }
        List<Problem> problems;
        try (Signer signer = Signer.start()) {
            problems = new ReleaseCheck(Path.of(args[0]), Path.of(args[1]), signer, System.out::println).run();
        }
        if (!problems.isEmpty()) {
            StringBuilder message = new StringBuilder("release check: " + problems.size()
                    + " problem(s) Central would reject or the release would lack:");
            problems.forEach(p -> message.append("\n  ").append(p));
            throw new IllegalStateException(message.toString());
        }
    }

    /**
     * Lays out the bundle and checks it.
     *
     * @return every problem found; empty when the release would pass
     * @throws IOException when a file cannot be read or written
     */
    public List<Problem> run() throws IOException {
        Pom top = Pom.read(root.resolve("pom.xml"));
        collect(top);
        Pom bom = reactor.values().stream().filter(p -> p.artifactId().equals(BOM)).findFirst().orElse(null);
        if (bom == null) {
            problems.add(new Problem(top.coordinates(), "no " + BOM + " module in the reactor"));
            return problems;
        }
        List<Pom> libraries = libraries(top, bom);
        bomPluginsAsTheParentPinsThem(top, bom);
        List<Pom> poms = publishedPoms(top, bom, libraries);
        orderedBeforeThisCheck(libraries);

        deleteTree(out);
        Files.createDirectories(out);
        signer.skipReason().ifPresentOrElse(
                reason -> log.accept("release check: signing skipped: " + reason),
                () -> log.accept("release check: signing with a throwaway gpg key made for this run"));
        for (Pom pom : poms) {
            stage(pom, List.of());
        }
        for (Pom library : libraries) {
            stage(library, List.of("", "-sources", "-javadoc"));
        }
        Path zip = out.resolveSibling(out.getFileName() + ".zip");
        zip(zip);
        log.accept(String.format("release check: %d artifact(s), %d file(s) in %s: %s", poms.size() + libraries.size(),
                files, zip.startsWith(root) ? root.relativize(zip) : zip, problems.isEmpty() ? "would pass" : problems.size() + " problem(s)"));
        return problems;
    }

    private void collect(Pom pom) throws IOException {
        reactor.put(pom.coordinates(), pom);
        for (String module : pom.modules()) {
            Path dir = pom.dir().resolve(module).normalize();
            Path file = Files.isDirectory(dir) ? dir.resolve("pom.xml") : dir;
            if (!Files.isRegularFile(file)) {
                problems.add(new Problem(pom.coordinates(), "module " + module + " has no pom.xml"));
                continue;
            }
            collect(Pom.read(file));
        }
    }

    private static boolean skipsPublishing(Pom pom) {
        return "true".equals(pom.property("idgen.publish.skip"));
    }

    /** The reactor's published jars, held against the BOM's list both ways. */
    private List<Pom> libraries(Pom top, Pom bom) {
        if (!bom.version().equals(top.version())) {
            problems.add(new Problem(bom.coordinates(), "version " + bom.version() + " differs from the reactor's "
                    + top.version() + " (it has no parent: set both when cutting a release)"));
        }
        Map<String, String> listed = new LinkedHashMap<>(bom.ownManagedVersions());
        List<Pom> libraries = new ArrayList<>();
        for (Pom pom : reactor.values()) {
            if (pom.packaging().equals("pom") || skipsPublishing(pom)) {
                continue;
            }
            libraries.add(pom);
            String version = listed.remove(pom.coordinates());
            if (version == null) {
                problems.add(new Problem(pom.coordinates(), "published (idgen.publish.skip is not true) but not in "
                        + BOM + "'s dependencyManagement: add it there, or set idgen.publish.skip in its pom"));
            } else if (!version.equals(pom.version())) {
                problems.add(new Problem(pom.coordinates(), BOM + " manages it at " + version + ", the reactor builds "
                        + pom.version()));
            }
        }
        listed.forEach((coordinates, version) -> problems.add(new Problem(coordinates, BOM
                + " manages it, but it is no published module of the reactor (missing, or idgen.publish.skip is true)")));
        return libraries;
    }

    /**
     * The BOM has no parent, so its release profile names plugin versions itself: each must be the
     * version the root pom's pluginManagement pins, or the BOM would be signed and bundled by
     * other plugin versions than the modules.
     */
    private void bomPluginsAsTheParentPinsThem(Pom top, Pom bom) {
        Map<String, String> pinned = new LinkedHashMap<>();
        Element management = Pom.child(Pom.child(top.inherited("build").orElse(null), "pluginManagement"), "plugins");
        for (Element plugin : Pom.children(management, "plugin")) {
            pinned.put(Pom.text(plugin, "artifactId"), top.interpolate(Pom.text(plugin, "version")));
        }
        for (Element profile : Pom.children(bom.inherited("profiles").orElse(null), "profile")) {
            for (Element plugin : Pom.children(Pom.child(Pom.child(profile, "build"), "plugins"), "plugin")) {
                String artifactId = Pom.text(plugin, "artifactId");
                String version = bom.interpolate(Pom.text(plugin, "version"));
                String wanted = pinned.get(artifactId);
                if (wanted == null || !wanted.equals(version)) {
                    problems.add(new Problem(bom.coordinates(), "profile " + Pom.text(profile, "id") + " uses "
                            + artifactId + " " + version + ", the root pom's pluginManagement "
                            + (wanted == null ? "does not pin it" : "pins " + wanted)));
                }
            }
        }
    }

    /** The root pom, the BOM, and every pom-packaged parent of a published module. */
    private List<Pom> publishedPoms(Pom top, Pom bom, List<Pom> libraries) {
        Map<String, Pom> poms = new LinkedHashMap<>();
        poms.put(top.coordinates(), top);
        poms.put(bom.coordinates(), bom);
        for (Pom library : libraries) {
            for (Optional<Pom> p = library.parent(); p.isPresent(); p = p.get().parent()) {
                poms.putIfAbsent(p.get().coordinates(), p.get());
            }
        }
        return new ArrayList<>(poms.values());
    }

    /** Maven orders a build by dependencies: without one here a library could be built after this check. */
    private void orderedBeforeThisCheck(List<Pom> libraries) {
        Optional<Pom> check = reactor.values().stream().filter(p -> p.artifactId().equals(CHECK_MODULE)).findFirst();
        if (check.isEmpty()) {
            return;
        }
        Set<String> deps = new LinkedHashSet<>();
        check.get().dependencies(this::find).forEach(d -> deps.add(d.groupId() + ":" + d.artifactId()));
        for (Pom library : libraries) {
            if (!deps.contains(library.coordinates())) {
                problems.add(new Problem(library.coordinates(), CHECK_MODULE + "/pom.xml has no dependency on it, so the"
                        + " reactor may build it after the check: add its pom-type line there"));
            }
        }
    }

    private Optional<Pom> find(String coordinates) {
        return Optional.ofNullable(reactor.get(coordinates));
    }

    /** Copies one artifact's pom and files into the bundle, checks them, signs and sums them. */
    private void stage(Pom pom, List<String> classifiers) throws IOException {
        String id = pom.coordinates();
        String base = pom.artifactId() + "-" + pom.version();
        Path dir = out.resolve(pom.groupId().replace('.', '/')).resolve(pom.artifactId()).resolve(pom.version());
        Files.createDirectories(dir);
        List<Path> staged = new ArrayList<>();

        Path stagedPom = dir.resolve(base + ".pom");
        Files.copy(pom.file(), stagedPom, StandardCopyOption.REPLACE_EXISTING);
        staged.add(stagedPom);
        checkMetadata(pom);
        checkDependencies(pom);

        for (String classifier : classifiers) {
            String what = classifier.isEmpty() ? "jar" : classifier.substring(1) + " jar";
            // a jar an earlier build left in target/ must not hide that this build skips it
            String skip = Map.of("-sources", "maven.source.skip", "-javadoc", "maven.javadoc.skip").get(classifier);
            if (skip != null && (Boolean.getBoolean(skip) || "true".equals(pom.property(skip)))) {
                problems.add(new Problem(id, "no " + what + ": this build skips it (" + skip + "=true)"));
                continue;
            }
            Path built = pom.dir().resolve("target").resolve(base + classifier + ".jar");
            if (!Files.isRegularFile(built)) {
                problems.add(new Problem(id, "no " + what + " (" + root.relativize(built) + " was not built)"));
                continue;
            }
            Path file = dir.resolve(built.getFileName());
            Files.copy(built, file, StandardCopyOption.REPLACE_EXISTING);
            staged.add(file);
            checkJar(id, what, classifier, file, pom);
        }

        for (Path file : staged) {
            files++;
            if (signer.skipReason().isEmpty()) {
                signer.sign(file).ifPresent(m -> problems.add(new Problem(id, file.getFileName() + ": " + m)));
                signer.verify(file).ifPresent(m -> problems.add(new Problem(id, m)));
            }
            Checksums.write(file);
            Checksums.check(file).ifPresent(m -> problems.add(new Problem(id, m)));
        }
    }

    private void checkMetadata(Pom pom) {
        String id = pom.coordinates();
        if (pom.declaresParent() && pom.parent().isEmpty()) {
            problems.add(new Problem(id, "its parent is not in this tree, so its inherited metadata cannot be checked"));
        }
        require(id, pom.name(), "<name> (Maven does not inherit it)");
        require(id, pom.interpolate(pom.inherited("description").map(Element::getTextContent).orElse(null)),
                "<description>");
        require(id, pom.interpolate(pom.inherited("url").map(Element::getTextContent).orElse(null)), "<url>");
        Element licenses = pom.inherited("licenses").orElse(null);
        if (Pom.children(licenses, "license").stream().noneMatch(l -> Pom.text(l, "name") != null && Pom.text(l, "url") != null)) {
            problems.add(new Problem(id, "no <licenses><license> with <name> and <url>, own or inherited"));
        }
        Element developers = pom.inherited("developers").orElse(null);
        if (Pom.children(developers, "developer").stream().noneMatch(d -> Pom.text(d, "name") != null || Pom.text(d, "id") != null)) {
            problems.add(new Problem(id, "no <developers><developer> with a <name> or <id>, own or inherited"));
        }
        if (pom.inheritedText("scm", "url") == null || pom.inheritedText("scm", "connection") == null) {
            problems.add(new Problem(id, "no <scm> with <url> and <connection>, own or inherited"));
        }
        if (pom.inheritedText("issueManagement", "url") == null) {
            problems.add(new Problem(id, "no <issueManagement> with <url>, own or inherited"));
        }
    }

    private void require(String id, String value, String element) {
        if (value == null || value.isBlank()) {
            problems.add(new Problem(id, "no " + element + " in its pom"));
        }
    }

    private void checkDependencies(Pom pom) {
        String id = pom.coordinates();
        for (Pom.Dependency d : pom.dependencies(this::find)) {
            if (d.scope().equals("test")) {
                continue;
            }
            String ga = d.groupId() + ":" + d.artifactId();
            if (d.version() == null || d.version().contains("${")) {
                problems.add(new Problem(id, "depends on " + ga + " with no resolvable version (" + d.version() + ")"));
                continue;
            }
            Pom ours = reactor.get(ga);
            if (ours != null) {
                if (ours.packaging().equals("pom") || skipsPublishing(ours)) {
                    problems.add(new Problem(id, "depends (" + d.scope() + ") on " + ga + ", which is not published"));
                } else if (!d.version().equals(ours.version())) {
                    problems.add(new Problem(id, "depends on " + d + ", not the reactor's " + ours.version()));
                }
            } else if (d.version().endsWith("-SNAPSHOT")) {
                problems.add(new Problem(id, "depends (" + d.scope() + ") on the SNAPSHOT " + d));
            }
            if (testOnly(d) && !pom.artifactId().endsWith("-testkit")) {
                problems.add(new Problem(id, "depends (" + d.scope() + ") on the test-only " + d
                        + ": give it <scope>test</scope>"));
            }
        }
    }

    private static boolean testOnly(Pom.Dependency d) {
        return TEST_GROUPS.stream().anyMatch(g -> d.groupId().equals(g) || d.groupId().startsWith(g + "."))
                || d.artifactId().matches(".*-(test|tests|testing)") || d.type().equals("test-jar")
                || "tests".equals(d.classifier());
    }

    private void checkJar(String id, String what, String classifier, Path jar, Pom pom) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            switch (classifier) {
                case "" -> {
                    Manifest manifest = file.getManifest();
                    Attributes main = manifest == null ? new Attributes() : manifest.getMainAttributes();
                    if (main.getValue("Implementation-Title") == null) {
                        problems.add(new Problem(id, "jar manifest has no Implementation-Title"));
                    }
                    String version = main.getValue("Implementation-Version");
                    if (!pom.version().equals(version)) {
                        problems.add(new Problem(id, "jar manifest's Implementation-Version is " + version
                                + ", not " + pom.version()));
                    }
                    if (file.getEntry("module-info.class") == null && main.getValue("Automatic-Module-Name") == null) {
                        problems.add(new Problem(id, "jar has neither module-info.class nor Automatic-Module-Name"));
                    }
                }
                case "-sources" -> {
                    if (file.stream().noneMatch(e -> e.getName().endsWith(".java"))) {
                        problems.add(new Problem(id, what + " holds no .java file"));
                    }
                }
                case "-javadoc" -> {
                    if (file.getEntry("index.html") == null) {
                        problems.add(new Problem(id, what + " has no index.html"));
                    }
                }
                default -> throw new IllegalArgumentException("no check for classifier " + classifier);
            }
        } catch (java.util.zip.ZipException e) {
            problems.add(new Problem(id, what + " is not a readable jar: " + e.getMessage()));
        }
    }

    /** The bundle as the Central Portal takes it: the repository layout in one zip, same bytes each build. */
    private void zip(Path zip) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(out)) {
            all = walk.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList();
        }
        try (OutputStream file = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(file)) {
            for (Path p : all) {
                ZipEntry entry = new ZipEntry(out.relativize(p).toString().replace('\\', '/'));
                entry.setLastModifiedTime(ZIP_TIME);
                z.putNextEntry(entry);
                Files.copy(p, z);
                z.closeEntry();
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
