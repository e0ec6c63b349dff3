package dev.idgen.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's Spring Boot properties are this service's own: each line of the block is a line of
 * this service's application.properties, which {@code OrdersServiceTest} starts with, so the block
 * runs as pasted. That every block loads, and every java block compiles, is idgen-docs-check's
 * {@code DocsSnippetsTest}.
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
}
