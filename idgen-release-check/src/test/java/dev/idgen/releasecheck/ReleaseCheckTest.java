package dev.idgen.releasecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check against a small reactor written here: a parent with the metadata, one published
 * library {@code dev.idgen:lib} with its three jars, one application that sets
 * {@code idgen.publish.skip}, and the BOM. The complete tree passes; each test then takes one
 * piece away and expects exactly the problem that names it.
 */
class ReleaseCheckTest {

    private static final String VERSION = "1.2.0-SNAPSHOT";
    private static final String LIB = "dev.idgen:lib";

    @TempDir
    Path root;

    private String parentPom;
    private String libPom;
    private String bomPom;
    private final List<String> log = new ArrayList<>();

    private static final String METADATA = """
              <url>https://example.invalid/idgen</url>
              <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
              <developers><developer><name>The idgen authors</name></developer></developers>
              <scm><connection>scm:git:https://example.invalid/idgen.git</connection><url>https://example.invalid/idgen</url></scm>
              <issueManagement><url>https://example.invalid/idgen/issues</url></issueManagement>
            """;

    @BeforeEach
    void writeReactor() throws IOException {
        parentPom = """
                <project>
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.idgen</groupId>
                  <artifactId>idgen-parent</artifactId>
                  <version>%s</version>
                  <packaging>pom</packaging>
                  <name>idgen</name>
                  <description>IDs.</description>
                %s
                  <modules><module>lib</module><module>app</module><module>idgen-bom</module></modules>
                  <properties>
                    <idgen.publish.skip>false</idgen.publish.skip>
                    <junit.version>5.14.4</junit.version>
                    <gpg.version>3.2.8</gpg.version>
                  </properties>
                  <build><pluginManagement><plugins>
                    <plugin><artifactId>maven-gpg-plugin</artifactId><version>${gpg.version}</version></plugin>
                  </plugins></pluginManagement></build>
                  <dependencyManagement><dependencies>
                    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>${junit.version}</version></dependency>
                    <dependency><groupId>dev.idgen</groupId><artifactId>app</artifactId><version>${project.version}</version></dependency>
                  </dependencies></dependencyManagement>
                </project>
                """.formatted(VERSION, METADATA);
        libPom = """
                <project>
                  <modelVersion>4.0.0</modelVersion>
                  <parent><groupId>dev.idgen</groupId><artifactId>idgen-parent</artifactId><version>%s</version></parent>
                  <artifactId>lib</artifactId>
                  <name>lib</name>
                  <dependencies>
                    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.20</version></dependency>
                    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>
                  </dependencies>
                </project>
                """.formatted(VERSION);
        String appPom = """
                <project>
                  <modelVersion>4.0.0</modelVersion>
                  <parent><groupId>dev.idgen</groupId><artifactId>idgen-parent</artifactId><version>%s</version></parent>
                  <artifactId>app</artifactId>
                  <properties><idgen.publish.skip>true</idgen.publish.skip></properties>
                </project>
                """.formatted(VERSION);
        bomPom = """
                <project>
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.idgen</groupId>
                  <artifactId>idgen-bom</artifactId>
                  <version>%s</version>
                  <packaging>pom</packaging>
                  <name>idgen-bom</name>
                  <description>The BOM.</description>
                %s
                  <dependencyManagement><dependencies>
                    <dependency><groupId>dev.idgen</groupId><artifactId>lib</artifactId><version>${project.version}</version></dependency>
                  </dependencies></dependencyManagement>
                  <profiles><profile><id>release</id><build><plugins>
                    <plugin><artifactId>maven-gpg-plugin</artifactId><version>3.2.8</version></plugin>
                  </plugins></build></profile></profiles>
                </project>
                """.formatted(VERSION, METADATA);
        write("pom.xml", parentPom);
        write("lib/pom.xml", libPom);
        write("app/pom.xml", appPom);
        write("idgen-bom/pom.xml", bomPom);
        String base = "lib/target/lib-" + VERSION;
        jar(base + ".jar", manifest(true, true, true), "dev/idgen/lib/Lib.class");
        jar(base + "-sources.jar", manifest(false, false, false), "dev/idgen/lib/Lib.java");
        jar(base + "-javadoc.jar", manifest(false, false, false), "index.html");
    }

    private List<Problem> check() throws IOException {
        return new ReleaseCheck(root, root.resolve("out/central-bundle"), Signer.none("not in unit tests"), log::add).run();
    }

    private void assertOneProblem(String artifact, String piece) throws IOException {
        List<Problem> problems = check();
        assertEquals(1, problems.size(), () -> "one problem expected, got " + problems);
        assertEquals(artifact, problems.get(0).artifact());
        assertTrue(problems.get(0).missing().contains(piece), () -> "expected '" + piece + "' in " + problems.get(0));
    }

    @Test
    void theCompleteTreePassesAndItsBundleHasEveryFileWithItsChecksums() throws IOException {
        assertEquals(List.of(), check());
        Path dir = root.resolve("out/central-bundle/dev/idgen/lib/" + VERSION);
        for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
            Path file = dir.resolve("lib-" + VERSION + suffix);
            assertTrue(Files.isRegularFile(file), file::toString);
            assertTrue(Files.isRegularFile(Checksums.sibling(file, ".md5")), file + ".md5");
            assertTrue(Files.isRegularFile(Checksums.sibling(file, ".sha1")), file + ".sha1");
        }
        assertTrue(Files.isRegularFile(root.resolve("out/central-bundle/dev/idgen/idgen-parent/" + VERSION
                + "/idgen-parent-" + VERSION + ".pom")));
        assertTrue(Files.isRegularFile(root.resolve("out/central-bundle/dev/idgen/idgen-bom/" + VERSION
                + "/idgen-bom-" + VERSION + ".pom")));
        assertFalse(Files.exists(root.resolve("out/central-bundle/dev/idgen/app")), "app sets idgen.publish.skip");
        try (ZipFile zip = new ZipFile(root.resolve("out/central-bundle.zip").toFile())) {
            assertTrue(zip.getEntry("dev/idgen/lib/" + VERSION + "/lib-" + VERSION + "-sources.jar.sha1") != null);
        }
        assertTrue(log.get(log.size() - 1).contains("would pass"), log::toString);
    }

    @Test
    void aMissingSourcesJarIsNamed() throws IOException {
        Files.delete(root.resolve("lib/target/lib-" + VERSION + "-sources.jar"));
        assertOneProblem(LIB, "no sources jar");
    }

    @Test
    void aSkippedSourcesJarIsNamedEvenWhenAnEarlierBuildLeftOne() throws IOException {
        write("lib/pom.xml", libPom.replace("<name>lib</name>",
                "<name>lib</name><properties><maven.source.skip>true</maven.source.skip></properties>"));
        assertOneProblem(LIB, "no sources jar: this build skips it (maven.source.skip=true)");
    }

    @Test
    void aMissingJavadocJarIsNamed() throws IOException {
        Files.delete(root.resolve("lib/target/lib-" + VERSION + "-javadoc.jar"));
        assertOneProblem(LIB, "no javadoc jar");
    }

    @Test
    void scmRemovedFromTheParentIsMissingFromEveryPomThatInheritsIt() throws IOException {
        write("pom.xml", parentPom.replaceAll("<scm>.*</scm>", ""));
        List<Problem> problems = check();
        assertEquals(List.of(new Problem("dev.idgen:idgen-parent", "no <scm> with <url> and <connection>, own or inherited"),
                new Problem(LIB, "no <scm> with <url> and <connection>, own or inherited")), problems);
    }

    @Test
    void theBomNeedsItsOwnMetadataAsItHasNoParent() throws IOException {
        write("idgen-bom/pom.xml", bomPom.replaceAll("<developers>.*</developers>", ""));
        assertOneProblem("dev.idgen:idgen-bom", "<developers>");
    }

    @Test
    void aModuleNameIsNotInheritedSoEachPomMustHaveOne() throws IOException {
        write("lib/pom.xml", libPom.replace("<name>lib</name>", ""));
        assertOneProblem(LIB, "<name>");
    }

    @Test
    void aPublishedModuleMissingFromTheBomIsNamed() throws IOException {
        write("idgen-bom/pom.xml", bomPom.replaceAll("<dependency>.*</dependency>", ""));
        assertOneProblem(LIB, "not in idgen-bom");
    }

    @Test
    void aBomEntryThatIsNotPublishedIsNamed() throws IOException {
        write("idgen-bom/pom.xml", bomPom.replace("</dependencies></dependencyManagement>",
                "<dependency><groupId>dev.idgen</groupId><artifactId>app</artifactId><version>${project.version}</version>"
                        + "</dependency></dependencies></dependencyManagement>"));
        assertOneProblem("dev.idgen:app", "no published module");
    }

    @Test
    void aBomOnAnotherVersionIsNamed() throws IOException {
        write("idgen-bom/pom.xml", bomPom.replace("<version>" + VERSION + "</version>", "<version>1.1.0</version>"));
        List<Problem> problems = check();
        assertTrue(problems.stream().anyMatch(p -> p.artifact().equals("dev.idgen:idgen-bom")
                && p.missing().contains("version 1.1.0 differs")), problems::toString);
    }

    @Test
    void aBomReleasePluginOnAnotherVersionThanTheParentPinsIsNamed() throws IOException {
        write("idgen-bom/pom.xml", bomPom.replace("<version>3.2.8</version>", "<version>3.2.7</version>"));
        assertOneProblem("dev.idgen:idgen-bom", "profile release uses maven-gpg-plugin 3.2.7, the root pom's"
                + " pluginManagement pins 3.2.8");
    }

    @Test
    void aForeignSnapshotDependencyIsNamed() throws IOException {
        write("lib/pom.xml", libPom.replace("<version>2.0.20</version>", "<version>2.1.0-SNAPSHOT</version>"));
        assertOneProblem(LIB, "SNAPSHOT org.slf4j:slf4j-api:2.1.0-SNAPSHOT");
    }

    @Test
    void aTestOnlyArtifactOutsideTestScopeIsNamedWithItsManagedVersion() throws IOException {
        write("lib/pom.xml", libPom.replace("<scope>test</scope>", ""));
        assertOneProblem(LIB, "test-only org.junit.jupiter:junit-jupiter:5.14.4");
    }

    @Test
    void aDependencyOnAnUnpublishedModuleIsNamed() throws IOException {
        write("lib/pom.xml", libPom.replace("</dependencies>",
                "<dependency><groupId>dev.idgen</groupId><artifactId>app</artifactId></dependency></dependencies>"));
        assertOneProblem(LIB, "dev.idgen:app, which is not published");
    }

    @Test
    void aJarWithoutAModuleNameIsNamed() throws IOException {
        jar("lib/target/lib-" + VERSION + ".jar", manifest(true, true, false), "dev/idgen/lib/Lib.class");
        assertOneProblem(LIB, "neither module-info.class nor Automatic-Module-Name");
    }

    @Test
    void aJarWithoutImplementationEntriesIsNamed() throws IOException {
        jar("lib/target/lib-" + VERSION + ".jar", manifest(false, true, true), "dev/idgen/lib/Lib.class");
        assertOneProblem(LIB, "Implementation-Title");
    }

    @Test
    void aSourcesJarWithoutSourcesIsNamed() throws IOException {
        jar("lib/target/lib-" + VERSION + "-sources.jar", manifest(false, false, false), "README.txt");
        assertOneProblem(LIB, "sources jar holds no .java file");
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static Manifest manifest(boolean title, boolean version, boolean moduleName) {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (title) {
            a.put(Attributes.Name.IMPLEMENTATION_TITLE, "lib");
        }
        if (version) {
            a.put(Attributes.Name.IMPLEMENTATION_VERSION, VERSION);
        }
        if (moduleName) {
            a.putValue("Automatic-Module-Name", "dev.idgen.lib");
        }
        return m;
    }

    private void jar(String path, Manifest manifest, String entry) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.putNextEntry(new ZipEntry(entry));
            jar.write("x".getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }
}
