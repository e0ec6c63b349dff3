package dev.idgen.index.predict;

import dev.idgen.index.engine.ClientStyle;
import dev.idgen.index.engine.Workload;
import dev.idgen.index.model.IndexEngine;
import java.util.Locale;

/**
 * The class of workload a prediction belongs to: what moves its accuracy, so that a prediction can
 * say how well predictions of its class did on the recorded runs. The engine; the writers, in
 * bands (one; 2-4; 5-16; 17-32; more); how they send rows; whether they are held to a rate; and
 * rows per transaction, in bands of their mean (up to 10; 11-49; 50-100; more).
 *
 * <p>One writer has one order, its own, whatever its client, rate or transactions: its class is the
 * engine's one-writer class, {@link #ANY} in the other places. A {@code public_id} secondary index
 * (a UUID beside a {@code BIGINT} primary key) is a class of its own on each engine.
 *
 * @param engine the engine
 * @param secondary whether the index is a {@code public_id} secondary index rather than the primary key
 * @param writers the writers' band
 * @param client how the writers send their rows, or null for any (one writer)
 * @param rate whether the writers are held to an insert rate, or null for either (one writer)
 * @param txRows the band of the mean rows per transaction, or null for any (one writer)
 */
public record WorkloadClass(IndexEngine engine, boolean secondary, Band writers, ClientStyle client, Rate rate, Band txRows) {

    private static final String SECONDARY = "+public_id";

    /** Shown where a class takes any value. */
    public static final String ANY = "any";

    /** Writer bands. */
    static final Band[] WRITER_BANDS = {new Band(1, 1), new Band(2, 4), new Band(5, 16), new Band(17, 32), new Band(33, 1023)};

    /** Bands of the mean rows per transaction. */
    static final Band[] TX_BANDS = {new Band(1, 10), new Band(11, 49), new Band(50, 100), new Band(101, 10_000)};

    /**
     * A range of counts, both ends included.
     *
     * @param from the least
     * @param to the most
     */
    public record Band(int from, int to) {

        /** @return {@code 5-16}, or {@code 1} for a band of one */
        @Override
        public String toString() {
            return from == to ? Integer.toString(from) : from + "-" + to;
        }

        static Band of(Band[] bands, double value) {
            for (Band b : bands) {
                if (value <= b.to + 0.5) {
                    return b;
                }
            }
            return bands[bands.length - 1];
        }

        static Band parse(String text) {
            int dash = text.indexOf('-');
            return dash < 0 ? new Band(Integer.parseInt(text), Integer.parseInt(text))
                    : new Band(Integer.parseInt(text.substring(0, dash)), Integer.parseInt(text.substring(dash + 1)));
        }
    }

    /** Whether the writers go as fast as the engine lets them or keep to a rate. */
    public enum Rate {
        /** As fast as the engine lets them. */
        FREE("free-running"),
        /** Held to an insert rate. */
        LIMITED("rate-limited");

        private final String label;

        Rate(String label) {
            this.label = label;
        }

        /** @return how the class reads */
        public String label() {
            return label;
        }
    }

    /**
     * @param engine the engine
     * @param w the workload
     * @return the workload's class on that engine
     */
    public static WorkloadClass of(IndexEngine engine, Workload w) {
        return of(engine, w, false);
    }

    /**
     * @param engine the engine
     * @param w the workload
     * @param secondary whether the index is a {@code public_id} secondary index
     * @return the workload's class on that engine
     */
    public static WorkloadClass of(IndexEngine engine, Workload w, boolean secondary) {
        Band writers = Band.of(WRITER_BANDS, w.writers());
        if (w.writers() == 1) {
            return new WorkloadClass(engine, secondary, writers, null, null, null);
        }
        return new WorkloadClass(engine, secondary, writers, w.client(), w.rateLimited() ? Rate.LIMITED : Rate.FREE,
                Band.of(TX_BANDS, w.meanTxRows()));
    }

    /**
     * @param id as {@link #id()} writes it
     * @return the class
     * @throws IllegalArgumentException if it is not a class's id
     */
    public static WorkloadClass parse(String id) {
        String[] p = id.split("/");
        if (p.length != 5) {
            throw new IllegalArgumentException("'" + id + "' is not a workload class; expected engine/writers/client/rate/rows per transaction");
        }
        boolean secondary = p[0].endsWith(SECONDARY);
        IndexEngine engine = IndexEngine.valueOf(p[0].substring(0, p[0].length() - (secondary ? SECONDARY.length() : 0))
                .toUpperCase(Locale.ROOT));
        return new WorkloadClass(engine, secondary, Band.parse(p[1]), p[2].equals(ANY) ? null : ClientStyle.parse(p[2]),
                p[3].equals(ANY) ? null : Rate.valueOf(p[3].toUpperCase(Locale.ROOT)), p[4].equals(ANY) ? null : Band.parse(p[4]));
    }

    /** @return a short name, e.g. {@code innodb/5-16/single/free/1-10} */
    public String id() {
        return engine.name().toLowerCase(Locale.ROOT) + (secondary ? SECONDARY : "") + "/" + writers + "/" + (client == null ? ANY : client.cliName()) + "/"
                + (rate == null ? ANY : rate.name().toLowerCase(Locale.ROOT)) + "/" + (txRows == null ? ANY : txRows);
    }

    /** @return how the class reads, e.g. {@code InnoDB, 5-16 writers, one INSERT per row, free-running, 1-10 rows per transaction} */
    public String label() {
        String name = switch (engine) {
            case INNODB -> "InnoDB";
            case POSTGRESQL -> "PostgreSQL";
            case SQLITE -> "SQLite";
            default -> engine.name();
        } + (secondary ? ", a UUID public_id secondary index" : "");
        if (client == null) {
            return name + ", 1 writer (any client, rate and transaction size)";
        }
        String style = switch (client) {
            case SINGLE -> "one INSERT per row";
            case BATCH -> "one JDBC batch per transaction";
            case MULTI_ROW -> "one sorted multi-row INSERT per transaction";
        };
        return name + ", " + writers + " writers, " + style + ", " + rate.label() + ", " + txRows + " rows per transaction";
    }
}
