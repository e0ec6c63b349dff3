package dev.idgen.index.model;

import dev.idgen.index.model.KeySource;
import java.util.Locale;

/** The names {@code idgen index --keys} takes for the testkit's {@link KeySource}s. */
public enum KeyName {
    /** {@link KeySource#AUTO_INCREMENT}. */
    AUTOINC("autoinc", KeySource.AUTO_INCREMENT),
    /** {@link KeySource#SNOWFLAKE}. */
    SNOWFLAKE("snowflake", KeySource.SNOWFLAKE),
    /** {@link KeySource#UUID_V7}. */
    UUID7("uuid7", KeySource.UUID_V7),
    /** {@link KeySource#UUID_V4}. */
    UUID4("uuid4", KeySource.UUID_V4),
    /** {@link KeySource#UUID_V4_TEXT}. */
    UUID4_TEXT("uuid4-text", KeySource.UUID_V4_TEXT);

    /** All names, for messages and help. */
    public static final String NAMES = "snowflake, uuid7, uuid4, uuid4-text, autoinc";

    private final String cliName;
    private final KeySource source;

    KeyName(String cliName, KeySource source) {
        this.cliName = cliName;
        this.source = source;
    }

    /** @return the name on the command line, such as {@code "uuid4-text"} */
    public String cliName() {
        return cliName;
    }

    /** @return the testkit's key source */
    public KeySource source() {
        return source;
    }

    /**
     * @param name a name as {@link #cliName()} gives it, any case
     * @return the key source
     * @throws IllegalArgumentException if the name is unknown
     */
    public static KeySource parse(String name) {
        String key = name.strip().toLowerCase(Locale.ROOT);
        for (KeyName k : values()) {
            if (k.cliName.equals(key)) {
                return k.source;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a key kind; expected " + NAMES);
    }
}
