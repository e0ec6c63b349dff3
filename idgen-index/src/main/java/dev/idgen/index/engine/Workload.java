package dev.idgen.index.engine;

/**
 * What a real run does: how many rows, from how many writers (each its own thread, connection and
 * generator), in transactions of how many rows, with how big a row.
 *
 * @param rows rows to insert, 1 or more
 * @param writers writers at once, 1 to 1023
 * @param txRowsMin fewest rows in one transaction, 1 or more
 * @param txRowsMax most rows in one transaction, {@code txRowsMin} or more; each transaction takes a
 *     count drawn evenly between the two
 * @param payloadBytes bytes of payload per row besides the key, 0 to {@value #MAX_PAYLOAD_BYTES} (a binary column)
 * @param secondaryIndexes secondary indexes, each on its own random BIGINT column, 0 to 8
 * @param client how each writer hands a transaction's rows to the engine: one INSERT per row, one JDBC
 *     batch of them, or one sorted multi-row INSERT
 * @param seed the seed of payloads, transaction sizes and the random bits of arithmetic layouts
 * @param serverOrder InnoDB: whether the table gets an {@code AUTO_INCREMENT} column {@code o}
 *     (indexed) that the server numbers as rows go in, and the model takes the keys in that order
 *     rather than in the order of the statements' midpoints; the row grows by 8 bytes
 * @param turnstile whether the writers take turns, one INSERT statement at a time, in an order drawn
 *     from the seed, so that the order rows reach the tree is exact and known (the writers still
 *     make their keys concurrently, each at the start of its transaction)
 * @param serverTime InnoDB: whether each row gets a {@code DATETIME(6)} column {@code t} set to
 *     {@code SYSDATE(6)}, the server's clock read as the row is built, just before it goes into the
 *     tree, and the model takes the keys in that order (ties by the statements' midpoints); the row
 *     grows by 8 bytes, no index is added
 * @param rowsPerSecond all writers' insert rate together, rows per second, or 0 for writers that run
 *     as fast as the engine lets them; with a rate each writer's transactions arrive at random
 *     (exponential gaps, a mean of its share of the rate), and a writer that is behind starts the
 *     next one at once, as a service answering requests does
 */
public record Workload(long rows, int writers, int txRowsMin, int txRowsMax, int payloadBytes, int secondaryIndexes,
        ClientStyle client, long seed, boolean serverOrder, boolean turnstile, boolean serverTime, double rowsPerSecond) {

    /**
     * The largest payload: rows past InnoDB's half page (8,126 bytes) and SQLite's cell limit, whose
     * long columns the engines move to pages of their own; MariaDB's whole row stays under its
     * 65,535-byte limit.
     */
    public static final int MAX_PAYLOAD_BYTES = 16_000;

    /** The highest insert rate a workload may ask for, rows per second. */
    public static final double MAX_ROWS_PER_SECOND = 10_000_000;

    /**
     * A free-running workload whose client sends one INSERT per row, or one sorted multi-row INSERT
     * per transaction.
     *
     * @param rows rows to insert
     * @param writers writers at once
     * @param txRowsMin fewest rows in one transaction
     * @param txRowsMax most rows in one transaction
     * @param payloadBytes bytes of payload per row
     * @param secondaryIndexes secondary indexes
     * @param multiRow one sorted multi-row INSERT per transaction
     * @param seed the seed
     * @param serverOrder InnoDB: number rows in a server-side AUTO_INCREMENT column
     * @param turnstile writers take turns, one statement at a time
     * @param serverTime InnoDB: a column of the server's clock orders the rows
     */
    public Workload(long rows, int writers, int txRowsMin, int txRowsMax, int payloadBytes, int secondaryIndexes,
            boolean multiRow, long seed, boolean serverOrder, boolean turnstile, boolean serverTime) {
        this(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes,
                multiRow ? ClientStyle.MULTI_ROW : ClientStyle.SINGLE, seed, serverOrder, turnstile, serverTime, 0);
    }

    /**
     * A workload without the server's clock column.
     *
     * @param rows rows to insert
     * @param writers writers at once
     * @param txRowsMin fewest rows in one transaction
     * @param txRowsMax most rows in one transaction
     * @param payloadBytes bytes of payload per row
     * @param secondaryIndexes secondary indexes
     * @param multiRow one sorted multi-row INSERT per transaction
     * @param seed the seed
     * @param serverOrder InnoDB: number rows in a server-side AUTO_INCREMENT column
     * @param turnstile writers take turns, one statement at a time
     */
    public Workload(long rows, int writers, int txRowsMin, int txRowsMax, int payloadBytes, int secondaryIndexes,
            boolean multiRow, long seed, boolean serverOrder, boolean turnstile) {
        this(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes, multiRow, seed, serverOrder, turnstile,
                false);
    }

    /**
     * A workload whose writers run freely.
     *
     * @param rows rows to insert
     * @param writers writers at once
     * @param txRowsMin fewest rows in one transaction
     * @param txRowsMax most rows in one transaction
     * @param payloadBytes bytes of payload per row
     * @param secondaryIndexes secondary indexes
     * @param multiRow one sorted multi-row INSERT per transaction
     * @param seed the seed
     * @param serverOrder InnoDB: number rows in a server-side AUTO_INCREMENT column
     */
    public Workload(long rows, int writers, int txRowsMin, int txRowsMax, int payloadBytes, int secondaryIndexes,
            boolean multiRow, long seed, boolean serverOrder) {
        this(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes, multiRow, seed, serverOrder, false);
    }

    /**
     * A workload without a server order column.
     *
     * @param rows rows to insert
     * @param writers writers at once
     * @param txRowsMin fewest rows in one transaction
     * @param txRowsMax most rows in one transaction
     * @param payloadBytes bytes of payload per row
     * @param secondaryIndexes secondary indexes
     * @param multiRow one sorted multi-row INSERT per transaction
     * @param seed the seed
     */
    public Workload(long rows, int writers, int txRowsMin, int txRowsMax, int payloadBytes, int secondaryIndexes,
            boolean multiRow, long seed) {
        this(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes, multiRow, seed, false, false);
    }

    /**
     * @throws IllegalArgumentException if a value is out of range, naming it and the range
     */
    public Workload {
        check(rows >= 1, "rows " + rows + " is out of range; expected 1 or more");
        check(writers >= 1 && writers <= 1023, "writers " + writers + " is out of range; expected 1..1023");
        check(txRowsMin >= 1 && txRowsMax >= txRowsMin && txRowsMax <= 10_000,
                "rows per transaction " + txRowsMin + "-" + txRowsMax + " is out of range; expected 1 <= min <= max <= 10000");
        check(payloadBytes >= 0 && payloadBytes <= MAX_PAYLOAD_BYTES, "payload " + payloadBytes + " bytes is out of range; expected 0.."
                + MAX_PAYLOAD_BYTES);
        check(secondaryIndexes >= 0 && secondaryIndexes <= 8,
                "secondary indexes " + secondaryIndexes + " is out of range; expected 0..8");
        check((turnstile ? 1 : 0) + (serverOrder ? 1 : 0) + (serverTime ? 1 : 0) <= 1,
                "--turnstile, --server-order and --server-time each set the arrival order; choose one");
        check(client != null, "client style is required; expected single, batch or multi-row");
        check(rowsPerSecond == 0 || rowsPerSecond >= 1 && rowsPerSecond <= MAX_ROWS_PER_SECOND, "insert rate "
                + rowsPerSecond + " rows/s is out of range; expected 0 (as fast as the engine goes) or 1..10000000");
    }

    /** @return whether each transaction is one sorted multi-row INSERT */
    public boolean multiRow() {
        return client == ClientStyle.MULTI_ROW;
    }

    /** @return whether the writers are held to an insert rate */
    public boolean rateLimited() {
        return rowsPerSecond > 0;
    }

    /** @return the mean rows of a transaction */
    public double meanTxRows() {
        return (txRowsMin + txRowsMax) / 2.0;
    }

    /**
     * @param style how the writers send their rows
     * @return this workload with that client style
     */
    public Workload withClient(ClientStyle style) {
        return new Workload(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes, style, seed, serverOrder,
                turnstile, serverTime, rowsPerSecond);
    }

    /**
     * @param rate all writers' insert rate, rows per second, 0 for free-running writers
     * @return this workload at that rate
     */
    public Workload withRate(double rate) {
        return new Workload(rows, writers, txRowsMin, txRowsMax, payloadBytes, secondaryIndexes, client, seed, serverOrder,
                turnstile, serverTime, rate);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** @return rows per transaction as text, {@code "100"} or {@code "1-10"} */
    public String txRows() {
        return txRowsMin == txRowsMax ? Integer.toString(txRowsMin) : txRowsMin + "-" + txRowsMax;
    }
}
