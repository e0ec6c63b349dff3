package dev.idgen.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every java, xml, properties and yaml block of README.md and docs/*.md passes the
 * {@link SnippetChecker}: the docs are code a test compiles or loads.
 */
class DocsSnippetsTest {

    /** The repository root: this module sits one level below it. */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    static List<Snippet> allSnippets() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Snippet> all = new ArrayList<>();
        for (Path f : files) {
            all.addAll(DocSnippets.extract(ROOT.relativize(f), Files.readString(f)));
        }
        return all;
    }

    static SnippetChecker checker() throws IOException {
        ConfigurationKeys keys = ConfigurationKeys.load(DocsSnippetsTest.class.getClassLoader());
        return new SnippetChecker(ROOT, System.getProperty("java.class.path"), keys, Reactor.read(ROOT));
    }

    @Test
    void everyBlockOfTheDocsCompilesOrLoads() throws IOException {
        List<Snippet> snippets = allSnippets();
        Map<String, Integer> perLang = new TreeMap<>();
        snippets.forEach(s -> perLang.merge(s.lang(), 1, Integer::sum));
        // the extraction finds the blocks at all (a broken fence pattern would pass everything)
        assertTrue(perLang.getOrDefault("java", 0) >= 20, "java blocks: " + perLang);
        assertTrue(perLang.getOrDefault("xml", 0) >= 5, "xml blocks: " + perLang);
        assertTrue(perLang.getOrDefault("properties", 0) >= 5, "properties blocks: " + perLang);
        SnippetChecker checker = checker();
        List<String> problems = new ArrayList<>();
        snippets.forEach(s -> problems.addAll(checker.check(s)));
        assertEquals("", String.join("\n", problems), problems.size() + " problem(s) in " + snippets.size() + " blocks");
    }

    @Test
    void theBlocksNotCompiledAloneAreFewAndListed() throws IOException {
        // each is run by the test its marker names, which also holds the text; a new exception
        // is a decision, so it is added here by hand
        List<String> excerpts = allSnippets().stream().filter(SnippetChecker::isExcerpt)
                .map(s -> s.file() + " " + s.marker()).toList();
        // spring-boot.md: a Spring MVC controller (spring-webmvc is no published module's dependency)
        assertEquals(List.of("docs/jpa.md SegmentIdDocSnippetTest", "docs/segments.md SegmentDocSnippetTest",
                "docs/spring-boot.md BusinessNumberProblemsTest"), excerpts);
    }

    @Test
    void theMetadataIsOnTheClassPath() throws IOException {
        ConfigurationKeys keys = ConfigurationKeys.load(DocsSnippetsTest.class.getClassLoader());
        assertTrue(keys.knows("idgen.machine-id.source"), "the starter's generated metadata");
        assertTrue(keys.knows("management.endpoint.health.show-details"), "Spring Boot's actuator metadata");
        assertTrue(keys.knows("management.endpoint.health.group.readiness.include"), "a key inside a Map property");
    }
}
