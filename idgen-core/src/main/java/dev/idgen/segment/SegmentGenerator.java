package dev.idgen.segment;

import dev.idgen.LongIdGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.text.Quote;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dense, increasing {@code long} numbers counted in memory inside ranges ("segments") that a
 * {@link SegmentSource} granted: one store round trip per {@code step} numbers.
 *
 * <pre>{@code
 * SegmentGenerator orders = SegmentGenerator.builder()
 *         .source(source).name("orders").step(1000)
 *         .prefetch(1, 128).maxWait(Duration.ofSeconds(1))
 *         .build();
 * long id = orders.nextLong();
 * }</pre>
 *
 * <h2>What is promised</h2>
 * <ul>
 *   <li>Every number lies in a range the store granted to this generator, and is returned at most
 *       once (invariant 7: the store's atomic increment is the only authority; ranges are never
 *       shared between generators or processes).</li>
 *   <li>Increasing in return order, across threads and across ranges: if one call returns before
 *       another starts, the first number is smaller. Calls that overlap in time may return in
 *       either order. So each thread sees its own numbers strictly increase. (Across ranges this
 *       rests on the generator moving to a later range only after the earlier one is spent, and on
 *       refusing a grant that does not lie above the last one.)</li>
 *   <li>Gaps are allowed and bounded: a generator that is closed, restarted or crashes drops what
 *       it holds, at most {@code step * (maxPrefetch + 1)} numbers (the current range and the
 *       prefetched ones); a grant whose answer was lost in the network drops at most {@code step}
 *       more. Numbers are dense otherwise.</li>
 *   <li>No order between generators: two generators (or processes) on one name count in their own
 *       ranges, so their numbers interleave, each increasing on its own.</li>
 * </ul>
 *
 * <h2>How</h2>
 * The fast path is one atomic add on the current range's counter and a compare: no lock, no
 * allocation. When the add passes the range's end, the caller moves to the next range, which a
 * background task fetched ahead of time (the ranges form a chain; moving on is one CAS). The task
 * keeps {@code target} ranges ready beyond the current one, where {@code target} follows the rate:
 * enough ranges to last {@link Builder#horizon horizon} at the current range's lifetime, growing at
 * once when ranges go fast and shrinking by one per range when they go slowly, within
 * {@link Builder#prefetch(int, int)}. The caller that moves to a new range sets the target and wakes
 * the task only once half the target is spent, so a fast caller pays one wake-up per
 * {@code target / 2} ranges, not one per range. A caller finding every range spent waits at most
 * {@link Builder#maxWait(Duration)} for the store, asking again every
 * {@link Builder#retryPause(Duration)}, then fails with a {@link SegmentUnavailableException} naming
 * the store, the name and what was tried. Failures of the store while ranges remain are only
 * logged.
 *
 * <p>Nothing is fetched before the first call. {@link #close()} stops fetching (and the thread the
 * generator owns); numbers already fetched are still handed out.
 */
public final class SegmentGenerator extends CurrentRangePadAfter implements LongIdGenerator, AutoCloseable {

    /** The longest name accepted, in characters. */
    public static final int MAX_NAME_LENGTH = 128;
    /** The largest step accepted. */
    public static final long MAX_STEP = 1L << 40;
    /** {@link #MAX_STEP} as messages write it. */
    private static final String STEP_BOUND_TEXT = String.format(java.util.Locale.ROOT, "%,d (2^40)", MAX_STEP);
    /** The most ranges kept ready beyond the current one. */
    public static final int MAX_PREFETCH = 1024;
    /**
     * The builder's default upper prefetch bound. High enough that a fast caller wakes the fetch
     * thread rarely (one wake-up per half the target); the target only gets there when ranges last
     * less than {@code horizon / 128}.
     */
    public static final int DEFAULT_MAX_PREFETCH = 128;

    private static final Logger LOG = LoggerFactory.getLogger(SegmentGenerator.class);
    private static final VarHandle NEXT;
    private static final VarHandle CURRENT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(Counter.class, "next", long.class);
            CURRENT = MethodHandles.lookup().findVarHandle(CurrentRangeField.class, "current", Segment.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SegmentSource source;
    private final String name;
    private final long step;
    private final int minPrefetch;
    private final int maxPrefetch;
    private final long horizonMillis;
    private final long maxWaitNanos;
    private final long retryPauseNanos;
    private final InstantSource clock;
    private final WaitClock waitClock;
    /** The executor given to the builder, or null when the generator runs its own fetch thread. */
    private final Executor executor;
    private final Thread fetchThread;
    private final Runnable drainTask = this::drain;

    // --- prefetch state; written by the prefetch task, which never runs twice at once (see drain) ---
    /** The last range of the chain. */
    private Segment tail;
    /** {@code tail.index}, for callers deciding whether to wake the task. */
    private volatile long tailIndex;
    /**
     * Ranges to keep ready beyond the current one. Set by the caller that moved to a new range; two
     * such moves racing can lose one step of adaptation, which the next move makes up.
     */
    private volatile int target;

    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong fetches = new AtomicLong();
    private final AtomicLong failedFetches = new AtomicLong();
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong fetchNanos = new AtomicLong();
    private volatile int failureStreak;
    private volatile Instant failingSince;
    private volatile Throwable lastError;
    private volatile long fetchStartedNanos;
    private volatile boolean fetching;
    private volatile boolean closed;

    private final ReentrantLock waitLock = new ReentrantLock();
    private final Condition arrived = waitLock.newCondition();

    private SegmentGenerator(Builder b) {
        this.source = b.source;
        this.name = b.name;
        this.step = b.step;
        this.minPrefetch = b.minPrefetch;
        this.maxPrefetch = b.maxPrefetch;
        this.horizonMillis = b.horizon.toMillis();
        this.maxWaitNanos = b.maxWait.toNanos();
        this.retryPauseNanos = b.retryPause.toNanos();
        this.clock = b.clock;
        this.waitClock = b.waitClock;
        this.executor = b.executor;
        Segment start = new Segment(0, 0, -1, Instant.EPOCH); // spent from the start: the first call fetches
        this.current = start;
        this.tail = start;
        this.target = minPrefetch;
        if (executor == null) {
            // its own thread, woken by unpark: asking for a fetch allocates nothing (no task object,
            // no queue node) on the caller's thread
            fetchThread = new Thread(this::fetchLoop, "idgen-segment-" + name);
            fetchThread.setDaemon(true);
            fetchThread.start();
        } else {
            fetchThread = null;
        }
    }

    private void fetchLoop() {
        while (!closed) {
            if (pending.get() == 0) {
                LockSupport.park(this);
                continue; // woken, spuriously or not: look again
            }
            drain();
        }
    }

    /** {@return a builder; source and name are required} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the next number: one atomic add on the current range, and on its end a move to the
     * next range (waiting for the store at most the configured time).
     *
     * @return a number from a granted range, larger than every number returned before this call began
     * @throws SegmentUnavailableException if every range is spent and the store gave no new one in time
     */
    @Override
    public long nextLong() {
        Segment s = current;
        long n = (long) NEXT.getAndAdd(s, 1L);
        // n >= 0: a range left spent through a long outage is stepped once per call; should that
        // ever wrap the counter, the wrapped value is negative and never handed out
        if (n <= s.last && n >= 0) {
            return n;
        }
        return nextFromLaterRange(s);
    }

    /**
     * The spent range {@code s} is never counted in again by this call: it walks the chain forward,
     * one add per range. A range's counter passes its end by one add per call that found it spent
     * (while the next range is late, every new call does).
     */
    private long nextFromLaterRange(Segment s) {
        for (;;) {
            Segment next = awaitSuccessor(s);
            // current only moves from a spent range to its successor, so it only moves forward and
            // a caller that starts after this one returned reads a range at least as late
            if (CURRENT.compareAndSet(this, s, next)) {
                switched(s, next);
            }
            s = next;
            long n = (long) NEXT.getAndAdd(s, 1L);
            if (n <= s.last && n >= 0) {
                return n;
            }
        }
    }

    /** Runs once per range, on the caller that moved to it: adapts the target, wakes the task if due. */
    private void switched(Segment spent, Segment now) {
        long t = clock.millis();
        int tgt = target;
        if (spent.first <= spent.last) {
            long life = Math.max(0, t - spent.activatedMillis);
            tgt = adapt(tgt, life);
        }
        now.activatedMillis = t;
        // wake the task once half the target is spent (at target 1: when the last ready range
        // begins, as before). With target 0 a fetch starts only when a caller finds nothing ready.
        if (tgt > 0 && tailIndex - now.index <= tgt >> 1) {
            requestPrefetch();
        }
    }

    /** {@return the new target for a range that lasted {@code life} ms: grow at once, shrink by one} */
    private int adapt(int t, long life) {
        long l = Math.max(1, life);
        long wanted = horizonMillis / l + (horizonMillis % l == 0 ? 0 : 1);
        int next = t;
        if (wanted > t) {
            next = (int) Math.min(maxPrefetch, wanted);
        } else if (wanted < t) {
            next = Math.max(minPrefetch, t - 1);
        }
        if (next != t) {
            target = next;
        }
        return next;
    }

    private Segment awaitSuccessor(Segment s) {
        Segment n = s.successor;
        if (n != null) {
            return n;
        }
        requestPrefetch();
        if ((n = spinForSuccessor(s)) != null) {
            return n;
        }
        waits.incrementAndGet();
        long start = waitClock.nanoTime();
        long deadline = start + maxWaitNanos;
        long askAgain = start + retryPauseNanos;
        waitLock.lock();
        try {
            while ((n = s.successor) == null) {
                if (closed) {
                    throw new SegmentUnavailableException("segment generator for '" + name + "' on "
                            + source.describe() + " is closed and every range it fetched is spent", lastError);
                }
                long now = waitClock.nanoTime();
                if (now - deadline >= 0) {
                    throw unavailable(now - start);
                }
                if (now - askAgain >= 0) {
                    requestPrefetch();
                    askAgain = now + retryPauseNanos;
                    continue;
                }
                waitClock.await(arrived, Math.min(deadline, askAgain) - now);
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SegmentUnavailableException("interrupted while waiting for a range of '" + name + "' from "
                    + source.describe(), e);
        } finally {
            waitLock.unlock();
        }
    }

    /**
     * The fetch usually lands within microseconds when it is merely late: looks a few times before
     * the caller takes the lock (which allocates a wait node). Only decides how soon a caller
     * blocks, never what it gets: the locked wait looks again first.
     */
    private static Segment spinForSuccessor(Segment s) {
        for (int i = 0; i < 256; i++) {
            Segment n = s.successor;
            if (n != null) {
                return n;
            }
            if ((i & 31) == 31) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
        return null;
    }

    private SegmentUnavailableException unavailable(long waitedNanos) {
        StringBuilder m = new StringBuilder("no number for segment '").append(name).append("' from ")
                .append(source.describe()).append(": every range fetched is spent and no new one came within ")
                .append(Duration.ofNanos(waitedNanos).toMillis()).append(" ms (maxWait ")
                .append(Duration.ofNanos(maxWaitNanos)).append("); ");
        Throwable err = lastError;
        int streak = failureStreak;
        if (streak > 0) {
            m.append("tried ").append(streak).append(streak == 1 ? " grant" : " grants").append(" of step ")
                    .append(step).append(" since ").append(failingSince).append(", all failed, the last with: ")
                    .append(err);
        } else if (fetching) {
            m.append("a grant of step ").append(step).append(" has been in flight for ")
                    .append(Duration.ofNanos(waitClock.nanoTime() - fetchStartedNanos).toMillis())
                    .append(" ms without an answer (store slow or hanging)");
        } else {
            m.append("the fetch task has not run (is the executor busy or shut down?)");
        }
        return new SegmentUnavailableException(m.toString(), streak > 0 ? err : null);
    }

    // ------------------------------------------------------------------ prefetch

    private void requestPrefetch() {
        if (closed) {
            return;
        }
        // 0 -> 1 schedules the task; more requests while it runs make it run once more
        if (pending.getAndIncrement() == 0) {
            if (fetchThread != null) {
                LockSupport.unpark(fetchThread);
                return;
            }
            try {
                executor.execute(drainTask);
            } catch (RejectedExecutionException e) {
                pending.set(0);
                failed(e);
            }
        }
    }

    /** Runs fill until no request came in meanwhile; the pending count keeps it single-threaded. */
    private void drain() {
        int seen = pending.get();
        for (;;) {
            try {
                fill();
            } catch (RuntimeException | Error e) {
                failed(e);
            }
            int left = pending.addAndGet(-seen);
            if (left == 0) {
                return;
            }
            seen = left;
        }
    }

    private void fill() {
        Segment cur = current;
        int ready = 0;
        for (Segment x = cur.successor; x != null; x = x.successor) {
            ready++;
        }
        // a caller waits on a spent range with nothing after it: fetch one even with no prefetch
        int want = Math.max(target, cur.successor == null && (long) NEXT.getVolatile(cur) > cur.last ? 1 : 0);
        while (ready < want && !closed) {
            SegmentGrant g;
            fetchStartedNanos = waitClock.nanoTime();
            fetching = true;
            try {
                g = source.grant(name, step);
            } catch (RuntimeException e) {
                failed(e);
                return;
            } finally {
                fetching = false;
                fetchNanos.addAndGet(waitClock.nanoTime() - fetchStartedNanos);
            }
            fetches.incrementAndGet();
            if (g == null || g.first() <= tail.last) {
                // invariant 7: a range at or below one already held would repeat numbers (a store
                // restored from a backup, a failover to a replica that lags); never use it
                failed(new IllegalStateException("store granted " + (g == null ? "nothing" : "[" + g.first() + ", "
                        + g.last() + "]") + ", not above the last range held [" + tail.first + ", " + tail.last
                        + "]; refused (did the store's counter go back: a restore, a failover, lost data?)"));
                return;
            }
            Segment seg = new Segment(tail.index + 1, g.first(), g.last(), g.storeTime());
            tail.successor = seg; // publishes the range to callers
            tail = seg;
            tailIndex = seg.index;
            ready++;
            int streak = failureStreak;
            if (streak > 0) {
                LOG.info("segment '{}' on {}: store answers again after {} failed grants", name, source.describe(),
                        streak);
                failureStreak = 0;
                failingSince = null;
            }
            signalWaiters();
        }
    }

    private void failed(Throwable e) {
        failedFetches.incrementAndGet();
        lastError = e;
        if (failureStreak++ == 0) {
            failingSince = clock.instant();
            LOG.warn("segment '{}' on {}: grant of step {} failed (ranges left are still used): {}", name,
                    source.describe(), step, e.toString());
        } else {
            LOG.debug("segment '{}' on {}: grant failed again: {}", name, source.describe(), e.toString());
        }
    }

    private void signalWaiters() {
        waitLock.lock();
        try {
            arrived.signalAll();
        } finally {
            waitLock.unlock();
        }
    }

    // ------------------------------------------------------------------ state

    /** {@return the counter's name} */
    public String name() {
        return name;
    }

    /** {@return the numbers each grant asks for} */
    public long step() {
        return step;
    }

    /** {@return how many ranges the prefetch task currently keeps ready beyond the current one} */
    public int prefetchTarget() {
        return target;
    }

    /** {@return numbers fetched and not handed out yet: what a restart now would drop (approximate under load)} */
    public long numbersLeft() {
        Segment cur = current;
        long left = Math.max(0, cur.last - (long) NEXT.getVolatile(cur) + 1);
        for (Segment x = cur.successor; x != null; x = x.successor) {
            left += x.last - x.first + 1;
        }
        return left;
    }

    /** {@return grants received from the store} */
    public long fetches() {
        return fetches.get();
    }

    /** {@return grants that failed or were refused} */
    public long failedFetches() {
        return failedFetches.get();
    }

    /** {@return whether the store's last grant failed (it has failed since {@link #failingSince()})} */
    public boolean storeFailing() {
        return failureStreak > 0;
    }

    /** {@return when the store's current run of failed grants began, or null while it answers} */
    public Instant failingSince() {
        return failingSince;
    }

    /** {@return the last error a grant ended with, or null if none ever failed} */
    public Throwable lastError() {
        return lastError;
    }

    /** {@return time spent in the store's grants, in nanoseconds, successful or not} */
    public long fetchNanos() {
        return fetchNanos.get();
    }

    /** {@return calls that found every range spent and had to wait for the store} */
    public long waits() {
        return waits.get();
    }

    /** Stops fetching and the thread this generator owns; ranges already fetched are still handed out. */
    @Override
    public void close() {
        closed = true;
        if (fetchThread != null) {
            // wakes the thread from park too; a store call in flight may end early, its range is then a gap
            fetchThread.interrupt();
        }
        signalWaiters();
    }

    @Override
    public String toString() {
        return "SegmentGenerator[" + name + " on " + source.describe() + ", step " + step + ", prefetch " + minPrefetch
                + ".." + maxPrefetch + " (now " + target + ")]";
    }

    // ------------------------------------------------------------------ checks shared with sources

    /**
     * @param name a counter's name
     * @return the name
     * @throws IllegalArgumentException if it is blank, longer than {@link #MAX_NAME_LENGTH} or holds a
     *     control character
     */
    public static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        // a plain loop: stores check every grant's name, and a stream would allocate per grant
        boolean control = false;
        for (int i = 0; i < name.length() && !control; i++) {
            control = Character.isISOControl(name.charAt(i));
        }
        if (control || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("segment name " + Quote.of(name) + " (length " + name.length()
                    + ") must be 1 to " + MAX_NAME_LENGTH + " characters, not blank, without control characters");
        }
        return name;
    }

    /**
     * @param step numbers per grant
     * @return the step
     * @throws IllegalArgumentException unless 1 &le; step &le; {@link #MAX_STEP}
     */
    public static long checkStep(long step) {
        if (step < 1 || step > MAX_STEP) {
            throw new IllegalArgumentException("segment step " + step + " is out of range: 1 to " + STEP_BOUND_TEXT);
        }
        return step;
    }

    // ------------------------------------------------------------------ the ranges

    /** Keeps the contended counter off the cache lines of the fields callers only read. */
    abstract static class PadBefore {
        long p01, p02, p03, p04, p05, p06, p07, p08;
    }

    abstract static class Counter extends PadBefore {
        /** The next number to hand out; past {@code last} once the range is spent. */
        volatile long next;
    }

    abstract static class PadAfter extends Counter {
        long p11, p12, p13, p14, p15, p16, p17, p18;
    }

    static final class Segment extends PadAfter {
        /** Position in the chain: 0 for the empty start, then 1, 2, ... in fetch order. */
        final long index;
        final long first;
        final long last;
        final Instant storeTime;
        /** Set once, by the prefetch task, before any caller can see it. */
        volatile Segment successor;
        volatile long activatedMillis;

        Segment(long index, long first, long last, Instant storeTime) {
            this.index = index;
            this.first = first;
            this.last = last;
            this.storeTime = storeTime;
            this.next = first;
        }
    }

    // ------------------------------------------------------------------ builder

    /** Configures a {@link SegmentGenerator}. */
    public static final class Builder {
        private SegmentSource source;
        private String name;
        private long step = 1000;
        private int minPrefetch = 1;
        private int maxPrefetch = DEFAULT_MAX_PREFETCH;
        private Duration horizon = Duration.ofSeconds(1);
        private Duration maxWait = Duration.ofSeconds(1);
        private Duration retryPause = Duration.ofMillis(100);
        private InstantSource clock = InstantSource.system();
        private WaitClock waitClock = WaitClock.SYSTEM;
        private Executor executor;

        private Builder() {
        }

        /**
         * @param source the store; required
         * @return this
         */
        public Builder source(SegmentSource source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * @param name the counter's name in the store; required (1 to {@value SegmentGenerator#MAX_NAME_LENGTH}
         *     characters, no control characters)
         * @return this
         * @throws IllegalArgumentException for a bad name
         */
        public Builder name(String name) {
            this.name = checkName(name);
            return this;
        }

        /**
         * @param step numbers per grant, 1 to {@link #MAX_STEP}; default 1000
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder step(long step) {
            this.step = checkStep(step);
            return this;
        }

        /**
         * Bounds on how many ranges are kept ready beyond the current one; the generator moves
         * between them with the rate. {@code (0, 0)} fetches only when a range is spent (every
         * {@code step} numbers, one caller waits for the store). Default {@code (1, 128)}.
         *
         * @param min at least 0
         * @param max at least {@code min}, at most {@link #MAX_PREFETCH}
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder prefetch(int min, int max) {
            if (min < 0 || max < min || max > MAX_PREFETCH) {
                throw new IllegalArgumentException("prefetch bounds (" + min + ", " + max
                        + ") must satisfy 0 <= min <= max <= " + MAX_PREFETCH);
            }
            this.minPrefetch = min;
            this.maxPrefetch = max;
            return this;
        }

        /**
         * @param horizon how long the ready ranges should last at the current rate; positive;
         *     default 1 s
         * @return this
         * @throws IllegalArgumentException if not positive
         */
        public Builder horizon(Duration horizon) {
            this.horizon = positive("horizon", horizon, Duration.ofDays(1));
            return this;
        }

        /**
         * @param maxWait the longest a call waits for the store once every range is spent; positive,
         *     at most one hour; default 1 s
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = positive("maxWait", maxWait, Duration.ofHours(1));
            return this;
        }

        /**
         * @param retryPause how often a waiting call asks the store again after a failure;
         *     positive, at most one hour; default 100 ms
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder retryPause(Duration retryPause) {
            this.retryPause = positive("retryPause", retryPause, Duration.ofHours(1));
            return this;
        }

        /**
         * @param clock measures how long a range lasted (for the prefetch distance) and stamps
         *     failures; default the system clock
         * @return this
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** For tests: the time that bounds waits and times grants, and the wait itself. */
        Builder waitClock(WaitClock waitClock) {
            this.waitClock = Objects.requireNonNull(waitClock, "waitClock");
            return this;
        }

        /**
         * @param executor runs the fetches; default a daemon thread of the generator's own, stopped
         *     by {@link #close()}. An executor given here is not shut down by the generator.
         * @return this
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * @return the generator; it fetches nothing before its first call
         * @throws IllegalStateException if source or name is missing
         */
        public SegmentGenerator build() {
            if (source == null || name == null) {
                throw new IllegalStateException("SegmentGenerator needs a source and a name (source "
                        + (source == null ? "missing" : "set") + ", name " + (name == null ? "missing" : "set") + ")");
            }
            return new SegmentGenerator(this);
        }

        private static Duration positive(String what, Duration d, Duration max) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero() || d.compareTo(max) > 0) {
                throw new IllegalArgumentException(what + " " + d + " is out of range (0, " + max + "]");
            }
            return d;
        }
    }
}
