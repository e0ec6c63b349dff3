package dev.idgen.index.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexScoreboardTest {

    @Test
    void timeOrderedKeysAtOneRowPerMillisecondAreAppendOnly() {
        Map<KeySource, IndexStats> board = IndexScoreboard.builder().rows(200_000).generators(4).idsPerMilli(1)
                .build().runAll();
        IndexStats counter = board.get(KeySource.AUTO_INCREMENT);
        IndexStats snowflake = board.get(KeySource.SNOWFLAKE);
        IndexStats v7 = board.get(KeySource.UUID_V7);
        assertEquals(1.0, counter.averageLeafFill());
        // no two rows share a millisecond, so every key is past every key before it
        assertEquals(counter.leafPages(), snowflake.leafPages(), snowflake.toString());
        assertEquals(counter.pageWrites(), snowflake.pageWrites(), snowflake.toString());
        assertEquals(0, v7.leafHalfSplits(), v7.toString());
        assertEquals(1.0, v7.averageLeafFill(), 0.01, v7.toString());
        IndexStats v4 = board.get(KeySource.UUID_V4);
        assertTrue(v4.leafPages() > 1.3 * v7.leafPages(), v4 + " vs " + v7);
        assertEquals(KeyType.CHAR36, board.get(KeySource.UUID_V4_TEXT).keyType());
    }

    @Test
    void writersSharingAMillisecondStayOnTheRightEdgeButLeaveHalfPages() {
        IndexScoreboard.Builder b = IndexScoreboard.builder().rows(300_000).generators(4).idsPerMilli(4)
                .index(i -> i.bufferPoolPages(16));
        IndexStats v7 = b.build().run(KeySource.UUID_V7);
        IndexStats snowflake = b.build().run(KeySource.SNOWFLAKE);
        IndexStats v4 = b.build().run(KeySource.UUID_V4);
        // the working set is the right edge of the index: a 16-page pool serves every read
        assertTrue(v7.bufferPoolHitRate() > 0.999, v7.toString());
        assertTrue(snowflake.bufferPoolHitRate() > 0.999, snowflake.toString());
        // v4 reads leaves all over an index fifty times the pool's size
        assertTrue(v4.leafPages() > 50 * 16, v4.toString());
        assertTrue(v4.bufferPoolHitRate() < 0.75, v4.toString());
        // keys of one millisecond arrive out of order: the rightmost leaf splits in half, and no
        // later key ever reaches the lower half it leaves behind
        assertTrue(v7.leafHalfSplits() > 0 && v7.averageLeafFill() < 0.8, v7.toString());
        IndexStats atPoint = b.index(i -> i.bufferPoolPages(16).rightmostSplit(RightmostSplit.AT_INSERT_POINT)).build().run(KeySource.UUID_V7);
        assertTrue(atPoint.leafPointSplits() > 0, atPoint.toString());
        assertTrue(atPoint.averageLeafFill() > v7.averageLeafFill() + 0.1, atPoint + " vs " + v7);
    }

    @Test
    void theFeederGivesTheScoreboardsNumbers() {
        IndexModel model = IndexModel.builder(KeyType.BIGINT).build();
        java.util.function.Consumer<IndexModel> feeder = KeySource.SNOWFLAKE.feeder(42, 4, 4);
        for (int r = 0; r < 20_000; r++) {
            feeder.accept(model);
        }
        assertEquals(IndexScoreboard.builder().rows(20_000).build().run(KeySource.SNOWFLAKE), model.stats());
    }

    @Test
    void tenMillionKeysFitAGigabyteHeap() {
        // interleaved v7 leaves the most leaf pages of all sources (56 % fill), so the most arrays
        assertTrue(Runtime.getRuntime().maxMemory() <= 1L << 30, "run with -Xmx1g: " + Runtime.getRuntime().maxMemory());
        IndexStats s = IndexScoreboard.builder().rows(10_000_000).build().run(KeySource.UUID_V7);
        assertEquals(10_000_000, s.keys());
        assertEquals(0, s.duplicates());
        assertTrue(s.leafPages() > 30_000, s.toString());
    }

    @Test
    void theSameSeedGivesTheSameNumbers() {
        IndexScoreboard.Builder b = IndexScoreboard.builder().rows(50_000).seed(7);
        assertEquals(b.build().run(KeySource.SNOWFLAKE), b.build().run(KeySource.SNOWFLAKE));
        assertEquals(b.build().run(KeySource.UUID_V4), b.build().run(KeySource.UUID_V4));
        IndexStats other = b.seed(8).build().run(KeySource.UUID_V4);
        assertEquals(50_000, other.keys());
    }

    @Test
    void printsAMarkdownTable() {
        Map<KeySource, IndexStats> board = IndexScoreboard.builder().rows(10_000).index(i -> i.bufferPoolPages(64)).build()
                .runAll();
        String table = IndexScoreboard.markdownTable(board);
        String[] lines = table.split("\n");
        assertEquals(2 + KeySource.values().length, lines.length, table);
        assertTrue(lines[0].startsWith("| key | column | leaf splits |") && lines[0].endsWith("pool hit rate |"), table);
        assertTrue(lines[2].startsWith("| auto-increment | BIGINT | 15 | 10,030 | 16 | 100.0 % | 2 |"), table);
        assertTrue(lines[6].startsWith("| UUIDv4 as text | CHAR(36) |"), table);
    }

    @Test
    void refusesBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> IndexScoreboard.builder().rows(0));
        assertThrows(IllegalArgumentException.class, () -> IndexScoreboard.builder().generators(0));
        assertThrows(IllegalArgumentException.class, () -> IndexScoreboard.builder().idsPerMilli(4097));
        assertThrows(IllegalArgumentException.class, () -> KeySource.SNOWFLAKE.feeder(1, 0, 1));
        IndexScoreboard wrongColumn = IndexScoreboard.builder().rows(1).index(i -> IndexModel.builder(KeyType.BIGINT)).build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> wrongColumn.run(KeySource.UUID_V7));
        assertTrue(e.getMessage().contains("BINARY(16)"), e.getMessage());
        assertTrue(IndexScoreboard.builder().index(i -> i.pageFormat(PageFormat.POSTGRESQL)).build().toString()
                .contains("8192-byte pages"));
    }
}
