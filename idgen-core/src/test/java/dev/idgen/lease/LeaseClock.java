package dev.idgen.lease;

import java.time.Instant;
import java.time.InstantSource;

/** A clock for the lease tests: set and moved by hand, read by any thread. */
final class LeaseClock implements InstantSource {

    private volatile long millis;

    LeaseClock(long millis) {
        this.millis = millis;
    }

    void set(long millis) {
        this.millis = millis;
    }

    void advance(long deltaMillis) {
        this.millis += deltaMillis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}
