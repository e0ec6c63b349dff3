package dev.idgen.decode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One way to read a string, and whether it makes sense at the present: its time (if it has one)
 * lies from 1970-01-01T00:00:00Z to {@link #FUTURE_SLACK} after now. A Snowflake read with the wrong
 * layout usually fails this test, and then {@link #alternatives()} lists the layouts that give a
 * plausible time (the one given with the machine id on top, and the other presets).
 *
 * @param id the decoded ID
 * @param plausible whether its time is plausible at the present (always true without a time)
 * @param warning why it is not plausible, in one line; empty when plausible
 * @param alternatives the same string read in other ways that give a plausible time (for a
 *     Snowflake whose time is implausible: the layout given with the machine id on top, and the other
 *     preset layouts); empty otherwise
 */
public record Reading(DecodedId id, boolean plausible, String warning, List<DecodedId> alternatives) {

    /** How far past now an ID's time may be and still count as plausible (clocks that run ahead). */
    public static final Duration FUTURE_SLACK = Duration.ofDays(1);

    /**
     * @param id the decoded ID
     * @param plausible whether its time is plausible
     * @param warning why not, or empty
     * @param alternatives plausible other readings (copied)
     * @throws NullPointerException if any component is null
     */
    public Reading {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(warning, "warning");
        alternatives = List.copyOf(alternatives);
    }

    /**
     * @param id a decoded ID
     * @param now the present
     * @return whether its time, if any, lies from 1970-01-01T00:00:00Z to {@link #FUTURE_SLACK} after now
     */
    public static boolean plausible(DecodedId id, Instant now) {
        return id.time().map(t -> !t.isBefore(Instant.EPOCH) && !t.isAfter(now.plus(FUTURE_SLACK))).orElse(true);
    }

    static Reading of(DecodedId id, Instant now, List<DecodedId> alternatives) {
        if (plausible(id, now)) {
            return new Reading(id, true, "", List.of());
        }
        Instant t = id.time().orElseThrow();
        String where = t.isBefore(Instant.EPOCH) ? "before 1970" : "in the future";
        return new Reading(id, false, "time " + t + " is " + where + ": probably not a " + id.kind() + " read as "
                + id.readAs(), alternatives);
    }
}
