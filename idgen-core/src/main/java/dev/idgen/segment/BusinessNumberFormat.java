package dev.idgen.segment;

import dev.idgen.decode.DecodedFields;
import dev.idgen.decode.DecodedId;
import dev.idgen.decode.IdField;
import dev.idgen.text.Quote;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The shape of business numbers: a prefix, the date group, a zero-padded counter, joined by a
 * separator; {@code INV-20261203-000042} is prefix {@code INV}, {@link DateGroup#DAY}, width 6. It
 * writes numbers, reads them back ({@link #parse}, {@link #decode}), and names the store counter of
 * each group ({@link #counterName}): one counter per name and group, so a new group starts at 1 and
 * a group never repeats a number.
 *
 * <pre>{@code
 * BusinessNumberFormat f = BusinessNumberFormat.builder().prefix("INV").group(DateGroup.DAY).width(6).build();
 * f.format(LocalDate.of(2026, 12, 3), 42);    // INV-20261203-000042
 * f.parse("INV-20261203-000042").counter();   // 42
 * BusinessNumberFormat same = BusinessNumberFormat.builder().pattern("INV-yyyyMMdd-NNNNNN").build();
 * }</pre>
 */
public final class BusinessNumberFormat {

    /** The widest counter, in digits (a {@code long} holds 18 nines). */
    public static final int MAX_WIDTH = 18;

    private final String prefix;
    private final String separator;
    private final DateGroup group;
    private final int width;
    private final long maxCounter;
    private final ZoneId zone;

    private BusinessNumberFormat(Builder b) {
        this.prefix = b.prefix;
        this.separator = b.separator;
        this.group = b.group;
        this.width = b.width;
        this.zone = b.zone;
        long max = 1;
        for (int i = 0; i < width; i++) {
            max *= 10;
        }
        this.maxCounter = max - 1;
    }

    /** {@return a builder: prefix empty, separator {@code -}, day groups, width 6, zone UTC} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The pattern {@link Builder#pattern(String)} reads back into this format.
     *
     * @return e.g. {@code INV-yyyyMMdd-NNNNNN}
     */
    public String pattern() {
        return lead() + group.shape() + separator + "N".repeat(width);
    }

    /** {@return the prefix, empty for none} */
    public String prefix() {
        return prefix;
    }

    /** {@return the date group} */
    public DateGroup group() {
        return group;
    }

    /** {@return the zone in which the store's time is read as a date} */
    public ZoneId zone() {
        return zone;
    }

    /** {@return the largest counter that fits the width} */
    public long maxCounter() {
        return maxCounter;
    }

    /**
     * @param storeTime the store's clock
     * @return the first day of the group it falls in, in this format's zone
     */
    public LocalDate groupOf(Instant storeTime) {
        return group.start(LocalDate.ofInstant(storeTime, zone));
    }

    /**
     * The store counter that numbers one group.
     *
     * @param name the base name, e.g. {@code invoice}
     * @param groupDate a day of the group
     * @return e.g. {@code invoice:20261203}
     */
    public String counterName(String name, LocalDate groupDate) {
        return name + ":" + group.key(groupDate);
    }

    /**
     * @param groupDate a day of the number's group
     * @param counter its count in the group, 1 to {@link #maxCounter()}
     * @return the number as text
     * @throws IllegalArgumentException if the counter does not fit the width (nothing wraps or widens)
     */
    public String format(LocalDate groupDate, long counter) {
        if (counter < 1 || counter > maxCounter) {
            throw new IllegalArgumentException("business number counter " + counter + " is out of range 1.."
                    + maxCounter + " for pattern " + pattern() + " (group " + group.key(groupDate)
                    + "); widen the pattern");
        }
        String digits = Long.toString(counter);
        return lead() + group.key(groupDate) + separator + "0".repeat(width - digits.length()) + digits;
    }

    /**
     * Reads a number written in this format.
     *
     * @param text e.g. {@code INV-20261203-000042}
     * @return its prefix, group date and counter
     * @throws MalformedBusinessNumberException if it does not have the shape; the message quotes it
     *     and names the pattern
     */
    public BusinessNumber parse(String text) {
        Objects.requireNonNull(text, "text");
        String lead = lead();
        int expected = lead.length() + group.digits() + separator.length() + width;
        if (text.length() != expected || !text.startsWith(lead)
                || !text.startsWith(separator, lead.length() + group.digits())) {
            throw refuse(text, "expected " + expected + " characters shaped " + pattern());
        }
        String date = text.substring(lead.length(), lead.length() + group.digits());
        String count = text.substring(expected - width);
        if (!count.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw refuse(text, "the counter " + Quote.of(count) + " is not " + width + " digits");
        }
        LocalDate day;
        try {
            day = group.parse(date);
        } catch (IllegalArgumentException e) {
            throw refuse(text, e.getMessage());
        }
        long counter = Long.parseLong(count);
        if (counter < 1) {
            throw refuse(text, "the counter is 0; counters start at 1");
        }
        return new BusinessNumber(text, prefix, day, counter);
    }

    /**
     * Reads a number as a {@link DecodedId} for the decoder's readers (the CLI, logs): kind
     * {@code business number}, the group's start as its time, fields {@code prefix}, {@code date},
     * {@code counter}.
     *
     * @param text the number
     * @return it decoded
     * @throws IllegalArgumentException as {@link #parse(String)}
     */
    public DecodedId decode(String text) {
        BusinessNumber n = parse(text.strip());
        return new DecodedFields(text, "business number", "pattern " + pattern() + ", zone " + zone,
                Optional.of(n.date().atStartOfDay(zone).toInstant()),
                List.of(IdField.text("prefix", n.prefix()),
                        IdField.text("date", n.date().toString()).withNote(group.name().toLowerCase() + " group"),
                        IdField.number("counter", n.counter())));
    }

    private String lead() {
        return prefix.isEmpty() ? "" : prefix + separator;
    }

    private MalformedBusinessNumberException refuse(String text, String why) {
        return new MalformedBusinessNumberException(text, pattern(), "not a business number of pattern " + pattern()
                + ": " + Quote.of(text) + ": " + why);
    }

    @Override
    public String toString() {
        return pattern() + " (" + zone + ")";
    }

    /** Configures a {@link BusinessNumberFormat}. */
    public static final class Builder {
        private String prefix = "";
        private String separator = "-";
        private DateGroup group = DateGroup.DAY;
        private int width = 6;
        private ZoneId zone = ZoneOffset.UTC;

        private Builder() {
        }

        /**
         * @param prefix written first, e.g. {@code INV}; empty for none; at most 32 printable
         *     characters
         * @return this
         * @throws IllegalArgumentException if too long or not printable
         */
        public Builder prefix(String prefix) {
            this.prefix = printable("prefix", prefix, 32);
            return this;
        }

        /**
         * @param separator between the parts; default {@code -}; empty for none; at most 4
         *     printable characters, no digits
         * @return this
         * @throws IllegalArgumentException if too long, not printable, or holding a digit
         */
        public Builder separator(String separator) {
            this.separator = printable("separator", separator, 4);
            if (separator.chars().anyMatch(Character::isDigit)) {
                throw new IllegalArgumentException("separator " + Quote.of(separator) + " must hold no digit");
            }
            return this;
        }

        /**
         * @param group after which period the count starts again at 1
         * @return this
         */
        public Builder group(DateGroup group) {
            this.group = Objects.requireNonNull(group, "group");
            return this;
        }

        /**
         * @param width the counter's digits, zero-padded, 1 to {@link #MAX_WIDTH}
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder width(int width) {
            if (width < 1 || width > MAX_WIDTH) {
                throw new IllegalArgumentException("width " + width + " is out of range 1.." + MAX_WIDTH);
            }
            this.width = width;
            return this;
        }

        /**
         * Sets prefix, separator, date group and width at once from a pattern as
         * {@link BusinessNumberFormat#pattern()} writes it: {@code [prefix separator] date separator N...},
         * where the date is {@code yyyyMMdd}, {@code yyyyMM} or {@code yyyy} and the run of {@code N}
         * at the end is the counter's width. {@code INV-yyyyMMdd-NNNNNN} is prefix {@code INV},
         * separator {@code -}, day groups, width 6; {@code yyyyMMNNNN} has no prefix and no
         * separator. The format built has exactly this pattern, so numbers it writes read back
         * with it.
         *
         * @param pattern e.g. {@code INV-yyyyMMdd-NNNNNN}
         * @return this
         * @throws IllegalArgumentException if the pattern has not that shape; the message quotes it
         *     and says what is allowed
         */
        public Builder pattern(String pattern) {
            Builder read = read(pattern, zone);
            this.prefix = read.prefix;
            this.separator = read.separator;
            this.group = read.group;
            this.width = read.width;
            return this;
        }

        /** The parts a pattern stands for, or a refusal quoting it. */
        private static Builder read(String pattern, ZoneId zone) {
            Objects.requireNonNull(pattern, "pattern");
            int end = pattern.length();
            int counterStart = end;
            while (counterStart > 0 && pattern.charAt(counterStart - 1) == 'N') {
                counterStart--;
            }
            int w = end - counterStart;
            if (w < 1 || w > MAX_WIDTH) {
                throw badPattern(pattern, "it must end in 1 to " + MAX_WIDTH + " N for the counter, found " + w);
            }
            int date = pattern.lastIndexOf("yyyy", counterStart - 4);
            if (date < 0) {
                throw badPattern(pattern, "it has no date yyyyMMdd, yyyyMM or yyyy before the counter");
            }
            DateGroup g = pattern.startsWith(DateGroup.DAY.shape(), date) ? DateGroup.DAY
                    : pattern.startsWith(DateGroup.MONTH.shape(), date) ? DateGroup.MONTH : DateGroup.YEAR;
            int dateEnd = date + g.shape().length();
            if (dateEnd > counterStart) {
                throw badPattern(pattern, "the date runs into the counter");
            }
            String sep = pattern.substring(dateEnd, counterStart);
            String lead = pattern.substring(0, date);
            String pre;
            if (lead.isEmpty()) {
                pre = "";
            } else if (!lead.endsWith(sep) || lead.length() == sep.length()) {
                throw badPattern(pattern, "the prefix " + Quote.of(lead) + " must be followed by the same separator "
                        + Quote.of(sep) + " as the date");
            } else {
                pre = lead.substring(0, lead.length() - sep.length());
            }
            Builder candidate = new Builder().zone(zone);
            try {
                candidate.prefix(pre).separator(sep).group(g).width(w);
            } catch (IllegalArgumentException e) {
                throw badPattern(pattern, e.getMessage());
            }
            String written = new BusinessNumberFormat(candidate).pattern();
            if (!written.equals(pattern)) {
                throw badPattern(pattern, "it reads as " + Quote.of(written) + ", which is not the same");
            }
            return candidate;
        }

        private static IllegalArgumentException badPattern(String pattern, String why) {
            return new IllegalArgumentException("business number pattern " + Quote.of(pattern) + " cannot be read: "
                    + why + "; allowed: [PREFIX SEP] yyyyMMdd|yyyyMM|yyyy SEP N..., e.g. INV-yyyyMMdd-NNNNNN");
        }

        /**
         * @param zone where the store's time is read as a date; default UTC
         * @return this
         */
        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /**
         * Builds the format, making sure its {@link BusinessNumberFormat#pattern() pattern} reads back
         * as the same parts, so that {@link #pattern(String)} (and {@code idgen decode --pattern})
         * reads every number the format writes. A separator holding {@code N} or a date letter can
         * make a pattern that reads otherwise: prefix {@code INV}, separator {@code N}, width 6 writes
         * {@code INVNyyyyMMddNNNNNNN}, which reads as prefix {@code INVN}, no separator, width 7.
         *
         * @return the format
         * @throws IllegalArgumentException if the parts make a pattern that reads as other parts,
         *     naming both
         */
        public BusinessNumberFormat build() {
            BusinessNumberFormat f = new BusinessNumberFormat(this);
            String pattern = f.pattern();
            Builder back;
            try {
                back = read(pattern, zone);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(parts(this) + " write pattern " + Quote.of(pattern)
                        + ", which cannot be read back (" + e.getMessage() + "); choose other parts", e);
            }
            if (!back.prefix.equals(prefix) || !back.separator.equals(separator) || back.group != group
                    || back.width != width) {
                throw new IllegalArgumentException(parts(this) + " write pattern " + Quote.of(pattern) + ", which reads"
                        + " back as " + parts(back) + ", so numbers written could not be read; choose a separator"
                        + " without N, y, M or d");
            }
            return f;
        }

        private static String parts(Builder b) {
            return "prefix " + Quote.of(b.prefix) + ", separator " + Quote.of(b.separator) + ", "
                    + b.group.name().toLowerCase(java.util.Locale.ROOT) + " group, width " + b.width;
        }

        private static String printable(String what, String s, int max) {
            Objects.requireNonNull(s, what);
            if (s.length() > max || !s.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw new IllegalArgumentException(what + " " + Quote.of(s) + " must be 0 to " + max
                        + " printable ASCII characters without spaces");
            }
            return s;
        }
    }
}
