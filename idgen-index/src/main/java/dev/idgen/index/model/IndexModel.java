package dev.idgen.index.model;

import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;

/**
 * A B+ tree primary-key index in memory that counts what a database would do for a stream of keys:
 * splits, page writes, pages, leaf fill, bytes and buffer-pool hits. See {@link IndexStats}.
 *
 * <p>Leaves hold up to {@code leafCapacity} keys, internal pages up to {@code internalCapacity}
 * children; both are given directly or derived from a {@link PageFormat}, the {@link KeyType} and
 * the row size. A full page splits by one of the two rules engines use:
 * <ul>
 *   <li>an insert past the last key of the rightmost page of its level opens a new page holding
 *       just that entry and leaves the full page full (InnoDB and PostgreSQL both special-case
 *       this, which is why ever-increasing keys fill pages to 100 %);</li>
 *   <li>any other insert into a full page splits it in half: the lower half (one more when odd)
 *       stays, the upper half moves to a new page.</li>
 * </ul>
 * When the root splits, a new root is made and the tree grows by one level.
 * {@link RightmostSplit#AT_INSERT_POINT} adds a third rule for the rightmost leaf, closer to what
 * engines do with nearly-sequential keys.
 *
 * <p>Keys live in {@code long} arrays, one per page, so ten million keys take a few hundred MB at
 * most (no object per key). Not thread-safe: feed it from one thread.
 *
 * <pre>{@code
 * IndexModel model = IndexModel.builder(KeyType.BIGINT).leafCapacity(4).build();
 * for (long k = 1; k <= 12; k++) model.insert(k);
 * model.stats();  // 3 leaves, 2 splits, 16 page writes, 100 % fill
 * }</pre>
 */
public final class IndexModel {

    /** The fewest keys a leaf may hold. */
    public static final int MIN_LEAF_CAPACITY = 2;

    /** The fewest children an internal page may hold. */
    public static final int MIN_INTERNAL_CAPACITY = 3;

    /** The most entries a page may hold. */
    public static final int MAX_CAPACITY = 1 << 20;

    /** The deepest tree the model follows (far beyond any real index). */
    private static final int MAX_HEIGHT = 64;

    private final KeyType keyType;
    private final int words;
    private final int leafCapacity;
    private final int internalCapacity;
    private final int pageBytes;
    private final LruPool pool;
    private final RightmostSplit rightmostSplit;
    private final IndexEngine engine;
    /** PostgreSQL: bytes per leaf entry; InnoDB: bytes per record. */
    private final int entryBytes;
    /** InnoDB: the most records a sequential insert may fill a page to (the 1/16 reserve kept). */
    private final int sequentialCapacity;

    /** The key being inserted, as unsigned words. */
    private final long[] probe;
    /** The separator travelling up after a split. */
    private final long[] separator;
    private final Internal[] pathPages = new Internal[MAX_HEIGHT];
    private final int[] pathChild = new int[MAX_HEIGHT];
    private final boolean[] pathRightmost = new boolean[MAX_HEIGHT];

    private Page root;
    private int height = 1;
    private int nextPageId;
    private long keys;
    private long duplicates;
    private long leafAppendSplits;
    private long leafHalfSplits;
    private long leafPointSplits;
    private long internalSplits;
    private long pageWrites;
    private long leafPages;
    private long internalPages;

    private IndexModel(Builder b) {
        this.keyType = b.keyType;
        this.words = keyType.words();
        this.pageBytes = b.format.pageBytes();
        this.internalCapacity = b.internalCapacity > 0 ? b.internalCapacity
                : b.format.internalCapacity(keyType.storedBytes());
        this.pool = b.poolPages > 0 ? new LruPool(b.poolPages) : null;
        this.rightmostSplit = b.rightmostSplit;
        this.engine = b.engine;
        switch (engine) {
            case POSTGRESQL -> {
                this.entryBytes = IndexEngine.pgEntryBytes(keyType);
                this.leafCapacity = IndexEngine.PG_SPACE / entryBytes; // the rightmost leaf: no high key
                this.sequentialCapacity = leafCapacity;
            }
            case INNODB -> {
                this.entryBytes = IndexEngine.innodbRecordBytes(keyType, b.rowBytes);
                int full = 0;
                while (entryBytes <= innodbFree(full)) {
                    full++;
                }
                int sequential = 0;
                while (IndexEngine.INNODB_RESERVE + entryBytes <= innodbFree(sequential)) {
                    sequential++;
                }
                if (full < MIN_LEAF_CAPACITY) {
                    throw new IllegalArgumentException("an InnoDB page holds " + full + " records of " + entryBytes
                            + " bytes; at least " + MIN_LEAF_CAPACITY + " must fit");
                }
                this.leafCapacity = full;
                this.sequentialCapacity = Math.max(1, sequential);
            }
            case SQLITE -> {
                this.entryBytes = IndexEngine.sqliteCellBytes(keyType, b.rowBytes);
                // a leaf holds M cells; the model keeps a copy of the divider SQLite moves up to the
                // parent, so every leaf but the last holds M + 1 keys here
                this.sequentialCapacity = (IndexEngine.SQLITE_PAGE - 8) / entryBytes;
                this.leafCapacity = sequentialCapacity + 1;
                if (leafCapacity < MIN_LEAF_CAPACITY) {
                    throw new IllegalArgumentException("a SQLite page holds " + leafCapacity + " cells of " + entryBytes
                            + " bytes; at least " + MIN_LEAF_CAPACITY + " must fit");
                }
            }
            default -> {
                this.entryBytes = 0;
                this.leafCapacity = b.leafCapacity > 0 ? b.leafCapacity
                        : b.format.leafCapacity(keyType.storedBytes(), b.rowBytes);
                this.sequentialCapacity = leafCapacity;
            }
        }
        this.probe = new long[words];
        this.separator = new long[words];
        this.root = newLeaf();
    }

    /**
     * A builder for an index on keys of this type: InnoDB 16 KiB pages, key-only rows, no buffer
     * pool, unless told otherwise.
     *
     * @param keyType the key column
     * @return a new builder
     */
    public static Builder builder(KeyType keyType) {
        return new Builder(keyType);
    }

    /**
     * Inserts a {@code long} key (a {@link KeyType.Kind#LONG} index), in signed order.
     *
     * @param key the key
     * @return {@code true} if inserted, {@code false} if it was already there (counted as a duplicate)
     * @throws IllegalStateException if the index is not on {@code long} keys
     */
    public boolean insert(long key) {
        requireKind(KeyType.Kind.LONG);
        probe[0] = key ^ Long.MIN_VALUE; // flip the sign bit: unsigned order of the word = signed order of the key
        return insertProbe();
    }

    /**
     * Inserts a 128-bit key (a {@link KeyType.Kind#UINT128} index), in unsigned order: the high
     * word first.
     *
     * @param high the high 64 bits (a UUID's most significant bits)
     * @param low the low 64 bits
     * @return {@code true} if inserted, {@code false} if it was already there
     * @throws IllegalStateException if the index is not on 128-bit keys
     */
    public boolean insert(long high, long low) {
        requireKind(KeyType.Kind.UINT128);
        probe[0] = high;
        probe[1] = low;
        return insertProbe();
    }

    /**
     * Inserts a UUID key (a {@link KeyType.Kind#UINT128} index), compared as unsigned bytes as RFC
     * 9562 section 6.11 says, not as {@link UUID#compareTo} does.
     *
     * @param key the key
     * @return {@code true} if inserted, {@code false} if it was already there
     * @throws IllegalStateException if the index is not on 128-bit keys
     */
    public boolean insert(UUID key) {
        return insert(key.getMostSignificantBits(), key.getLeastSignificantBits());
    }

    /**
     * Inserts a byte-string key (a {@link KeyType.Kind#BYTES} index), in unsigned lexicographic
     * order, a prefix before the longer key.
     *
     * @param key the key, up to the key type's length
     * @return {@code true} if inserted, {@code false} if it was already there
     * @throws IllegalStateException if the index is not on byte strings
     * @throws IllegalArgumentException if the key is longer than the key type allows
     */
    public boolean insert(byte[] key) {
        requireKind(KeyType.Kind.BYTES);
        if (key.length > keyType.storedBytes()) {
            throw new IllegalArgumentException("key of " + key.length + " bytes is longer than "
                    + keyType + " allows (" + keyType.storedBytes() + ")");
        }
        // zero-padded big-endian words, then the length: padding ties are broken by length, so a
        // prefix sorts before every longer key that starts with it
        Arrays.fill(probe, 0);
        for (int i = 0; i < key.length; i++) {
            probe[i >>> 3] |= (key[i] & 0xFFL) << (56 - 8 * (i & 7));
        }
        probe[words - 1] = key.length;
        return insertProbe();
    }

    /**
     * What the model counted so far.
     *
     * @return the counts
     */
    public IndexStats stats() {
        return new IndexStats(keyType, keys, duplicates, leafAppendSplits, leafHalfSplits, leafPointSplits,
                internalSplits,
                pageWrites, leafPages, internalPages, height, leafCapacity, internalCapacity, pageBytes,
                pool == null ? 0 : pool.capacity(), pool == null ? 0 : pool.accesses(),
                pool == null ? 0 : pool.hits());
    }

    /** {@return the key column} */
    public KeyType keyType() {
        return keyType;
    }

    /** {@return keys per leaf page} */
    public int leafCapacity() {
        return leafCapacity;
    }

    /** {@return children per internal page} */
    public int internalCapacity() {
        return internalCapacity;
    }

    private void requireKind(KeyType.Kind kind) {
        if (keyType.kind() != kind) {
            throw new IllegalStateException("this index is on " + keyType + " keys (" + keyType.kind()
                    + "); a " + kind + " key does not fit it");
        }
    }

    private boolean insertProbe() {
        Page page = root;
        boolean rightmost = true;
        int level = 0;
        while (page instanceof Internal internal) {
            touch(internal);
            int child = childFor(internal);
            pathPages[level] = internal;
            pathChild[level] = child;
            pathRightmost[level] = rightmost;
            rightmost &= child == internal.count - 1;
            level++;
            page = internal.children[child];
        }
        Leaf leaf = (Leaf) page;
        touch(leaf);
        int pos = lowerBound(leaf);
        if (pos < leaf.count && compare(leaf.keys, pos, probe) == 0) {
            duplicates++;
            return false;
        }
        keys++;
        if (engine == IndexEngine.SQLITE && level > 0 && leaf.count == (rightmost ? sequentialCapacity : leafCapacity)) {
            Leaf sibling = sqliteBalance(leaf, pos, level - 1);
            pageWrites += 3;
            return sibling == null || raise(sibling, level);
        }
        if (engine == IndexEngine.POSTGRESQL || engine == IndexEngine.INNODB) {
            Leaf sibling = engine == IndexEngine.INNODB ? innodbInsert(leaf, pos, level) : postgresInsert(leaf, pos, rightmost);
            if (sibling == null) {
                pageWrites++;
                return true;
            }
            pageWrites += 3;
            return raise(sibling, level);
        }
        if (leaf.count < leafCapacity) {
            insertWords(leaf.keys, leaf.count, pos, probe);
            leaf.count++;
            pageWrites++;
            return true;
        }
        pageWrites += 3; // the leaf, the new leaf, the parent
        Page sibling;
        if (rightmost && pos == leaf.count) {
            sibling = appendLeaf();
        } else if (rightmost && rightmostSplit == RightmostSplit.AT_INSERT_POINT && 2 * (leaf.count - pos) <= leaf.count) {
            sibling = splitLeafAtProbe(leaf, pos);
        } else {
            sibling = splitLeaf(leaf, pos);
        }
        return raise(sibling, level);
    }

    /** Adds {@code sibling} (the separator set) to the parents on the path, splitting them as needed. */
    private boolean raise(Page sibling, int level) {
        for (int l = level - 1; l >= 0; l--) {
            Internal parent = pathPages[l];
            int child = pathChild[l];
            if (parent.count < internalCapacity) {
                addChild(parent, child, sibling);
                return true;
            }
            internalSplits++;
            pageWrites += 2; // the new internal page and its parent
            sibling = pathRightmost[l] && child == parent.count - 1
                    ? appendInternal(sibling) : splitInternal(parent, child, sibling);
        }
        growRoot(sibling);
        return true;
    }

    /**
     * SQLite's balance_nonroot for a full leaf with a parent: the leaf and up to two neighbours
     * (the one on each side; at either end of the parent the two on the one side) share their
     * entries and the new one. They are packed as full as they go from the left, one more page
     * opened when needed; then, from the right, each pair of neighbours is evened out (the right
     * takes entries from the left while it has two fewer). Dividers are kept as copies here (SQLite's
     * index tree moves them up), so leaves hold about one entry per page more than SQLite's.
     *
     * @return the new leaf to add to the parent after the last sibling, or null when none was needed
     */
    private Leaf sqliteBalance(Leaf leaf, int pos, int parentLevel) {
        Internal parent = pathPages[parentLevel];
        int child = pathChild[parentLevel];
        int n = Math.min(3, parent.count);
        int first = child == 0 ? 0 : child == parent.count - 1 ? Math.max(0, child - 2) : child - 1;
        n = Math.min(n, parent.count - first);
        int total = 1;
        for (int j = 0; j < n; j++) {
            total += parent.children[first + j].count;
        }
        long[] all = new long[total * words];
        int at = 0;
        for (int j = 0; j < n; j++) {
            Page p = parent.children[first + j];
            if (p == leaf) {
                System.arraycopy(p.keys, 0, all, at * words, pos * words);
                System.arraycopy(probe, 0, all, (at + pos) * words, words);
                System.arraycopy(p.keys, pos * words, all, (at + pos + 1) * words, (p.count - pos) * words);
                at += p.count + 1;
            } else {
                System.arraycopy(p.keys, 0, all, at * words, p.count * words);
                at += p.count;
            }
        }
        // in SQLite's own terms: cells of the window, the dividers between its pages included, and
        // a divider after the window's last page unless it is the last leaf of the tree
        int cells = sequentialCapacity;
        int hasRight = pathRightmost[parentLevel] && first + n == parent.count ? 0 : 1;
        int real = total - hasRight;
        int pages = Math.max(n, (real + 1 + cells) / (cells + 1)); // k pages hold k * cells + k - 1
        int[] counts = new int[pages];
        int left = real;
        for (int i = 0; i < pages; i++) {
            counts[i] = Math.min(cells, left);
            left -= counts[i] + 1;
            left = Math.max(left, 0);
        }
        for (int i = pages - 1; i > 0; i--) {
            while (counts[i] + 2 <= counts[i - 1] || counts[i] == 0) {
                counts[i]++;
                counts[i - 1]--;
            }
        }
        for (int i = 0; i < pages; i++) {
            counts[i] += i < pages - 1 ? 1 : hasRight; // the model's copies of the dividers
        }
        leafHalfSplits += pages > n ? 1 : 0;
        Leaf added = pages > n ? newLeaf() : null;
        at = 0;
        for (int i = 0; i < pages; i++) {
            Page p = i < n ? parent.children[first + i] : added;
            System.arraycopy(all, at * words, p.keys, 0, counts[i] * words);
            p.count = counts[i];
            if (i > 0 && i < n) {
                System.arraycopy(all, at * words, parent.keys, (first + i - 1) * words, words); // the divider before page i
            }
            at += counts[i];
            touch(p);
        }
        if (added == null) {
            return null;
        }
        System.arraycopy(added.keys, 0, separator, 0, words);
        pathChild[parentLevel] = first + n - 1;
        return added;
    }

    /** InnoDB: bytes left for one more record on a page of {@code n} records (after reorganizing). */
    private int innodbFree(int n) {
        return IndexEngine.INNODB_SPACE - n * entryBytes - (2 * (n + 1) + 3) / 4;
    }

    /**
     * InnoDB's leaf insert, as MariaDB 10.11 does it. An insert right after the page's last insert
     * (PAGE_LAST_INSERT) runs up, one right before it runs down; either may not take the page past
     * {@link #sequentialCapacity} (btr_cur_optimistic_insert keeps 1/16 of the page free then). When
     * the record does not go in, btr_page_split_and_insert first tries the right sibling
     * (btr_insert_into_right_sibling): if the record falls after the last one of a page that has a
     * next page with room, it becomes the first record there, no split. Otherwise the page splits:
     * running up, at the insert point (the new record and at most one after it stay; with none or
     * one after it, the new record moves to the new page with it); running down, just before the
     * record preceding the new one (that record, the new one and all after stay on the old page,
     * the rest goes to a new page on the left, copied record by record, so that page's last insert
     * is its last record); else at the middle record. A leaf that is the root splits at the middle
     * record whatever the direction: btr_root_raise_and_insert first moves its records to a new
     * page, which has no last insert. The page that takes the new record remembers it as its last
     * insert.
     */
    private Leaf innodbInsert(Leaf leaf, int pos, int level) {
        boolean up = leaf.hasLast && pos > 0 && compare(leaf.keys, pos - 1, leaf.last) == 0;
        boolean down = !up && leaf.hasLast && pos < leaf.count && compare(leaf.keys, pos, leaf.last) == 0;
        boolean reserve = leaf.count >= 2 && (up || down) && leaf.count >= sequentialCapacity;
        // a page holding deleted records (moved out by a split) whose heap is used up takes no record
        // once it is nearly full (free space after reorganizing under 1/32 of the page), though the
        // record would fit in a deleted one's place (btr_cur_optimistic_insert, page_has_garbage)
        boolean garbage = leaf.heap > leaf.count && leaf.count > 1
                && innodbFree(leaf.count) < IndexEngine.INNODB_REORGANIZE_LIMIT && innodbFree(leaf.heap) < entryBytes;
        if (leaf.count < leafCapacity && !reserve && !garbage) {
            insertWords(leaf.keys, leaf.count, pos, probe);
            leaf.count++;
            leaf.heap = Math.max(leaf.heap, leaf.count);
            remember(leaf);
            return null;
        }
        if (level == 0) {
            // the root (btr_root_raise_and_insert): its records move to a new page, which starts with
            // no last insert, and that page is split; so neither direction applies: the middle
            up = false;
            down = false;
        } else if (pos == leaf.count && insertIntoRightSibling(level)) {
            return null;
        }
        int n = leaf.count;
        int stay;                       // entries of the n + 1 (probe included) that stay left
        boolean lowerIsNew = false;
        if (up) {
            leafPointSplits++;
            stay = n - pos <= 1 ? pos : pos + 2;
        } else if (down) {
            leafPointSplits++;
            lowerIsNew = true;
            // the first old record of the upper page: the one before the insert point, unless
            // that is the page's first record (or there is none), then the one at it
            int split = pos >= 2 ? pos - 1 : pos;
            stay = split == pos ? pos + 1 : split;
        } else {
            leafHalfSplits++;
            int middle = (n + 2) / 2 - 1; // page_get_middle_rec: this old record starts the right page
            stay = pos <= middle ? middle + 1 : middle;
        }
        stay = Math.max(1, Math.min(n, stay));
        // the old page forgets its last insert only when records leave it (page_delete_rec_list_end
        // and _start return before resetting PAGE_LAST_INSERT when there is nothing to delete)
        boolean nothingMoves = lowerIsNew ? stay == 1 && pos == 0 : stay == n && pos == n;
        long[] oldLast = nothingMoves && leaf.hasLast ? Arrays.copyOf(leaf.last, words) : null;
        int oldHeap = level == 0 ? n : leaf.heap; // the root's records go to a fresh page first
        Leaf right = splitLeafAt(leaf, pos, stay);
        // the old page keeps its heap (moved records become deleted ones); the new page is compact
        Leaf old = lowerIsNew ? right : leaf;
        Leaf fresh = lowerIsNew ? leaf : right;
        old.heap = Math.max(oldHeap, old.count);
        fresh.heap = fresh.count;
        if (pos < stay) {
            remember(leaf);
            right.hasLast = false;
            if (oldLast != null) { // running down, the new record alone on the new lower page
                System.arraycopy(oldLast, 0, right.last, 0, words);
                right.hasLast = true;
            }
        } else {
            remember(right);
            leaf.hasLast = false;
            if (oldLast != null) { // running up, the new record alone on the new upper page
                System.arraycopy(oldLast, 0, leaf.last, 0, words);
                leaf.hasLast = true;
            } else if (lowerIsNew) {
                System.arraycopy(leaf.keys, (leaf.count - 1) * words, leaf.last, 0, words);
                leaf.hasLast = true;
            }
        }
        return right;
    }

    /**
     * btr_insert_into_right_sibling: the probe, past the last key of its leaf, becomes the first
     * key of the next leaf when that has room; the separator above the next leaf drops to the probe.
     *
     * @return whether it went in
     */
    private boolean insertIntoRightSibling(int level) {
        int l = level - 1;
        while (l >= 0 && pathChild[l] == pathPages[l].count - 1) {
            l--;
        }
        if (l < 0) {
            return false; // the rightmost leaf: no next page
        }
        Page page = pathPages[l].children[pathChild[l] + 1];
        while (page instanceof Internal internal) {
            page = internal.children[0];
        }
        Leaf next = (Leaf) page;
        if (next.count >= leafCapacity) {
            return false;
        }
        touch(next);
        insertWords(next.keys, next.count, 0, probe);
        next.count++;
        next.heap = Math.max(next.heap, next.count);
        remember(next);
        System.arraycopy(probe, 0, pathPages[l].keys, pathChild[l] * words, words);
        pageWrites++; // the parent's node pointer (the caller counts the sibling)
        return true;
    }

    private void remember(Leaf leaf) {
        System.arraycopy(probe, 0, leaf.last, 0, words);
        leaf.hasLast = true;
    }

    /**
     * PostgreSQL's leaf insert (_bt_findsplitloc): every leaf but the rightmost keeps a high key, so
     * holds one entry less; the rightmost splits so that the left page keeps the fillfactor, 90 %,
     * wherever the new key falls; any other leaf so that both sides have the same free space.
     */
    private Leaf postgresInsert(Leaf leaf, int pos, boolean rightmost) {
        int capacity = rightmost ? leafCapacity : leafCapacity - 1;
        if (leaf.count < capacity) {
            insertWords(leaf.keys, leaf.count, pos, probe);
            leaf.count++;
            return null;
        }
        int total = leaf.count + 1;
        int e = entryBytes;
        int best = 1;
        double bestDelta = Double.MAX_VALUE;
        for (int left = 1; left < total; left++) {
            double leftFree = IndexEngine.PG_SPACE - (left + 1) * e;                         // items + high key
            double rightFree = IndexEngine.PG_SPACE - (total - left + (rightmost ? 0 : 1)) * e;
            double delta = rightmost
                    ? Math.abs(IndexEngine.PG_FILLFACTOR / 100.0 * leftFree - (1 - IndexEngine.PG_FILLFACTOR / 100.0) * rightFree)
                    : Math.abs(leftFree - rightFree);
            if (delta < bestDelta) {
                bestDelta = delta;
                best = left;
            }
        }
        if (rightmost) {
            leafPointSplits++;
        } else {
            leafHalfSplits++;
        }
        return splitLeafAt(leaf, pos, best);
    }

    /** Puts the probe in at {@code pos}, keeps the first {@code stay} entries and moves the rest to a new leaf. */
    private Leaf splitLeafAt(Leaf leaf, int pos, int stay) {
        insertWords(leaf.keys, leaf.count, pos, probe); // the array has one spare slot for this
        leaf.count++;
        Leaf right = newLeaf();
        right.count = leaf.count - stay;
        System.arraycopy(leaf.keys, stay * words, right.keys, 0, right.count * words);
        leaf.count = stay;
        System.arraycopy(right.keys, 0, separator, 0, words);
        return right;
    }

    /** The rightmost rule: a new leaf holding just the probe; the separator is the probe. */
    private Leaf appendLeaf() {
        leafAppendSplits++;
        Leaf leaf = newLeaf();
        System.arraycopy(probe, 0, leaf.keys, 0, words);
        leaf.count = 1;
        System.arraycopy(probe, 0, separator, 0, words);
        return leaf;
    }

    /** The insert-point split: keys from {@code pos} up move, after the probe, to a new leaf. */
    private Leaf splitLeafAtProbe(Leaf leaf, int pos) {
        leafPointSplits++;
        Leaf right = newLeaf();
        System.arraycopy(probe, 0, right.keys, 0, words);
        System.arraycopy(leaf.keys, pos * words, right.keys, words, (leaf.count - pos) * words);
        right.count = leaf.count - pos + 1;
        leaf.count = pos;
        System.arraycopy(probe, 0, separator, 0, words);
        return right;
    }

    /** The half split: the probe goes in, the upper half moves out; the separator is its first key. */
    private Leaf splitLeaf(Leaf leaf, int pos) {
        leafHalfSplits++;
        insertWords(leaf.keys, leaf.count, pos, probe); // the array has one spare slot for this
        leaf.count++;
        int stay = (leaf.count + 1) / 2;
        Leaf right = newLeaf();
        right.count = leaf.count - stay;
        System.arraycopy(leaf.keys, stay * words, right.keys, 0, right.count * words);
        leaf.count = stay;
        System.arraycopy(right.keys, 0, separator, 0, words);
        return right;
    }

    /** The rightmost rule one level up: a new internal page whose one child is {@code child}. */
    private Internal appendInternal(Page child) {
        Internal page = newInternal();
        page.children[0] = child;
        page.count = 1;
        return page; // the separator travels up unchanged
    }

    private Internal splitInternal(Internal page, int child, Page sibling) {
        addChild(page, child, sibling); // the arrays have one spare child slot for this
        int stay = (page.count + 1) / 2;
        Internal right = newInternal();
        right.count = page.count - stay;
        System.arraycopy(page.children, stay, right.children, 0, right.count);
        Arrays.fill(page.children, stay, page.count, null);
        // separators: stay - 1 remain, the next travels up, the rest move right
        System.arraycopy(page.keys, (stay - 1) * words, separator, 0, words);
        System.arraycopy(page.keys, stay * words, right.keys, 0, (right.count - 1) * words);
        page.count = stay;
        return right;
    }

    /** Puts {@code sibling} right after child {@code child}, with the separator before it. */
    private void addChild(Internal page, int child, Page sibling) {
        insertWords(page.keys, page.count - 1, child, separator);
        System.arraycopy(page.children, child + 1, page.children, child + 2, page.count - child - 1);
        page.children[child + 1] = sibling;
        page.count++;
    }

    private void growRoot(Page sibling) {
        if (height == MAX_HEIGHT) {
            throw new IllegalStateException("the tree would grow past " + MAX_HEIGHT + " levels; use larger pages");
        }
        Internal top = newInternal();
        top.children[0] = root;
        top.children[1] = sibling;
        System.arraycopy(separator, 0, top.keys, 0, words);
        top.count = 2;
        root = top;
        height++;
    }

    /** The child to descend into: the number of separators at or below the probe. */
    private int childFor(Internal page) {
        int lo = 0;
        int hi = page.count - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(page.keys, mid, probe) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first position whose key is at or above the probe. */
    private int lowerBound(Leaf leaf) {
        int lo = 0;
        int hi = leaf.count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(leaf.keys, mid, probe) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int compare(long[] array, int index, long[] key) {
        int base = index * words;
        for (int w = 0; w < words; w++) {
            int c = Long.compareUnsigned(array[base + w], key[w]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Inserts {@code key} at {@code pos} into the first {@code count} keys of {@code array}. */
    private void insertWords(long[] array, int count, int pos, long[] key) {
        System.arraycopy(array, pos * words, array, (pos + 1) * words, (count - pos) * words);
        System.arraycopy(key, 0, array, pos * words, words);
    }

    private void touch(Page page) {
        if (pool != null) {
            pool.access(page.id);
        }
    }

    private Leaf newLeaf() {
        leafPages++;
        Leaf leaf = new Leaf(nextPageId(), (leafCapacity + 1) * words, words);
        admit(leaf);
        return leaf;
    }

    private Internal newInternal() {
        internalPages++;
        Internal page = new Internal(nextPageId(), internalCapacity * words, internalCapacity + 1);
        admit(page);
        return page;
    }

    private int nextPageId() {
        if (nextPageId == Integer.MAX_VALUE) {
            throw new IllegalStateException("the model holds " + Integer.MAX_VALUE + " pages, its limit; use larger pages");
        }
        return nextPageId++;
    }

    private void admit(Page page) {
        if (pool != null) {
            pool.admit(page.id);
        }
    }

    /** {@return the entries of each leaf, left to right; for tests} */
    int[] leafCounts() {
        int[] out = new int[Math.toIntExact(leafPages)];
        int[] at = {0};
        leafCounts(root, out, at);
        return out;
    }

    private void leafCounts(Page page, int[] out, int[] at) {
        if (page instanceof Internal internal) {
            for (int c = 0; c < internal.count; c++) {
                leafCounts(internal.children[c], out, at);
            }
        } else {
            out[at[0]++] = page.count;
        }
    }

    /**
     * Walks the whole tree and checks its shape, for tests: every leaf at the same depth, keys in
     * strictly increasing order across all leaves, each page within its capacity and every key
     * within the bounds its parents' separators give, page and key counts as counted.
     *
     * @throws IllegalStateException naming the first page that breaks a rule
     */
    void verify() {
        long[] previous = new long[words];
        long[] counts = new long[3]; // keys, leaf pages, internal pages
        boolean[] first = {true};
        verify(root, 1, null, null, previous, first, counts);
        if (counts[0] != keys || counts[1] != leafPages || counts[2] != internalPages) {
            throw new IllegalStateException("tree holds " + counts[0] + " keys in " + counts[1] + " leaves and "
                    + counts[2] + " internal pages; counted " + keys + ", " + leafPages + ", " + internalPages);
        }
    }

    private void verify(Page page, int depth, long[] low, long[] high, long[] previous, boolean[] first, long[] counts) {
        if (page instanceof Internal internal) {
            counts[2]++;
            if (internal.count < 1 || internal.count > internalCapacity || depth >= height) {
                throw new IllegalStateException("internal page " + page.id + " has " + internal.count
                        + " children at depth " + depth + " of " + height);
            }
            for (int c = 0; c < internal.count; c++) {
                long[] lo = c == 0 ? low : Arrays.copyOfRange(internal.keys, (c - 1) * words, c * words);
                long[] hi = c == internal.count - 1 ? high : Arrays.copyOfRange(internal.keys, c * words, (c + 1) * words);
                verify(internal.children[c], depth + 1, lo, hi, previous, first, counts);
            }
            return;
        }
        counts[1]++;
        if (depth != height || page.count > leafCapacity || (page.count == 0 && keys > 0)) {
            throw new IllegalStateException("leaf " + page.id + " holds " + page.count + " keys at depth " + depth
                    + " of " + height);
        }
        for (int i = 0; i < page.count; i++) {
            if ((!first[0] && compare(page.keys, i, previous) <= 0)
                    || (low != null && compare(page.keys, i, low) < 0)
                    || (high != null && compare(page.keys, i, high) >= 0)) {
                throw new IllegalStateException("leaf " + page.id + " key " + i + " is out of order or outside"
                        + " its parent's bounds");
            }
            System.arraycopy(page.keys, i * words, previous, 0, words);
            first[0] = false;
            counts[0]++;
        }
    }

    @Override
    public String toString() {
        return "IndexModel[" + keyType + ", leaf capacity " + leafCapacity + ", internal capacity "
                + internalCapacity + ", " + pageBytes + "-byte pages, rightmost split " + rightmostSplit
                + (pool == null ? ", no buffer pool" : ", " + pool.capacity() + "-page LRU pool") + "]";
    }

    /** A page: its id (for the pool), its entry count and its keys, {@code words} longs each. */
    private abstract static class Page {
        final int id;
        final long[] keys;
        int count;

        Page(int id, int keyWords) {
            this.id = id;
            this.keys = new long[keyWords];
        }
    }

    /**
     * {@code count} keys, and the last key inserted (InnoDB's PAGE_LAST_INSERT) while {@code hasLast};
     * InnoDB: {@code heap} records' room ever taken from the page's heap, deleted ones included.
     */
    private static final class Leaf extends Page {
        final long[] last;
        boolean hasLast;
        int heap;

        Leaf(int id, int keyWords, int words) {
            super(id, keyWords);
            this.last = new long[words];
        }
    }

    /** {@code count} children and {@code count - 1} separators; child i holds keys below separator i. */
    private static final class Internal extends Page {
        final Page[] children;

        Internal(int id, int keyWords, int children) {
            super(id, keyWords);
            this.children = new Page[children];
        }
    }

    /** Configures an {@link IndexModel}. */
    public static final class Builder {
        private final KeyType keyType;
        private PageFormat format = PageFormat.INNODB;
        private int rowBytes;
        private int leafCapacity;
        private int internalCapacity;
        private int poolPages;
        private RightmostSplit rightmostSplit = RightmostSplit.APPEND_ONLY;
        private IndexEngine engine = IndexEngine.GENERIC;

        private Builder(KeyType keyType) {
            this.keyType = Objects.requireNonNull(keyType, "keyType");
        }

        /**
         * @param format the engine's page layout, from which capacities are derived unless given
         *     directly; default {@link PageFormat#INNODB}
         * @return this builder
         */
        public Builder pageFormat(PageFormat format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /**
         * @param bytes bytes of each row stored in the leaf besides the key (a clustered index holds
         *     the whole row); default 0
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder rowBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("row bytes " + bytes + " is negative; allowed 0 or more");
            }
            this.rowBytes = bytes;
            return this;
        }

        /**
         * @param capacity keys per leaf page, given directly instead of derived from the page format
         * @return this builder
         * @throws IllegalArgumentException if outside {@value IndexModel#MIN_LEAF_CAPACITY}..{@value IndexModel#MAX_CAPACITY}
         */
        public Builder leafCapacity(int capacity) {
            this.leafCapacity = checkCapacity("leaf", capacity, MIN_LEAF_CAPACITY);
            return this;
        }

        /**
         * @param capacity children per internal page, given directly instead of derived
         * @return this builder
         * @throws IllegalArgumentException if outside {@value IndexModel#MIN_INTERNAL_CAPACITY}..{@value IndexModel#MAX_CAPACITY}
         */
        public Builder internalCapacity(int capacity) {
            this.internalCapacity = checkCapacity("internal", capacity, MIN_INTERNAL_CAPACITY);
            return this;
        }

        /**
         * @param pages pages an LRU buffer pool holds, to count hits and misses; 0 (the default)
         *     models no pool
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder bufferPoolPages(int pages) {
            if (pages < 0) {
                throw new IllegalArgumentException("buffer pool of " + pages + " pages; allowed 0 or more");
            }
            this.poolPages = pages;
            return this;
        }

        /**
         * @param rule how the full rightmost leaf splits; default {@link RightmostSplit#APPEND_ONLY}
         * @return this builder
         */
        public Builder rightmostSplit(RightmostSplit rule) {
            this.rightmostSplit = Objects.requireNonNull(rule, "rule");
            return this;
        }

        /**
         * @param engine whose leaf split rules and entry sizes to follow (internal pages keep the
         *     generic rules); default {@link IndexEngine#GENERIC}. {@link IndexEngine#builder} sets
         *     the page format to match; the leaf capacity of {@link IndexEngine#POSTGRESQL} and
         *     {@link IndexEngine#INNODB} comes from the engine, not from the format
         * @return this builder
         */
        public Builder engine(IndexEngine engine) {
            this.engine = Objects.requireNonNull(engine, "engine");
            return this;
        }

        /**
         * @return a new, empty model
         * @throws IllegalArgumentException if the page format cannot hold enough entries of this key
         */
        public IndexModel build() {
            return new IndexModel(this);
        }

        private static int checkCapacity(String level, int capacity, int least) {
            if (capacity < least || capacity > MAX_CAPACITY) {
                throw new IllegalArgumentException(level + " capacity " + capacity + " is out of range; allowed "
                        + least + ".." + MAX_CAPACITY);
            }
            return capacity;
        }
    }
}
