package dev.idgen.index.model;

import java.util.Objects;

/**
 * How an engine lays out B+ tree pages, enough to say how many entries fit on one.
 *
 * <p>A page of {@code pageBytes} loses {@code pageOverheadBytes} to headers and trailers. Each entry
 * costs {@code slotBytes} (a line pointer or directory slot) plus its body, rounded up to
 * {@code alignment}: a leaf body is {@code leafEntryHeaderBytes + key + row}, an internal body is
 * {@code internalEntryHeaderBytes + key}, the internal header including the pointer to the child
 * page.
 *
 * @param name the engine, for reports
 * @param pageBytes the page size, 512 or more
 * @param pageOverheadBytes bytes of each page no entry can use
 * @param slotBytes bytes per entry outside its body (line pointer, directory slot)
 * @param leafEntryHeaderBytes bytes of each leaf entry besides its key and row
 * @param internalEntryHeaderBytes bytes of each internal entry besides its key, the child pointer
 *     included
 * @param alignment entry bodies are rounded up to a multiple of this, 1 or more
 */
public record PageFormat(String name, int pageBytes, int pageOverheadBytes, int slotBytes,
        int leafEntryHeaderBytes, int internalEntryHeaderBytes, int alignment) {

    /** InnoDB's default page size, 16 KiB. */
    public static final int INNODB_PAGE_BYTES = 16 * 1024;

    /** PostgreSQL's page size, 8 KiB. */
    public static final int POSTGRESQL_PAGE_BYTES = 8 * 1024;

    /**
     * InnoDB (MySQL 8, COMPACT/DYNAMIC row format), clustered index. Page overhead 128 bytes: FIL
     * header 38, index page header 56, infimum and supremum records 26, FIL trailer 8. Leaf entry:
     * 5-byte record header plus the hidden DB_TRX_ID (6) and DB_ROLL_PTR (7) columns, 18 bytes.
     * Internal (node pointer) entry: 5-byte record header plus a 4-byte child page number. The page
     * directory (one 2-byte slot per 4 to 8 records) is left out, as is the 1/16 of a page InnoDB
     * tries to keep free.
     */
    public static final PageFormat INNODB = new PageFormat("InnoDB", INNODB_PAGE_BYTES,
            38 + 56 + 26 + 8, 0, 5 + 6 + 7, 5 + 4, 1);

    /**
     * PostgreSQL B-tree (nbtree). Page overhead 40 bytes: page header 24 and B-tree special space
     * 16. Each entry: a 4-byte line pointer, then an 8-byte index tuple header (the heap TID, or
     * the child block in an internal page, and the info bits) and the key, padded to 8 bytes
     * (MAXALIGN). A BIGINT entry is 20 bytes, so about 407 fit a leaf. The leaf fillfactor (90 %
     * for the rightmost split and index builds) and the high key of non-rightmost pages are left
     * out.
     */
    public static final PageFormat POSTGRESQL = new PageFormat("PostgreSQL", POSTGRESQL_PAGE_BYTES,
            24 + 16, 4, 8, 8, 8);

    /**
     * SQLite B-tree pages of 4 KiB ({@code WITHOUT ROWID} table): 8-byte leaf page header, a 2-byte
     * cell pointer per entry, each cell a payload-size varint and the record (header and values);
     * internal cells add a 4-byte child page number (the header of 12 counted as overhead).
     */
    public static final PageFormat SQLITE = new PageFormat("SQLite", 4096, 12, 2, 3, 4 + 3, 1);

    /**
     * Checks the format.
     *
     * @param name the engine, for reports
     * @param pageBytes the page size, 512 or more
     * @param pageOverheadBytes bytes of each page no entry can use
     * @param slotBytes bytes per entry outside its body (line pointer, directory slot)
     * @param leafEntryHeaderBytes bytes of each leaf entry besides its key and row
     * @param internalEntryHeaderBytes bytes of each internal entry besides its key, the child pointer
     *     included
     * @param alignment entry bodies are rounded up to a multiple of this, 1 or more
     * @throws IllegalArgumentException if a size is out of range
     */
    public PageFormat {
        Objects.requireNonNull(name, "name");
        if (pageBytes < 512 || pageOverheadBytes < 0 || pageOverheadBytes >= pageBytes || slotBytes < 0
                || leafEntryHeaderBytes < 0 || internalEntryHeaderBytes < 0 || alignment < 1) {
            throw new IllegalArgumentException("page format " + name + ": page " + pageBytes + " bytes, overhead "
                    + pageOverheadBytes + ", slot " + slotBytes + ", leaf header " + leafEntryHeaderBytes
                    + ", internal header " + internalEntryHeaderBytes + ", alignment " + alignment
                    + " is out of range; allowed: page 512 or more, overhead below the page size,"
                    + " sizes 0 or more, alignment 1 or more");
        }
    }

    /**
     * The same engine with another page size (InnoDB allows 4 to 64 KiB).
     *
     * @param bytes the page size, 512 or more
     * @return the format with that page size
     */
    public PageFormat withPageBytes(int bytes) {
        return new PageFormat(name, bytes, pageOverheadBytes, slotBytes, leafEntryHeaderBytes,
                internalEntryHeaderBytes, alignment);
    }

    /**
     * Bytes one leaf entry takes.
     *
     * @param keyBytes the key's size
     * @param rowBytes bytes of the row besides the key stored in the leaf (0 for an index that holds
     *     keys only; the whole row for a clustered index)
     * @return the entry's bytes, slot included
     */
    public int leafEntryBytes(int keyBytes, int rowBytes) {
        if (keyBytes < 1 || rowBytes < 0) {
            throw new IllegalArgumentException("key of " + keyBytes + " bytes and row of " + rowBytes
                    + " bytes: allowed a key of 1 byte or more and a row of 0 bytes or more");
        }
        return slotBytes + align(leafEntryHeaderBytes + (long) keyBytes + rowBytes);
    }

    /**
     * Bytes one internal entry takes.
     *
     * @param keyBytes the key's size
     * @return the entry's bytes, slot and child pointer included
     */
    public int internalEntryBytes(int keyBytes) {
        if (keyBytes < 1) {
            throw new IllegalArgumentException("key of " + keyBytes + " bytes: allowed 1 byte or more");
        }
        return slotBytes + align(internalEntryHeaderBytes + (long) keyBytes);
    }

    /**
     * How many leaf entries fit a page.
     *
     * @param keyBytes the key's size
     * @param rowBytes the rest of the row, 0 or more
     * @return entries per leaf page
     * @throws IllegalArgumentException if fewer than 2 fit
     */
    public int leafCapacity(int keyBytes, int rowBytes) {
        return capacity("leaf", leafEntryBytes(keyBytes, rowBytes), keyBytes, rowBytes);
    }

    /**
     * How many child pointers fit an internal page.
     *
     * @param keyBytes the key's size
     * @return children per internal page
     * @throws IllegalArgumentException if fewer than 3 fit
     */
    public int internalCapacity(int keyBytes) {
        return capacity("internal", internalEntryBytes(keyBytes), keyBytes, 0);
    }

    private int capacity(String level, int entryBytes, int keyBytes, int rowBytes) {
        int fits = (pageBytes - pageOverheadBytes) / entryBytes;
        int least = level.equals("leaf") ? IndexModel.MIN_LEAF_CAPACITY : IndexModel.MIN_INTERNAL_CAPACITY;
        if (fits < least) {
            throw new IllegalArgumentException(name + " " + level + " page of " + pageBytes + " bytes holds "
                    + fits + " entries of " + entryBytes + " bytes (key " + keyBytes + ", row " + rowBytes
                    + "); at least " + least + " must fit");
        }
        return fits;
    }

    private int align(long bytes) {
        if (bytes > pageBytes) {
            throw new IllegalArgumentException("entry of " + bytes + " bytes is larger than a "
                    + pageBytes + "-byte page");
        }
        return (int) ((bytes + alignment - 1) / alignment * alignment);
    }

    @Override
    public String toString() {
        return name + " " + pageBytes + "-byte pages";
    }
}
