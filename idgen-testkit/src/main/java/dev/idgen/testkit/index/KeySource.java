package dev.idgen.testkit.index;

/**
 * Where the keys of an {@link IndexScoreboard} run come from, and the column that stores them.
 */
public enum KeySource {
    /** 1, 2, 3, ...: a database's own counter, the append-only baseline. */
    AUTO_INCREMENT("auto-increment", KeyType.BIGINT),
    /** Twitter-layout Snowflake IDs from real generators on distinct machine ids. */
    SNOWFLAKE("Snowflake", KeyType.BIGINT),
    /** UUIDv7 as {@code BINARY(16)}. */
    UUID_V7("UUIDv7", KeyType.BINARY16),
    /** UUIDv4 as {@code BINARY(16)}. */
    UUID_V4("UUIDv4", KeyType.BINARY16),
    /** UUIDv4 as {@code CHAR(36)} text. */
    UUID_V4_TEXT("UUIDv4 as text", KeyType.CHAR36);

    private final String label;
    private final KeyType keyType;

    KeySource(String label, KeyType keyType) {
        this.label = label;
        this.keyType = keyType;
    }

    /** @return a short name for tables, such as {@code "UUIDv7"} */
    public String label() {
        return label;
    }

    /** @return the column that stores these keys */
    public KeyType keyType() {
        return keyType;
    }
}
