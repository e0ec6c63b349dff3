package dev.idgen.lease.jdbc;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A wall clock the test controls: real time plus an offset, or frozen at a value; and one thread
 * can be made to stop inside a clock read, as a GC or a descheduled thread would stop it.
 */
final class TestClock implements InstantSource {
    final AtomicLong offset = new AtomicLong();
    final AtomicLong fixed = new AtomicLong(Long.MIN_VALUE);
    private volatile Thread pausing;
    private volatile boolean readBeforePause;
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);

    private long now() {
        long f = fixed.get();
        return f != Long.MIN_VALUE ? f : System.currentTimeMillis() + offset.get();
    }

    @Override
    public long millis() {
        if (Thread.currentThread() == pausing) {
            pausing = null;
            long before = now();
            paused.countDown();
            try {
                if (!resume.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never resumed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return readBeforePause ? before : now();
        }
        return now();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /**
     * The next read by {@code thread} stops until {@link #resume()}; it returns the time read before
     * the stop ({@code readBeforePause}) or after it.
     */
    void pauseNextReadOf(Thread thread, boolean readBeforePause) {
        this.readBeforePause = readBeforePause;
        this.pausing = thread;
    }

    void awaitPaused() throws InterruptedException {
        if (!paused.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the thread never reached its clock read");
        }
    }

    void resume() {
        resume.countDown();
    }
}
