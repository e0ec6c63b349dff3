package dev.idgen.uuid;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A clock for the UUID tests that plays back scripted readings, one per read, then moves on by
 * 1 ms every {@code readsPerMilli} reads after the script ends, so that a generator spinning for the
 * next millisecond sees time pass without anyone sleeping. Records every reading it hands out.
 */
final class ScriptedClock implements InstantSource {

    private final long[] script;
    private final int readsPerMilli;
    private long[] handedOut = new long[1024];
    private int reads;

    ScriptedClock(int readsPerMilli, long... script) {
        this.script = script.clone();
        this.readsPerMilli = readsPerMilli;
    }

    /** A clock stuck at {@code millis} except that it moves 1 ms every {@code readsPerMilli} reads. */
    static ScriptedClock creeping(long millis, int readsPerMilli) {
        return new ScriptedClock(readsPerMilli, millis);
    }

    @Override
    public synchronized long millis() {
        long now;
        if (reads < script.length) {
            now = script[reads];
        } else {
            now = script[script.length - 1] + (reads - script.length + 1) / readsPerMilli;
        }
        if (reads == handedOut.length) {
            handedOut = Arrays.copyOf(handedOut, 2 * reads);
        }
        handedOut[reads++] = now;
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /** @return the readings handed out from read number {@code from} on, in order */
    synchronized List<Long> readingsSince(int from) {
        List<Long> out = new ArrayList<>();
        for (int i = from; i < reads; i++) {
            out.add(handedOut[i]);
        }
        return out;
    }

    /** @return the latest reading handed out */
    synchronized long lastReading() {
        return handedOut[reads - 1];
    }

    synchronized int reads() {
        return reads;
    }
}
