package dev.idgen.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The checker rejects each kind of broken snippet, naming the file and line. */
class SnippetCheckerTest {

    private static SnippetChecker checker;

    @BeforeAll
    static void load() throws IOException {
        checker = DocsSnippetsTest.checker();
    }

    private static List<String> problems(String markdown) {
        List<Snippet> snippets = DocSnippets.extract(Path.of("sample.md"), markdown);
        assertEquals(1, snippets.size(), "one block in the sample");
        return checker.check(snippets.get(0));
    }

    private static void rejected(List<String> problems, String at, String saying) {
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(at) && p.contains(saying)),
                "expected a problem at " + at + " saying '" + saying + "'; got " + problems);
    }

    @Test
    void aCommentInAPropertyValueIsRejected() {
        List<String> p = problems("text\n```properties\nidgen.machine-id.source=jdbc   # or fixed, zookeeper\n```\n");
        rejected(p, "sample.md:3:", "the value of idgen.machine-id.source carries a comment");
    }

    @Test
    void anUnknownPropertyIsRejected() {
        rejected(problems("```properties\n# fine\nidgen.machine-id.sauce=jdbc\n```\n"), "sample.md:3:",
                "idgen.machine-id.sauce is not a property of the starter's configuration metadata");
        rejected(problems("```properties\nmanagement.endpoint.health.show-detail=always\n```\n"), "sample.md:2:",
                "is not a property of Spring Boot's configuration metadata");
        rejected(problems("```yaml\nidgen:\n  machine-id:\n    sauce: jdbc\n```\n"), "sample.md:",
                "idgen.machine-id.sauce is not a property");
    }

    @Test
    void javaThatDoesNotCompileIsRejected() {
        // SnowflakeGenerator without its import: the "imports shown"
        rejected(problems("```java\nlong id = SnowflakeGenerator.builder().machineId(1).build().nextLong();\n```\n"),
                "sample.md:2:", "cannot find symbol");
        rejected(problems("intro\n\n```java\nimport dev.idgen.IdGenerators;\n\nlong id = IdGenerators.snowflake(1).nextLongg();\n```\n"),
                "sample.md:6:", "cannot find symbol");
        rejected(problems("```java\nimport java.util.UUID;\n\npublic record View(UUID id) {\n```\n"),
                "sample.md:", "reached end of file");
    }

    @Test
    void anUndeclaredVariableNeedsAGivenMarker() {
        String block = "```java\nimport dev.idgen.lease.jdbc.JdbcMachineIdLease;\n\n"
                + "JdbcMachineIdLease lease = JdbcMachineIdLease.builder(dataSource).acquire();\n```\n";
        rejected(problems(block), "sample.md:4:", "cannot find symbol");
        assertEquals(List.of(), problems("<!-- snippet: given javax.sql.DataSource dataSource -->\n" + block));
    }

    @Test
    void aDependencyOnNoModuleOfTheReactorIsRejected() {
        rejected(problems("```xml\n<dependency>\n  <groupId>dev.idgen</groupId>\n  <artifactId>idgen-lease-jdbc</artifactId>\n</dependency>\n```\n"),
                "sample.md:4:", "dev.idgen:idgen-lease-jdbc is no module of this reactor");
        rejected(problems("```xml\n<dependency><groupId>dev.idgen</groupId><artifactId>idgen-core</artifactId><version>0.0.9</version></dependency>\n```\n"),
                "sample.md:2:", "version 0.0.9 of dev.idgen:idgen-core is not the project's");
        rejected(problems("```xml\n<dependency><groupId>com.example</groupId><artifactId>nope</artifactId></dependency>\n```\n"),
                "sample.md:2:", "com.example:nope is no artifact this reactor uses");
        rejected(problems("```xml\n<dependency><groupId>dev.idgen</groupId>\n```\n"), "sample.md:2:", "does not load");
    }

    @Test
    void anEntityOnAReservedWordIsRejected() {
        String imports = "import jakarta.persistence.Entity;\nimport jakarta.persistence.Id;\nimport jakarta.persistence.Table;\n";
        rejected(problems("```java\n" + imports + "\n@Entity\nclass Order {\n    @Id Long id;\n}\n```\n"),
                "sample.md:6:", "@Entity Order maps to the table 'order', a reserved word");
        rejected(problems("```java\n" + imports + "\n@Entity(name = \"user\")\nclass Customer {\n    @Id Long id;\n}\n```\n"),
                "sample.md:6:", "maps to the table 'user'");
        rejected(problems("```java\n" + imports + "\n@Entity\n@Table(name = \"group\")\nclass Team {\n    @Id Long id;\n}\n```\n"),
                "sample.md:6:", "maps to the table 'group'");
        // the README's way out: the entity keeps its class name, the table gets another
        assertEquals(List.of(), problems("```java\n" + imports
                + "\n@Entity(name = \"PurchaseOrder\")\n@Table(name = \"purchase_order\")\nclass Order {\n    @Id Long id;\n}\n```\n"));
    }

    @Test
    void aBlockOfTwoPublicTypesIsRejected() {
        // the README's Order + OrderView block before 0.1.0: pasted into one file, javac refuses it
        String two = "```java\nimport java.util.UUID;\n\npublic class Order {\n    UUID id;\n}\n\n"
                + "public record OrderView(UUID id) {}\n```\n";
        rejected(problems(two), "sample.md:8:", "class OrderView is public, should be declared in a file named OrderView.java");
        assertEquals(List.of(), problems("```java\nimport java.util.UUID;\n\npublic record OrderView(UUID id) {}\n```\n"));
        assertEquals(List.of(), problems("```java\nclass A {}\n\nclass B {}\n```\n"));
        assertEquals("OrderView", SnippetChecker.fileName("import x.Y;\n\n// view\npublic final record OrderView(long id) {}\n"));
    }

    @Test
    void anExcerptMustBeLinesOfTheFileItNames() {
        assertEquals(List.of(), problems("<!-- snippet: excerpt of pom.xml -->\n```xml\n<modelVersion>4.0.0</modelVersion>\n```\n"));
        rejected(problems("<!-- snippet: excerpt of pom.xml -->\n```xml\n<modelVersion>5.0.0</modelVersion>\n```\n"),
                "sample.md:3:", "not a line of pom.xml");
        rejected(problems("<!-- snippet: exerpt of pom.xml -->\n```xml\n<modelVersion>4.0.0</modelVersion>\n```\n"),
                "sample.md:2:", "unknown snippet marker");
        rejected(problems("<!-- snippet: NoSuchSnippetTest -->\n```java\nint x = 1;\n```\n"),
                "sample.md:2:", "names no file of the reactor");
    }
}
