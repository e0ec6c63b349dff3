package dev.idgen.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The README's Spring Boot lines are this service's own: its properties block is a part of this
 * service's application.properties and loads as pasted (no comment inside a value), and its Java
 * block compiles with the imports it shows, against this service's class path.
 */
class ReadmeSpringSnippetTest {

    private static final Path README = Path.of("..", "..", "README.md");
    private static final Pattern BLOCK = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);

    private static List<String> blocks(String lang, String mustContain) throws IOException {
        Matcher m = BLOCK.matcher(Files.readString(README));
        List<String> out = new ArrayList<>();
        while (m.find()) {
            if (m.group(1).equals(lang) && m.group(2).contains(mustContain)) {
                out.add(m.group(2));
            }
        }
        return out;
    }

    @Test
    void thePropertiesBlockIsPartOfThisServicesOwnAndLoadsAsPasted() throws IOException {
        List<String> found = blocks("properties", "idgen.machine-id.source");
        assertThat(found).hasSize(1);
        String block = found.get(0);
        List<String> own = Files.readAllLines(Path.of("src", "main", "resources", "application.properties"));
        for (String line : block.lines().toList()) {
            if (!line.isBlank()) {
                assertThat(own).as("README line in application.properties").contains(line);
            }
        }
        Properties p = new Properties();
        p.load(new StringReader(block));
        assertThat(p.getProperty("idgen.machine-id.source")).isEqualTo("jdbc");
        p.forEach((k, v) -> assertThat(v.toString()).as("value of %s", k).doesNotContain("#"));
    }

    @Test
    void theEntityBlockCompilesWithTheImportsItShows() throws IOException {
        List<String> found = blocks("java", "@Snowflake");
        assertThat(found).hasSize(1);
        String block = found.get(0);
        String imports = block.lines().filter(l -> l.startsWith("import ")).reduce("", (a, b) -> a + b + "\n");
        String body = block.lines().filter(l -> !l.startsWith("import ")).reduce("", (a, b) -> a + b + "\n");
        int record = body.indexOf("public record");
        assertThat(record).isPositive();
        List<JavaFileObject> sources = List.of(source("Order", imports + body.substring(0, record)),
                source("OrderView", imports + body.substring(record)));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("readme-snippet");
        boolean ok = javac.getTask(null, null, diagnostics, List.of("-classpath", System.getProperty("java.class.path"),
                "-d", out.toString(), "-proc:none"), null, sources).call();
        assertThat(ok).as("javac: %s", diagnostics.getDiagnostics().stream().map(Diagnostic::toString).toList()).isTrue();
    }

    private static JavaFileObject source(String name, String code) {
        return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }
}
