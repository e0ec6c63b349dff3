package dev.idgen.index.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class IndexModelTest {

    private static IndexModel smallLongIndex(int leaf, int internal) {
        return IndexModel.builder(KeyType.BIGINT).leafCapacity(leaf).internalCapacity(internal).build();
    }

    @Test
    void twelveOrderedKeysFillThreeLeavesWithTwoSplitsAndSixteenWrites() {
        IndexModel model = smallLongIndex(4, 4);
        for (long k = 1; k <= 12; k++) {
            assertTrue(model.insert(k));
        }
        IndexStats s = model.stats();
        assertEquals(12, s.keys());
        assertEquals(3, s.leafPages());
        assertEquals(2, s.leafSplits());
        assertEquals(2, s.leafAppendSplits());
        assertEquals(0, s.leafHalfSplits());
        assertEquals(16, s.pageWrites());
        assertEquals(1.0, s.averageLeafFill());
        assertEquals(2, s.height());
        assertEquals(1, s.internalPages());
    }

    /**
     * Worked by hand: 12..1 into 4-key leaves. 12..9 fill one leaf; 8 splits it (8,9,10 | 11,12);
     * 7 fills the left; 6 splits it (6,7,8 | 9,10); and so on: leaves 1-4, 5-6, 7-8, 9-10, 11-12.
     * These are the figures the background page gives for its 12 random keys.
     */
    @Test
    void twelveDescendingKeysSplitInHalfFourTimes() {
        IndexModel model = smallLongIndex(4, 8);
        for (long k = 12; k >= 1; k--) {
            model.insert(k);
        }
        IndexStats s = model.stats();
        assertEquals(5, s.leafPages());
        assertEquals(4, s.leafHalfSplits());
        assertEquals(0, s.leafAppendSplits());
        assertEquals(20, s.pageWrites());
        assertEquals(0.6, s.averageLeafFill(), 1e-12);
    }

    @Test
    void internalPagesSplitAndTheTreeGrows() {
        // 64 ordered keys, 4 per leaf, 4 children per internal page: 16 full leaves under 4 full
        // internal pages under a root; internal splits made pages 2, 3 and 4 of the middle level
        IndexModel model = smallLongIndex(4, 4);
        for (long k = 0; k < 64; k++) {
            model.insert(k);
        }
        IndexStats s = model.stats();
        assertEquals(16, s.leafPages());
        assertEquals(15, s.leafAppendSplits());
        assertEquals(3, s.internalSplits());
        assertEquals(5, s.internalPages());
        assertEquals(3, s.height());
        assertEquals(64 + 2 * 15 + 2 * 3, s.pageWrites());
        assertEquals(1.0, s.averageLeafFill());
    }

    @Test
    void descendingKeysSplitInternalPagesInHalf() {
        // 5 leaves under a root of at most 4 children: the fifth leaf splits the root in half
        IndexModel model = smallLongIndex(4, 4);
        for (long k = 12; k >= 1; k--) {
            model.insert(k);
        }
        IndexStats s = model.stats();
        assertEquals(5, s.leafPages());
        assertEquals(1, s.internalSplits());
        assertEquals(3, s.internalPages());
        assertEquals(3, s.height());
        assertEquals(12 + 2 * 4 + 2, s.pageWrites());
    }

    /**
     * Worked by hand, 6 keys per leaf: 1-5 and 7, then 6 lands just below the last key of the full
     * rightmost leaf. Split at the insert point: 1-5 | 6 7, and 8-11 then fit the new leaf. Split
     * in half: 1-4 | 5 6 7, which 8-10 fill, so 11 opens a third leaf.
     */
    @Test
    void aNearlySequentialInsertSplitsAtTheInsertPointWhenAsked() {
        long[] keys = {1, 2, 3, 4, 5, 7, 6, 8, 9, 10, 11};
        IndexModel atPoint = IndexModel.builder(KeyType.BIGINT).leafCapacity(6)
                .rightmostSplit(RightmostSplit.AT_INSERT_POINT).build();
        IndexModel appendOnly = IndexModel.builder(KeyType.BIGINT).leafCapacity(6).build();
        for (long k : keys) {
            atPoint.insert(k);
            appendOnly.insert(k);
        }
        IndexStats p = atPoint.stats();
        assertEquals(2, p.leafPages());
        assertEquals(1, p.leafPointSplits());
        assertEquals(0, p.leafHalfSplits());
        assertEquals(11 + 2, p.pageWrites());
        IndexStats a = appendOnly.stats();
        assertEquals(3, a.leafPages());
        assertEquals(1, a.leafHalfSplits());
        assertEquals(1, a.leafAppendSplits());
        assertEquals(0, a.leafPointSplits());
        // an insert into the lower half of the rightmost leaf still splits it in half
        IndexModel low = IndexModel.builder(KeyType.BIGINT).leafCapacity(4)
                .rightmostSplit(RightmostSplit.AT_INSERT_POINT).build();
        for (long k : new long[] {2, 3, 4, 5, 1}) {
            low.insert(k);
        }
        assertEquals(1, low.stats().leafHalfSplits());
        for (long k : new long[] {11, 10, 9, 8, 7, 6, 1}) {
            assertFalse(atPoint.insert(k), "key " + k + " is still found after the split");
        }
    }

    @Test
    void everyKeyIsFoundAfterSplitsAtEveryLevel() {
        // a key inserted twice is refused only if the tree can find the first copy
        SplittableRandom random = new SplittableRandom(0x5EED_0001L);
        IndexModel model = smallLongIndex(3, 3);
        long[] keys = random.longs(5_000).toArray();
        for (long k : keys) {
            assertTrue(model.insert(k), () -> "first insert of " + k);
        }
        for (long k : keys) {
            assertFalse(model.insert(k), () -> "second insert of " + k + " was not refused");
        }
        model.verify();
        IndexStats s = model.stats();
        assertEquals(5_000, s.keys());
        assertEquals(5_000, s.duplicates());
        assertEquals(10_000, s.inserts());
        assertTrue(s.height() > 5, "height " + s.height());
    }

    @Test
    void theTreeKeepsItsShapeUnderEveryRuleAndKeyType() {
        // the testkit's Seeds.forEach, inlined: the testkit depends on this module, not the other way
        SplittableRandom seeds = new SplittableRandom(0x7EE5L);
        for (int c = 0; c < 60; c++) {
            long seed = seeds.nextLong();
            SplittableRandom random = new SplittableRandom(seed);
            try {
                shapeCase(random);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("case " + c + " failed; seed 0x" + Long.toHexString(seed) + ": " + e.getMessage(), e);
            }
        }
    }

    private static void shapeCase(SplittableRandom random) {
        RightmostSplit rule = RightmostSplit.values()[random.nextInt(2)];
        int leaf = 2 + random.nextInt(6);
        int internal = 3 + random.nextInt(5);
        IndexModel longs = IndexModel.builder(KeyType.BIGINT).leafCapacity(leaf).internalCapacity(internal)
                .rightmostSplit(rule).build();
        IndexModel uuids = IndexModel.builder(KeyType.BINARY16).leafCapacity(leaf).internalCapacity(internal)
                .rightmostSplit(rule).build();
        IndexModel bytes = IndexModel.builder(KeyType.bytes(9)).leafCapacity(leaf).internalCapacity(internal)
                .rightmostSplit(rule).build();
        long base = 0;
        for (int i = 0; i < 2_000; i++) {
            // mostly increasing with local disorder, some far jumps back, some repeats
            base += random.nextInt(4) - 1;
            long k = random.nextInt(20) == 0 ? random.nextLong() : base + random.nextInt(8);
            longs.insert(k);
            uuids.insert(k, random.nextInt(3));
            byte[] b = new byte[random.nextInt(10)];
            random.nextBytes(b);
            bytes.insert(b);
        }
        longs.verify();
        uuids.verify();
        bytes.verify();
        assertTrue(longs.stats().duplicates() > 0, "the stream repeats keys: " + longs.stats());
    }

    @Test
    void randomKeysSettleNearLnTwoFill() {
        long seed = 0x69_0000_0001L;
        SplittableRandom random = new SplittableRandom(seed);
        IndexModel model = IndexModel.builder(KeyType.BINARY16).leafCapacity(100).build();
        for (int i = 0; i < 1_000_000; i++) {
            model.insert(random.nextLong(), random.nextLong());
        }
        IndexStats s = model.stats();
        double fill = s.averageLeafFill();
        assertTrue(fill > 0.66 && fill < 0.72, "seed " + seed + ": fill " + fill + " outside 0.66..0.72 (ln 2 = 0.693)");
        assertEquals(s.leafPages() - 1, s.leafSplits(), "every split makes one leaf");
        assertTrue(s.leafHalfSplits() > 0.99 * s.leafSplits(), "random keys rarely append: " + s);
    }

    @Test
    void orderedKeysOfEveryTypeOnlyAppend() {
        // keys given in the order the type sorts them: any comparison mistake would half-split
        IndexModel longs = smallLongIndex(2, 3);
        for (long k = -20; k <= 20; k++) {
            longs.insert(k);
        }
        longs.insert(Long.MAX_VALUE);
        assertEquals(0, longs.stats().leafHalfSplits(), "signed order of BIGINT keys");

        IndexModel uuids = IndexModel.builder(KeyType.BINARY16).leafCapacity(2).internalCapacity(3).build();
        // unsigned order: 0x7f... before 0x80... before 0xff..., unlike UUID.compareTo
        long[] highs = {0, 1, 0x7FFF_FFFF_FFFF_FFFFL, 0x8000_0000_0000_0000L, -2, -1};
        for (long high : highs) {
            uuids.insert(new UUID(high, 5));
            uuids.insert(new UUID(high, -5));
        }
        assertEquals(0, uuids.stats().leafHalfSplits(), "unsigned order of 128-bit keys");

        IndexModel bytes = IndexModel.builder(KeyType.bytes(12)).leafCapacity(2).internalCapacity(3).build();
        List<byte[]> sorted = List.of(new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[] {1},
                ascii("a"), ascii("a\0"), ascii("aa"), ascii("ab"), ascii("abcdefgh"), ascii("abcdefgh\0"),
                ascii("abcdefghi"), ascii("b"), new byte[] {(byte) 0x80}, new byte[] {(byte) 0xFF});
        for (byte[] key : sorted) {
            assertTrue(bytes.insert(key));
        }
        assertEquals(0, bytes.stats().leafHalfSplits(), "unsigned lexicographic order of byte keys");
        assertEquals(sorted.size(), bytes.stats().keys());
    }

    @Test
    void byteKeysOutOfOrderSplitInHalf() {
        IndexModel bytes = IndexModel.builder(KeyType.bytes(4)).leafCapacity(2).internalCapacity(3).build();
        List<String> keys = new ArrayList<>(List.of("a", "b", "c", "d", "e", "f"));
        Collections.reverse(keys);
        for (String k : keys) {
            bytes.insert(ascii(k));
        }
        assertTrue(bytes.stats().leafHalfSplits() > 0);
        assertFalse(bytes.insert(ascii("c")), "duplicate byte key refused");
    }

    @Test
    void keysOfTheWrongKindAreRefusedByName() {
        IndexModel longs = smallLongIndex(4, 4);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> longs.insert(new UUID(1, 2)));
        assertTrue(e.getMessage().contains("BIGINT"), e.getMessage());
        IndexModel bytes = IndexModel.builder(KeyType.bytes(3)).leafCapacity(4).build();
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> bytes.insert(new byte[4]));
        assertTrue(tooLong.getMessage().contains("4 bytes"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IndexModel.builder(KeyType.BIGINT).leafCapacity(1));
        assertThrows(IllegalArgumentException.class, () -> IndexModel.builder(KeyType.BIGINT).internalCapacity(2));
        assertThrows(IllegalArgumentException.class, () -> KeyType.bytes(0));
    }

    @Test
    void capacitiesFollowFromPageFormats() {
        // InnoDB: (16384 - 128) / (18 + key) per leaf, (16384 - 128) / (9 + key) per internal page
        assertEquals(16256 / 26, IndexModel.builder(KeyType.BIGINT).build().leafCapacity());
        assertEquals(16256 / 17, IndexModel.builder(KeyType.BIGINT).build().internalCapacity());
        assertEquals(16256 / 34, IndexModel.builder(KeyType.BINARY16).build().leafCapacity());
        assertEquals(16256 / 54, IndexModel.builder(KeyType.CHAR36).build().leafCapacity());
        assertEquals(16256 / (18 + 8 + 250), IndexModel.builder(KeyType.BIGINT).rowBytes(250).build().leafCapacity());
        // PostgreSQL: 8-byte aligned tuples behind 4-byte line pointers in 8152 usable bytes. 407
        // BIGINT entries per leaf, 367 of them at the default 90 % fillfactor, the figure often
        // quoted for integer B-tree pages
        IndexModel pg = IndexModel.builder(KeyType.BIGINT).pageFormat(PageFormat.POSTGRESQL).build();
        assertEquals(407, pg.leafCapacity());
        assertEquals(367, (int) Math.ceil(pg.leafCapacity() * 0.9));
        assertEquals(8152 / 28, IndexModel.builder(KeyType.BINARY16).pageFormat(PageFormat.POSTGRESQL).build()
                .leafCapacity());
        assertEquals(8192, pg.stats().pageBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IndexModel.builder(KeyType.BIGINT).rowBytes(9000).build());
        assertTrue(e.getMessage().contains("9000") || e.getMessage().contains("9026"), e.getMessage());
    }

    @Test
    void secondaryIndexesPayForEveryCopyOfThePrimaryKey() {
        // the background figures: 10 M rows, 5 secondary indexes; a BINARY(16) key costs 400 MB
        // more than a BIGINT, a CHAR(36) key 1.4 GB more
        long rows = 10_000_000;
        long bigint = stats(KeyType.BIGINT, rows).secondaryIndexKeyBytes(5);
        assertEquals(400_000_000, stats(KeyType.BINARY16, rows).secondaryIndexKeyBytes(5) - bigint);
        assertEquals(1_400_000_000, stats(KeyType.CHAR36, rows).secondaryIndexKeyBytes(5) - bigint);
        assertThrows(IllegalArgumentException.class, () -> stats(KeyType.BIGINT, rows).secondaryIndexKeyBytes(-1));
    }

    @Test
    void bufferPoolHitsStayHighForAppendsAndFallForRandomKeysPastThePoolSize() {
        SplittableRandom random = new SplittableRandom(0xB0FL);
        IndexModel ordered = IndexModel.builder(KeyType.BIGINT).leafCapacity(50).bufferPoolPages(8).build();
        IndexModel shuffled = IndexModel.builder(KeyType.BIGINT).leafCapacity(50).bufferPoolPages(8).build();
        for (long k = 0; k < 100_000; k++) {
            ordered.insert(k);
            shuffled.insert(random.nextLong());
        }
        IndexStats o = ordered.stats();
        IndexStats r = shuffled.stats();
        // ordered inserts touch the root path and the rightmost leaf, all resident
        assertEquals(o.poolAccesses(), o.poolHits(), o.toString());
        // random keys touch about 2,900 leaves through an 8-page pool: nearly every leaf read misses
        assertTrue(r.bufferPoolHitRate() < 0.6, r.toString());
        assertTrue(r.poolMisses() > 90_000, r.toString());
        assertEquals(8, r.poolPages());
    }

    private static IndexStats stats(KeyType type, long keys) {
        return new IndexStats(type, keys, 0, 0, 0, 0, 0, 0, 1, 0, 1, 4, 4, 16384, 0, 0, 0);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
