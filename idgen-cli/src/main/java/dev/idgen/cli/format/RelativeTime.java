package dev.idgen.cli.format;

import java.time.Duration;
import java.time.Instant;

/** "3 days ago", "in 2 years": the distance between two instants in its largest whole unit. */
public final class RelativeTime {

    private static final long MINUTE = 60;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    /** A Julian year, 365.25 days: close enough for "how long ago". */
    private static final long YEAR = DAY * 36525 / 100;
    private static final long MONTH = YEAR / 12;

    private RelativeTime() {
    }

    /**
     * @param time the instant described
     * @param now the instant it is described from
     * @return e.g. {@code "3 days ago"}, {@code "in 5 minutes"}, or {@code "now"} within a second
     */
    public static String describe(Instant time, Instant now) {
        Duration d = Duration.between(time, now);
        boolean past = !d.isNegative();
        long s = Math.abs(d.getSeconds() + (d.isNegative() && d.getNano() > 0 ? 1 : 0));
        String amount;
        if (s < 1) {
            return "now";
        } else if (s < MINUTE) {
            amount = count(s, "second");
        } else if (s < HOUR) {
            amount = count(s / MINUTE, "minute");
        } else if (s < DAY) {
            amount = count(s / HOUR, "hour");
        } else if (s < MONTH) {
            amount = count(s / DAY, "day");
        } else if (s < YEAR) {
            amount = count(s / MONTH, "month");
        } else {
            amount = count(s / YEAR, "year");
        }
        return past ? amount + " ago" : "in " + amount;
    }

    private static String count(long n, String unit) {
        return String.format(java.util.Locale.ROOT, "%,d %s%s", n, unit, n == 1 ? "" : "s");
    }
}
