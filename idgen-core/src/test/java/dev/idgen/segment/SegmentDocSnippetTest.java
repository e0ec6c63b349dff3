package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/**
 * The snippet of docs/segments.md is the block between the markers below, compiled and run here;
 * the test fails if the document's copy differs from it by a character.
 */
class SegmentDocSnippetTest {

    @Test
    void theSnippetRunsAndTheDocumentShowsItVerbatim() throws IOException {
        InMemorySegmentSource source = new InMemorySegmentSource(InstantSource.fixed(Instant.parse("2026-12-03T10:00:00Z")));
        // snippet:start
        SegmentGenerator orders = SegmentGenerator.builder()
                .source(source)                   // JdbcSegmentSource, RedisSegmentSource, ...
                .name("orders")
                .step(1000)                       // one store round trip per 1000 numbers
                .prefetch(1, 128)                 // ranges kept ready, following the rate
                .maxWait(Duration.ofSeconds(1))   // then SegmentUnavailableException
                .build();
        long orderNo = orders.nextLong();         // 1, 2, 3, ...

        BusinessNumberFormat invoices = BusinessNumberFormat.builder()
                .prefix("INV").group(DateGroup.DAY).width(6).build();
        BusinessNumberGenerator invoiceNumbers = BusinessNumberGenerator.builder()
                .source(source).name("invoice").format(invoices).build();
        String invoiceNo = invoiceNumbers.next();              // INV-20261203-000001
        BusinessNumber read = invoices.parse(invoiceNo);       // INV, 2026-12-03, 1
        orders.close();                                        // stops its fetch thread
        // snippet:end
        assertEquals(1, orderNo);
        assertEquals("INV-20261203-000001", invoiceNo);
        assertEquals(1, read.counter());
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
        Path doc = root.resolveSibling("docs").resolve("segments.md");
        Path self = root.resolve("src/test/java/dev/idgen/segment/SegmentDocSnippetTest.java");
        String code = between(Files.readString(self), "// snippet:start", "// snippet:end").replaceAll("(?m)^ {8}", "");
        String shown = between(Files.readString(doc), "<!-- snippet: SegmentDocSnippetTest -->\n```java", "```");
        assertEquals(code, shown);
    }
}
