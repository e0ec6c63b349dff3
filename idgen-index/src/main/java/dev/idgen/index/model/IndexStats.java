package dev.idgen.index.model;

/**
 * What an {@link IndexModel} counted: the work a database would have done for the keys inserted so
 * far, and the shape of the index they left.
 *
 * @param keyType the key column
 * @param keys keys in the index
 * @param duplicates inserts refused because the key was already there (a primary key is unique)
 * @param leafAppendSplits full rightmost leaves left full while a new, empty page took a key past
 *     their last one
 * @param leafHalfSplits full leaves split in half to make room
 * @param leafPointSplits full rightmost leaves split at the new key
 *     ({@link RightmostSplit#AT_INSERT_POINT} only)
 * @param internalSplits internal pages split (either way), the root included
 * @param pageWrites pages written: 1 per insert, 3 for an insert that splits a leaf (the leaf, the
 *     new leaf, the parent), and 2 more for each internal page that split above it (the new page
 *     and its parent)
 * @param leafPages leaf pages
 * @param internalPages internal pages
 * @param height levels of the tree: 1 while the root is a leaf
 * @param leafCapacity entries per leaf page
 * @param internalCapacity children per internal page
 * @param pageBytes bytes per page
 * @param poolPages pages the LRU buffer pool holds; 0 when no pool was modelled
 * @param poolAccesses pages read through the pool: every page on the path from the root to the
 *     leaf, on every insert
 * @param poolHits of those, pages already in the pool
 */
public record IndexStats(KeyType keyType, long keys, long duplicates, long leafAppendSplits, long leafHalfSplits,
        long leafPointSplits, long internalSplits, long pageWrites, long leafPages, long internalPages, int height, int leafCapacity,
        int internalCapacity, int pageBytes, int poolPages, long poolAccesses, long poolHits) {

    /** {@return inserts attempted: keys stored plus duplicates refused} */
    public long inserts() {
        return keys + duplicates;
    }

    /** {@return leaf splits of every kind} */
    public long leafSplits() {
        return leafAppendSplits + leafHalfSplits + leafPointSplits;
    }

    /** {@return all splits, leaf and internal} */
    public long splits() {
        return leafSplits() + internalSplits;
    }

    /** {@return leaf and internal pages} */
    public long pages() {
        return leafPages + internalPages;
    }

    /** {@return keys over leaf slots, 0 to 1 (1 when every leaf is full)} */
    public double averageLeafFill() {
        return leafPages == 0 ? 0 : (double) keys / ((double) leafPages * leafCapacity);
    }

    /** {@return the index's size on disk: pages times page size} */
    public long indexBytes() {
        return pages() * pageBytes;
    }

    /** {@return pool hits over pool accesses, 0 to 1; 1 when nothing was read} */
    public double bufferPoolHitRate() {
        return poolAccesses == 0 ? 1 : (double) poolHits / poolAccesses;
    }

    /** {@return page reads the pool could not serve (each a disk read in a database)} */
    public long poolMisses() {
        return poolAccesses - poolHits;
    }

    /**
     * Bytes that secondary indexes spend on copies of the primary key: InnoDB stores the whole
     * primary key in every secondary-index entry, as its pointer back to the row. (PostgreSQL stores
     * a 6-byte heap TID instead; use {@link #keys()} times 6 there.)
     *
     * @param secondaryIndexes how many secondary indexes the table has, 0 or more
     * @return {@code keys * keyBytes * secondaryIndexes}
     * @throws IllegalArgumentException if {@code secondaryIndexes} is negative
     */
    public long secondaryIndexKeyBytes(int secondaryIndexes) {
        if (secondaryIndexes < 0) {
            throw new IllegalArgumentException("secondary index count " + secondaryIndexes
                    + " is negative; allowed 0 or more");
        }
        return Math.multiplyExact(Math.multiplyExact(keys, (long) keyType.storedBytes()), secondaryIndexes);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "%s: %d keys, %d leaf splits (%d append, %d half, %d at insert point), %d internal splits, %d page writes,"
                        + " %d pages (%d leaf, %d internal), height %d, leaf fill %.1f%%, %d bytes,"
                        + " pool hit rate %.2f%% of %d accesses (%d-page pool)",
                keyType, keys, leafSplits(), leafAppendSplits, leafHalfSplits, leafPointSplits, internalSplits, pageWrites,
                pages(), leafPages, internalPages, height, 100 * averageLeafFill(), indexBytes(),
                100 * bufferPoolHitRate(), poolAccesses, poolPages);
    }
}
