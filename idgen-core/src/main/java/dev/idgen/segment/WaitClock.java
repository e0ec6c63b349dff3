package dev.idgen.segment;

import java.util.concurrent.locks.Condition;

/**
 * The time by which a {@link SegmentGenerator} bounds a caller's wait for the store and times its
 * grants, and the wait itself. Generators use {@link #SYSTEM}; a test gives one whose time moves
 * only when it waits, so it checks how long a caller waited and how often it asked again by
 * counting the waits, never by timing them.
 */
interface WaitClock {

    /** {@link System#nanoTime()} and {@link Condition#awaitNanos(long)}. */
    WaitClock SYSTEM = new WaitClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void await(Condition arrived, long nanos) throws InterruptedException {
            arrived.awaitNanos(nanos);
        }
    };

    /** {@return a reading in nanoseconds, only ever compared with another one} */
    long nanoTime();

    /**
     * Waits until {@code arrived} is signalled or {@code nanos} pass, whichever comes first; the
     * caller holds the condition's lock and looks again at what it waits for afterwards.
     *
     * @param arrived signalled when a range was fetched or the generator closed
     * @param nanos the longest wait, positive
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void await(Condition arrived, long nanos) throws InterruptedException;
}
