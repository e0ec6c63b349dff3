package dev.idgen.index.model;

/**
 * Which engine's split rules and page overheads an {@link IndexModel} follows, calibrated against
 * the engines themselves ({@code idgen index --real}). Every row of one index has the same size, so
 * each rule comes down to entry counts per page.
 *
 * <ul>
 *   <li>{@link #GENERIC}: the textbook rules, {@link IndexModel}'s own (a full page splits in
 *       half; past the last key of the rightmost page a new page opens);</li>
 *   <li>{@link #POSTGRESQL}: nbtree. 8 KiB pages with 8,152 bytes for entries; each leaf entry a
 *       4-byte line pointer and an 8-byte tuple header plus the key, padded to 8; every page but the
 *       rightmost of its level also keeps a high key. The rightmost leaf splits so that the left page
 *       keeps 90 % (the fillfactor) wherever the new key falls; any other leaf splits so that both
 *       halves have the same free space;</li>
 *   <li>{@link #INNODB}: 16 KiB pages; a record is a 5-byte header, the key, the hidden 6-byte
 *       transaction id and 7-byte roll pointer and the rest of the row; a page holds records while
 *       they and a 2-byte directory slot per 4 records fit in 16,252 bytes. Each page remembers its
 *       last insert. An insert right after it is sequential: it may not eat
 *       into the last 1/16 of the page, and when it splits the page, the page splits at the insert
 *       point (the new record and at most one record after it stay; the rest moves to a new page).
 *       Any other insert into a full page splits it in the middle record. This is why interleaved
 *       free-running writers of time-ordered keys leave InnoDB pages half empty;</li>
 *   <li>{@link #SQLITE}: a {@code WITHOUT ROWID} table's B-tree, 4 KiB pages, 8-byte leaf header,
 *       2-byte cell pointers; a full leaf is balanced with its neighbours as SQLite's
 *       {@code balance_nonroot} does. A row too large for its cell keeps its first bytes there and
 *       the rest on overflow pages ({@link #sqliteOverflowPages}).</li>
 * </ul>
 */
public enum IndexEngine {
    /** The textbook rules, on {@link PageFormat#INNODB} unless told otherwise. */
    GENERIC,
    /** PostgreSQL nbtree. */
    POSTGRESQL,
    /** InnoDB (MariaDB, MySQL). */
    INNODB,
    /** SQLite, a clustered {@code WITHOUT ROWID} table. */
    SQLITE;

    /** PostgreSQL: bytes of an 8 KiB page entries may use (page header 24 and special space 16 left out). */
    static final int PG_SPACE = 8192 - 24 - 16;
    /** PostgreSQL's default B-tree leaf fillfactor, percent. */
    static final int PG_FILLFACTOR = 90;
    /** InnoDB: bytes of an empty 16 KiB page for records and directory slots. */
    static final int INNODB_SPACE = 16384 - 120 - 8 - 4;
    /**
     * InnoDB: the largest record a page keeps whole, half an empty page's free space
     * ({@code page_get_free_space_of_empty / 2}); a record of this size or more has its long column
     * moved to pages of its own (DYNAMIC row format, MariaDB's and MySQL's default).
     */
    static final int INNODB_MAX_RECORD = INNODB_SPACE / 2;
    /** InnoDB: what a column moved off the page leaves in its record, a 20-byte reference to it. */
    static final int INNODB_EXTERNAL_REFERENCE = 20;
    /** InnoDB: the free space a sequential insert leaves, 1/16 of the page. */
    static final int INNODB_RESERVE = 16384 / 16;
    /** InnoDB: BTR_CUR_PAGE_REORGANIZE_LIMIT, 1/32 of the page. */
    static final int INNODB_REORGANIZE_LIMIT = 16384 / 32;
    /** SQLite: page size. */
    static final int SQLITE_PAGE = 4096;

    /**
     * A builder for a model of this engine's primary-key index.
     *
     * @param keyType the key column
     * @param rowBytes bytes of each row besides the key that live in the index's leaves (for
     *     PostgreSQL, whose table is a separate heap, they are ignored)
     * @return the builder, engine and row size set
     */
    public IndexModel.Builder builder(KeyType keyType, int rowBytes) {
        IndexModel.Builder b = IndexModel.builder(keyType).engine(this).rowBytes(rowBytes);
        return switch (this) {
            case GENERIC, INNODB -> b.pageFormat(PageFormat.INNODB);
            case POSTGRESQL -> b.pageFormat(PageFormat.POSTGRESQL).rowBytes(0);
            case SQLITE -> b.pageFormat(PageFormat.SQLITE);
        };
    }

    /**
     * InnoDB's record size for a row: 5-byte header, the key, 13 bytes of hidden columns, the rest
     * of the row (and 2 length bytes when that is a long variable-length column). A record of
     * {@link #INNODB_MAX_RECORD} bytes or more keeps a 20-byte reference in place of its long column,
     * which goes to pages outside the index's leaves.
     *
     * @param keyType the key column
     * @param rowBytes the rest of the row
     * @return bytes per record
     */
    public static int innodbRecordBytes(KeyType keyType, int rowBytes) {
        int whole = innodbWholeRecordBytes(keyType, rowBytes);
        return whole < INNODB_MAX_RECORD ? whole : 5 + keyType.storedBytes() + 6 + 7 + INNODB_EXTERNAL_REFERENCE + 2;
    }

    /** InnoDB: the record with its whole row on the page. */
    private static int innodbWholeRecordBytes(KeyType keyType, int rowBytes) {
        return 5 + keyType.storedBytes() + 6 + 7 + rowBytes + (rowBytes > 255 + 16 ? 2 : 0);
    }

    /**
     * InnoDB: pages a row's long column takes off the index page, 0 when the record is kept whole.
     * Such a column goes whole to BLOB pages of the index's leaf segment, each holding the page less
     * its 38-byte header, 8-byte trailer and 8-byte BLOB header.
     *
     * @param keyType the key column
     * @param rowBytes the rest of the row
     * @param pageBytes the page size
     * @return BLOB pages per row
     */
    public static int innodbExternalPages(KeyType keyType, int rowBytes, int pageBytes) {
        if (innodbWholeRecordBytes(keyType, rowBytes) < INNODB_MAX_RECORD) {
            return 0;
        }
        int perPage = pageBytes - 38 - 8 - 8;
        return (rowBytes + perPage - 1) / perPage;
    }

    /** PostgreSQL: bytes per leaf entry, the line pointer included. */
    static int pgEntryBytes(KeyType keyType) {
        return 4 + (8 + keyType.storedBytes() + 7) / 8 * 8;
    }

    /**
     * SQLite: bytes per leaf cell, its pointer included (the key as the record stores it). A record
     * too large for the page keeps only its first bytes in the cell ({@link #sqliteLocalBytes}) and
     * a 4-byte number of its first overflow page; the rest goes to overflow pages, which are not
     * leaf pages.
     */
    static int sqliteCellBytes(KeyType keyType, int rowBytes) {
        int record = sqliteRecordBytes(keyType, rowBytes);
        int local = sqliteLocalBytes(record);
        int sizeVarint = record > 127 ? 2 : 1;
        return 2 + sizeVarint + local + (local < record ? 4 : 0);
    }

    /** SQLite: bytes of a row's record, its header (size, key type, payload type) included. */
    static int sqliteRecordBytes(KeyType keyType, int rowBytes) {
        int header = 1 + 1 + (rowBytes > 0 ? (rowBytes * 2 + 12 > 127 ? 2 : 1) : 0);
        return header + keyType.storedBytes() + rowBytes;
    }

    /**
     * SQLite: bytes of a record of {@code payload} bytes kept in its cell on a page of an index
     * B-tree, which a {@code WITHOUT ROWID} table is. From the SQLite file format
     * (https://www.sqlite.org/fileformat2.html, "B-tree Pages"), U being the usable page size: the
     * most a cell keeps is X = (U-12)*64/255-23 and the least M = (U-12)*32/255-23; a larger payload
     * keeps K = M+((P-M) mod (U-4)) if K is at most X, else M, and the rest goes to overflow pages of
     * U-4 bytes each (a 4-byte pointer to the next).
     *
     * @param payload bytes of the record
     * @return bytes of it kept in the cell
     */
    static int sqliteLocalBytes(int payload) {
        int usable = SQLITE_PAGE;
        int most = (usable - 12) * 64 / 255 - 23;
        int least = (usable - 12) * 32 / 255 - 23;
        if (payload <= most) {
            return payload;
        }
        int k = least + (payload - least) % (usable - 4);
        return k <= most ? k : least;
    }

    /**
     * SQLite: overflow pages one row takes, 0 when it fits in its cell.
     *
     * @param keyType the key column
     * @param rowBytes the rest of the row
     * @return overflow pages per row
     */
    public static int sqliteOverflowPages(KeyType keyType, int rowBytes) {
        int record = sqliteRecordBytes(keyType, rowBytes);
        int spilled = record - sqliteLocalBytes(record);
        return (spilled + SQLITE_PAGE - 4 - 1) / (SQLITE_PAGE - 4);
    }

    /**
     * The model's leaf fill in the measure this engine's own instrument uses, so the two can be
     * compared: PostgreSQL {@code pgstatindex}'s {@code avg_leaf_density}; InnoDB record bytes over
     * page bytes; SQLite {@code dbstat} used bytes over page bytes. {@link #GENERIC}: the model's
     * {@link IndexStats#averageLeafFill()}.
     *
     * @param stats the model's counts
     * @param rowBytes the row size the model was built with
     * @return the fill, 0 to 1
     */
    public double leafFill(IndexStats stats, int rowBytes) {
        long leaves = stats.leafPages();
        if (leaves == 0) {
            return 0;
        }
        KeyType k = stats.keyType();
        return switch (this) {
            case GENERIC -> stats.averageLeafFill();
            case POSTGRESQL -> {
                int e = pgEntryBytes(k);
                yield (stats.keys() * (double) e + (leaves - 1) * (double) e + 4.0 * leaves) / (leaves * (double) PG_SPACE);
            }
            case INNODB -> stats.keys() * (double) innodbRecordBytes(k, rowBytes) / (leaves * 16384.0);
            // SQLite's index tree keeps one entry per leaf (but the last) in the parent instead
            case SQLITE -> ((stats.keys() - (leaves - 1)) * (double) sqliteCellBytes(k, rowBytes) + 8.0 * leaves)
                    / (leaves * (double) SQLITE_PAGE);
        };
    }
}
