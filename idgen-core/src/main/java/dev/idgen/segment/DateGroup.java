package dev.idgen.segment;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * The period after which business numbers start again at 1, and how its date is written.
 */
public enum DateGroup {

    /** A new count every day, written {@code yyyyMMdd}. */
    DAY(8),
    /** A new count every month, written {@code yyyyMM}. */
    MONTH(6),
    /** A new count every year, written {@code yyyy}. */
    YEAR(4);

    private final int digits;

    DateGroup(int digits) {
        this.digits = digits;
    }

    /** {@return how many digits the date takes in a number} */
    public int digits() {
        return digits;
    }

    /** {@return the date's shape, e.g. {@code yyyyMMdd}} */
    public String shape() {
        return switch (this) {
            case DAY -> "yyyyMMdd";
            case MONTH -> "yyyyMM";
            case YEAR -> "yyyy";
        };
    }

    /**
     * @param date a date in years 1 to 9999
     * @return the first day of its group
     */
    public LocalDate start(LocalDate date) {
        return switch (this) {
            case DAY -> date;
            case MONTH -> date.withDayOfMonth(1);
            case YEAR -> date.withDayOfYear(1);
        };
    }

    /**
     * @param date a date in years 1 to 9999
     * @return its group written as digits, e.g. {@code 20261203}, {@code 202612}, {@code 2026}
     * @throws IllegalArgumentException for a year outside 1 to 9999 (it would not fit the digits)
     */
    public String key(LocalDate date) {
        int y = date.getYear();
        if (y < 1 || y > 9999) {
            throw new IllegalArgumentException("year " + y + " of " + date + " is out of range 1..9999 for a "
                    + shape() + " date group");
        }
        String year = String.format("%04d", y);
        return switch (this) {
            case DAY -> year + two(date.getMonthValue()) + two(date.getDayOfMonth());
            case MONTH -> year + two(date.getMonthValue());
            case YEAR -> year;
        };
    }

    /**
     * @param key exactly {@link #digits()} decimal digits
     * @return the first day of the group they name
     * @throws IllegalArgumentException if they name no date
     */
    public LocalDate parse(String key) {
        if (key.length() != digits || !key.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("date group '" + key + "' is not " + digits + " digits " + shape());
        }
        int y = Integer.parseInt(key.substring(0, 4));
        int m = digits >= 6 ? Integer.parseInt(key.substring(4, 6)) : 1;
        int d = digits == 8 ? Integer.parseInt(key.substring(6, 8)) : 1;
        try {
            if (y < 1) {
                throw new IllegalArgumentException("year 0000");
            }
            return LocalDate.of(y, m, d);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("date group '" + key + "' is no date " + shape() + " in years 1..9999 ("
                    + e.getMessage() + ")", e instanceof DateTimeParseException ? e : null);
        }
    }

    private static String two(int v) {
        return v < 10 ? "0" + v : Integer.toString(v);
    }
}
