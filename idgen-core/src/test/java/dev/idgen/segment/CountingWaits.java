package dev.idgen.segment;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;

/**
 * A {@link WaitClock} whose time moves only when a caller waits (by the whole wait asked for, as if
 * nothing arrived) or when a test moves it: a test reads how often and how long callers waited
 * instead of timing them, and no test sleeps.
 */
final class CountingWaits implements WaitClock {

    /** Runs during a wait, before the time moves on; may deliver what the caller waits for. */
    interface DuringWait {
        void run(int wait) throws InterruptedException;
    }

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private volatile DuringWait during = wait -> { };

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public void await(Condition arrived, long nanos) throws InterruptedException {
        waits.add(Duration.ofNanos(nanos));
        during.run(waits.size());
        now.addAndGet(nanos);
    }

    /** @param action runs during each wait, given its number from 1 */
    void during(DuringWait action) {
        this.during = action;
    }

    /** @param d moves the time on, as a store call that takes {@code d} would */
    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    /** {@return every wait asked for, in order} */
    List<Duration> waits() {
        return List.copyOf(waits);
    }
}
