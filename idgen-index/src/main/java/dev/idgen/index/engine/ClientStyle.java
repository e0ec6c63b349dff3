package dev.idgen.index.engine;

import java.util.Locale;

/** How a writer hands its rows to the database. */
public enum ClientStyle {
    /** One INSERT statement per row, each a round trip. */
    SINGLE("single"),
    /** One prepared INSERT per row sent as a JDBC batch: the rows go in one after another, without a round trip each. */
    BATCH("batch"),
    /** One multi-row INSERT per transaction, its keys sorted. */
    MULTI_ROW("multi-row");

    private final String cliName;

    ClientStyle(String cliName) {
        this.cliName = cliName;
    }

    /** @return the name the command line takes */
    public String cliName() {
        return cliName;
    }

    /**
     * @param name {@code single}, {@code batch} or {@code multi-row}, any case
     * @return the style
     * @throws IllegalArgumentException naming the value and the names allowed
     */
    public static ClientStyle parse(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (ClientStyle s : values()) {
            if (s.cliName.equals(n)) {
                return s;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a client style; expected single, batch or multi-row");
    }
}
