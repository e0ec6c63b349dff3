package dev.idgen.sequence;

import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongUnaryOperator;

/**
 * A clock for the sequence tests: set by hand, and optionally changed by a rule after each read (a
 * step forward, or a script of readings), so that a waiting call sees time pass, or step back,
 * without anyone sleeping. Counts its reads.
 */
final class ScriptClock implements InstantSource {

    private long millis;
    private long reads;
    private LongUnaryOperator afterRead = m -> m;

    ScriptClock(long millis) {
        this.millis = millis;
    }

    synchronized ScriptClock set(long millis) {
        this.millis = millis;
        return this;
    }

    /** From now on each read returns the time, then applies {@code rule} to it. */
    synchronized ScriptClock afterEachRead(LongUnaryOperator rule) {
        this.afterRead = rule;
        return this;
    }

    synchronized ScriptClock stepPerRead(long step) {
        return afterEachRead(m -> m + step);
    }

    synchronized long reads() {
        return reads;
    }

    @Override
    public synchronized long millis() {
        long now = millis;
        millis = afterRead.applyAsLong(millis);
        reads++;
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
