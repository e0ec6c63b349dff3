package dev.idgen.segment;

import java.time.LocalDate;
import java.util.Objects;

/**
 * A business number and its parts, as made by {@link BusinessNumberGenerator} or read by
 * {@link BusinessNumberFormat#parse(String)}.
 *
 * @param text the number as written, e.g. {@code INV-20261203-000042}
 * @param prefix its prefix, e.g. {@code INV} (may be empty)
 * @param date the first day of its date group (the day, or the first of the month or year), by the
 *     store's clock when the range was granted
 * @param counter its count within the group, from 1
 */
public record BusinessNumber(String text, String prefix, LocalDate date, long counter) {

    /**
     * @param text the number as written
     * @param prefix its prefix
     * @param date its group's first day
     * @param counter its count, at least 1
     * @throws NullPointerException if a component is null
     * @throws IllegalArgumentException if the counter is below 1
     */
    public BusinessNumber {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(date, "date");
        if (counter < 1) {
            throw new IllegalArgumentException("business number counter " + counter + " is out of range 1..");
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
