package dev.idgen.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import dev.idgen.segment.jdbc.JdbcSegmentSource;
import dev.idgen.snowflake.SnowflakeGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;

/**
 * The {@code @SegmentId} snippet of docs/jpa.md is the block between the markers below, compiled
 * and run here on H2; the test fails if the document's copy differs from it by a character.
 */
class SegmentIdDocSnippetTest {

    @Test
    void theSnippetNumbersAnEntity() {
        DataSource dataSource = TestDatabase.H2.dataSource();
        SnowflakeGenerator snowflake = SnowflakeGenerator.builder().machineId(1).build();
        Map<String, Object> settings = new java.util.HashMap<>();
        String segmentTable = Factories.table("idgen_segment");
        // snippet:start
        JdbcSegmentSource store = JdbcSegmentSource.builder(dataSource)
                .table(segmentTable).createTable(true).build();
        settings.put(EntityIds.SETTING, EntityIds.of(snowflake, IdGenerators.uuidV7())
                .withSegments(store, 100));             // ranges of 100 numbers per counter
        // snippet:end
        try (SessionFactory sf = Factories.build(TestDatabase.H2, (EntityIds) settings.get(EntityIds.SETTING),
                PurchaseOrder.class); Session s = sf.openSession()) {
            s.beginTransaction();
            PurchaseOrder first = new PurchaseOrder(0);
            PurchaseOrder second = new PurchaseOrder(0);
            s.persist(first);
            s.persist(second);
            s.getTransaction().commit();
            assertEquals(1L, first.id);
            assertEquals(2L, second.id);
        }
    }

    private static String between(String text, String start, String end) {
        int s = text.indexOf(start);
        int e = text.indexOf(end, s + start.length());
        assertTrue(s >= 0 && e > s, "markers " + start + " / " + end + " not found");
        return text.substring(text.indexOf('\n', s + start.length() - 1) + 1, text.lastIndexOf('\n', e) + 1);
    }

    @Test
    void theDocumentHoldsTheSnippet() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        Path doc = root.resolveSibling("docs").resolve("jpa.md");
        Path self = root.resolve("src/test/java/dev/idgen/hibernate/SegmentIdDocSnippetTest.java");
        String code = between(Files.readString(self), "// snippet:start", "// snippet:end").replaceAll("(?m)^ {8}", "");
        String shown = between(Files.readString(doc), "<!-- snippet: SegmentIdDocSnippetTest -->\n```java", "```");
        assertEquals(code, shown);
    }
}
