package dev.idgen.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every relative link of README.md, CHANGELOG.md and docs/*.md names a file, and its anchor a heading. */
class DocsLinksTest {

    static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(DocsSnippetsTest.ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted()
                    .forEach(p -> files.add(DocsSnippetsTest.ROOT.relativize(p)));
        }
        return files;
    }

    @Test
    void everyLinkOfTheDocsResolves() throws IOException {
        DocLinks links = new DocLinks(DocsSnippetsTest.ROOT);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path f : markdownFiles()) {
            problems.addAll(links.check(f));
            checked++;
        }
        assertTrue(checked >= 20, "Markdown files found: " + checked);
        assertEquals("", String.join("\n", problems), problems.size() + " broken link(s)");
    }

    @Test
    void theFrontPageLinksIntoTheDocs() throws IOException {
        // the extraction finds the links at all (a broken pattern would pass everything)
        long relative = DocLinks.prose(Files.readString(DocsSnippetsTest.ROOT.resolve("README.md"))).stream()
                .flatMap(l -> DocLinks.targets(l).stream()).filter(t -> t.startsWith("docs/")).count();
        assertTrue(relative >= 20, "links from README.md into docs/: " + relative);
    }

    @Test
    void aMissingFileOrAnchorIsReportedWithItsLine(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.md"), "# A\n\n## Two words: `code` here\n\n## A\n\n"
                + "[ok](b.md) [ok](#two-words-code-here) [ok](#a-1) [ok](https://example.org/x.md#nope)\n"
                + "[gone](c.md) and [gone](b.md#nowhere)\n\n```md\n[in a block](nowhere.md)\n```\n"
                + "`[in code](nowhere.md)` <a href=\"d.md\">d</a>\n[ref]: e.md\n");
        Files.writeString(dir.resolve("b.md"), "# B\n");
        assertEquals(List.of(
                "a.md:8: c.md: no such file c.md",
                "a.md:8: b.md#nowhere: b.md has no heading with the anchor #nowhere",
                "a.md:13: d.md: no such file d.md",
                "a.md:14: e.md: no such file e.md"), new DocLinks(dir).check(Path.of("a.md")));
        assertEquals(List.of("../x.md: leaves the repository"),
                new DocLinks(dir).check(write(dir, "[up](../x.md)\n")).stream().map(p -> p.substring(p.indexOf(' ') + 1)).toList());
    }

    @Test
    void anchorsAreGitHubs() {
        assertEquals("replay-and-prediction-what-the-models-figures-are-worth",
                DocLinks.slug("Replay and prediction: what the model's figures are worth"));
        assertEquals("the-fence-refused-iff-tick--fencetick", DocLinks.slug("The fence: refused iff `tick >= fenceTick`"));
        assertEquals("every-large-long-idgenjsonlarge-numbers-as-strings",
                DocLinks.slug("Every large long: `idgen.json.large-numbers-as-strings`"));
        assertEquals("postgresql-1520", DocLinks.slug("PostgreSQL 15.20"));
        assertEquals(Set.of("a", "a-1", "b"), DocLinks.headingAnchors("# A\n## A\n```\n# not a heading\n```\n### B\n"));
    }

    private static Path write(Path dir, String text) throws IOException {
        Path f = dir.resolve("c.md");
        Files.writeString(f, text);
        return Path.of("c.md");
    }
}
