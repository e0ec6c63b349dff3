package dev.idgen.snowflake;

import java.time.Instant;
import java.time.InstantSource;

/**
 * A clock for core's own tests: set by hand, and optionally moving by a fixed step after each read,
 * so that a generator spinning for the next tick sees time pass without anyone sleeping.
 */
final class StepClock implements InstantSource {

    private long millis;
    private long stepPerRead;

    StepClock(long millis) {
        this.millis = millis;
    }

    synchronized void set(long millis) {
        this.millis = millis;
    }

    synchronized void advance(long deltaMillis) {
        this.millis += deltaMillis;
    }

    /** From now on each read returns the current time, then moves it on by {@code step} ms. */
    synchronized void stepPerRead(long step) {
        this.stepPerRead = step;
    }

    @Override
    public synchronized long millis() {
        long now = millis;
        millis += stepPerRead;
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
