package dev.idgen.ulid;

import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongUnaryOperator;

/**
 * A clock for the ULID tests: set by hand, and optionally changed by a rule after each read, so that
 * a waiting generator sees time pass without anyone sleeping.
 */
final class TestClock implements InstantSource {

    private long millis;
    private LongUnaryOperator afterRead = m -> m;

    TestClock(long millis) {
        this.millis = millis;
    }

    synchronized TestClock set(long millis) {
        this.millis = millis;
        return this;
    }

    /** From now on each read returns the time, then applies {@code rule} to it. */
    synchronized TestClock afterEachRead(LongUnaryOperator rule) {
        this.afterRead = rule;
        return this;
    }

    @Override
    public synchronized long millis() {
        long now = millis;
        millis = afterRead.applyAsLong(millis);
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
