package dev.idgen.segment;

import dev.idgen.IdGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Business numbers such as {@code INV-20261203-000042}: a {@link BusinessNumberFormat} over ranges
 * that a {@link SegmentSource} grants, one store counter per name and date group
 * ({@code invoice:20261203}), so each group starts at 1 and never repeats a number.
 *
 * <p><b>The store's date decides the group, never the local clock.</b> Before a range is taken the
 * store's clock is read ({@link SegmentSource#now()}) and the range is asked for under that group;
 * if the grant's own time (stamped by the store) already lies in a later group, that range is
 * dropped and one is taken under the new group. While a range is held, the store's time is
 * estimated as its last reading plus the local time elapsed since (durations only, never the
 * local date); when the estimate enters a new group the store is asked again, and only its answer
 * moves the group on (the rest of the old range is then dropped: a gap at the end of the old group,
 * never a repeat). So a number can carry the previous group's date only for as long as the local
 * clock runs slow against the store's since the last reading, and a restarted process numbers by
 * the store's date whatever its own clock says.
 *
 * <p><b>The pattern is part of the counter.</b> Before its first grant the generator records its
 * pattern with the store under its name ({@link SegmentSource#recordPattern}) and refuses to go on
 * when the store has another one on record ({@link PatternConflictException}): counters are keyed by
 * name and date group, so {@code INVyyyyMMddNN} and {@code INVyyyyMMNNNN} under one name would both
 * write {@code INV2026120301}. The zone is not recorded: groups of one name in two zones share
 * their counters, so their numbers differ even where their dates do not.
 *
 * <p>Business numbers are few; this generator favours that rule over speed: a short lock, no
 * prefetch, two store round trips (time and grant) per {@code step} numbers, made on the caller's
 * thread. The default step is 1 (no number is lost to a restart); a larger step trades gaps for
 * fewer round trips. Numbers of one generator strictly increase within a group.
 */
public final class BusinessNumberGenerator implements IdGenerator<String> {

    private final SegmentSource source;
    private final String name;
    private final BusinessNumberFormat format;
    private final long step;
    private final InstantSource clock;
    private final ReentrantLock lock = new ReentrantLock();

    // guarded by lock
    private boolean patternRecorded;
    private LocalDate group;
    private long next = 1;
    private long last;
    private long storeMillis;
    private long localMillis;

    // written under lock, read by meters and health at any time
    private volatile long issued;
    private volatile long grants;
    private volatile long grantNanos;
    private volatile long storeFailures;
    private volatile Instant failingSince;
    private volatile Throwable lastError;

    private BusinessNumberGenerator(Builder b) {
        this.source = b.source;
        this.name = b.name;
        this.format = b.format;
        this.step = b.step;
        this.clock = b.clock;
    }

    /** {@return a builder; source, name and format are required} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the next number as text} */
    @Override
    public String next() {
        return nextNumber().text();
    }

    /**
     * @return the next number with its parts
     * @throws SegmentUnavailableException if the store could not be asked, or the group has used
     *     every counter the width allows
     * @throws PatternConflictException if the store has another pattern on record for this name
     */
    public BusinessNumber nextNumber() {
        lock.lock();
        try {
            if (group != null && next <= last) {
                long estimate = storeMillis + (clock.millis() - localMillis);
                if (!format.groupOf(Instant.ofEpochMilli(estimate)).equals(group)) {
                    // the estimate says a group may have ended: only the store's clock moves it on
                    Instant storeNow = storeNow();
                    if (!format.groupOf(storeNow).equals(group)) {
                        last = next - 1; // drop the rest of the old group's range
                    }
                }
            }
            if (group == null || next > last) {
                take();
            }
            long counter = next++;
            if (counter > format.maxCounter()) {
                throw new SegmentUnavailableException("business numbers '" + format.counterName(name, group)
                        + "' have used every counter of pattern " + format.pattern() + " (up to "
                        + format.maxCounter() + "); widen the pattern", null);
            }
            BusinessNumber number = new BusinessNumber(format.format(group, counter), format.prefix(), group, counter);
            issued++;
            return number;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records this generator's pattern with its store, or finds the one on record
     * ({@link SegmentSource#recordPattern}); {@link #nextNumber()} does it before its first grant.
     * Call it at start-up to fail there rather than on the first number.
     *
     * @throws PatternConflictException if the store has another pattern on record for this name
     * @throws SegmentUnavailableException if the store could not be asked, or cannot record patterns
     */
    public void checkPattern() {
        lock.lock();
        try {
            recordPattern();
        } finally {
            lock.unlock();
        }
    }

    private void recordPattern() {
        if (patternRecorded) {
            return;
        }
        String recorded;
        try {
            recorded = source.recordPattern(name, format.pattern());
        } catch (RuntimeException e) {
            throw failed(new SegmentUnavailableException("no business number for '" + name + "': could not record its"
                    + " pattern " + format.pattern() + " with " + source.describe() + ": " + e, e));
        }
        if (!format.pattern().equals(recorded)) {
            throw new PatternConflictException(name, recorded, format.pattern(), source.describe());
        }
        patternRecorded = true;
    }

    private void take() {
        recordPattern();
        Instant storeNow = storeNow();
        for (int attempt = 0; attempt < 3; attempt++) {
            LocalDate g = format.groupOf(storeNow);
            String counter = format.counterName(name, g);
            SegmentGrant grant;
            long started = System.nanoTime();
            try {
                grant = source.grant(counter, step);
            } catch (RuntimeException e) {
                throw failed(new SegmentUnavailableException("no business number: " + source.describe() + " did not"
                        + " grant a range of " + step + " for '" + counter + "': " + e, e));
            } finally {
                grantNanos += System.nanoTime() - started;
            }
            grants++;
            LocalDate granted = format.groupOf(grant.storeTime());
            if (granted.equals(g)) {
                if (g.equals(group) && grant.first() <= last) {
                    // invariant 7: a range at or below one already used would repeat numbers
                    throw failed(new SegmentUnavailableException(source.describe() + " granted [" + grant.first()
                            + ", " + grant.last() + "] for '" + counter + "', not above the last range held (up to "
                            + last + "); refused (did the store's counter go back?)", null));
                }
                answered();
                group = g;
                next = grant.first();
                last = grant.last();
                rebase(grant.storeTime());
                return;
            }
            // the group turned between reading the store's clock and the grant: the range belongs to
            // the old group and is dropped (a gap at its end); ask under the group the grant names
            storeNow = grant.storeTime();
        }
        throw failed(new SegmentUnavailableException("no business number for '" + name + "' from "
                + source.describe() + ": three grants in a row came back stamped in a later date group than asked for",
                null));
    }

    private Instant storeNow() {
        Instant now;
        try {
            now = source.now();
        } catch (RuntimeException e) {
            throw failed(new SegmentUnavailableException("no business number for '" + name + "': could not read the"
                    + " clock of " + source.describe() + ", which decides the date group: " + e, e));
        }
        rebase(now);
        return now;
    }

    /** Counts a failed or refused call to the store; the first of a run starts {@link #failingSince()}. */
    private SegmentUnavailableException failed(SegmentUnavailableException e) {
        storeFailures++;
        lastError = e;
        if (failingSince == null) {
            failingSince = clock.instant();
        }
        return e;
    }

    /** The store granted a range that is used: it answers again. */
    private void answered() {
        failingSince = null;
    }

    private void rebase(Instant storeNow) {
        storeMillis = storeNow.toEpochMilli();
        localMillis = clock.millis();
    }

    /** {@return the format} */
    public BusinessNumberFormat format() {
        return format;
    }

    /** {@return the base name of the counters} */
    public String name() {
        return name;
    }

    /** {@return numbers handed out} */
    public long issued() {
        return issued;
    }

    /** {@return ranges the store granted (used or dropped at a group's end)} */
    public long grants() {
        return grants;
    }

    /** {@return time spent in the store's grants, in nanoseconds, successful or not} */
    public long grantNanos() {
        return grantNanos;
    }

    /** {@return calls to the store (its clock, a grant, the pattern's record) that failed or were refused} */
    public long storeFailures() {
        return storeFailures;
    }

    /** {@return whether the last call that needed the store ended without a range} */
    public boolean storeFailing() {
        return failingSince != null;
    }

    /** {@return when the current run of failed store calls began (local clock), or null while the store answers} */
    public Instant failingSince() {
        return failingSince;
    }

    /** {@return the error the last failed store call ended with, or null if none ever failed} */
    public Throwable lastError() {
        return lastError;
    }

    /** Configures a {@link BusinessNumberGenerator}. */
    public static final class Builder {
        private SegmentSource source;
        private String name;
        private BusinessNumberFormat format;
        private long step = 1;
        private InstantSource clock = InstantSource.system();

        private Builder() {
        }

        /**
         * @param source the store; it must tell its time ({@link SegmentSource#now()})
         * @return this
         */
        public Builder source(SegmentSource source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * @param name the base name, e.g. {@code invoice}; each group's counter is this, a colon and
         *     the group's date (1 to {@value SegmentGenerator#MAX_NAME_LENGTH} characters in all)
         * @return this
         * @throws IllegalArgumentException for a bad name
         */
        public Builder name(String name) {
            SegmentGenerator.checkName(name + ":20261203");
            this.name = name;
            return this;
        }

        /**
         * @param format the numbers' shape
         * @return this
         */
        public Builder format(BusinessNumberFormat format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /**
         * @param step numbers per grant, 1 to {@link SegmentGenerator#MAX_STEP}; default 1
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder step(long step) {
            this.step = SegmentGenerator.checkStep(step);
            return this;
        }

        /**
         * @param clock measures time elapsed since the store's clock was last read; its date is
         *     never used; default the system clock
         * @return this
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the generator
         * @throws IllegalStateException if source, name or format is missing
         */
        public BusinessNumberGenerator build() {
            if (source == null || name == null || format == null) {
                throw new IllegalStateException("BusinessNumberGenerator needs a source, a name and a format");
            }
            return new BusinessNumberGenerator(this);
        }
    }
}
