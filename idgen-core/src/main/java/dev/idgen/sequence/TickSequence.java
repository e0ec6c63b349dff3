package dev.idgen.sequence;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockStats;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The packed (tick, counter) state behind every time-ordered generator: Snowflake and monotonic
 * UUIDv7 both take their (time, sequence) pairs from here. Internal; not exported.
 *
 * <p>The state is one {@code long}, {@code tick << counterBits | counter}, advanced by a single CAS.
 * Configured by name: a {@link TickSpace} (epoch, tick length, last tick, counter bits), a
 * {@link CounterStart}, the {@link ClockBackwardsPolicy} (reduced once, at build, to the two
 * numbers the loop needs) and the clock; see {@link #builder(TickSpace, InstantSource)}.
 *
 * <p><b>Invariant.</b> Every successful CAS stores a value strictly greater than the one it
 * replaced, and the values a call returns (one from {@link #next()}, a block from
 * {@link #nextBlock(int)}) lie above the value its own successful CAS replaced, up to and
 * including the one it stored. So no two calls return the same value, and if call A returns before call B
 * starts, A's value is smaller. Callers map the value to an ID by a function that is strictly
 * increasing in (tick, counter), which carries both promises over to the IDs. Only {@link #next()},
 * {@link #nextBlock(int)} and {@link #skipThrough(long)} write the state; the latter keeps the same rule (it stores only a
 * greater value) and returns nothing, so it can only take values away from those {@code next()}
 * may still return, never hand one out twice. The one exception is opt-in and not for Snowflake:
 * {@link Builder#rebaseBeyondBound(boolean)} (see there).
 *
 * <p><b>High-water mark.</b> {@link #skipThrough(long)} marks every counter of a tick as used, so
 * the next value is in a later tick; a clock behind that tick then meets the
 * {@link ClockBackwardsPolicy} exactly as after a clock step back, and a refusal names the mark.
 *
 * <p><b>Fast path.</b> The common case (the clock is in a later tick, or in the last tick with
 * counters left) costs one clock read, one range check of the reading (one unsigned compare; no
 * division when a tick is one millisecond), one volatile read of the state and one CAS, and
 * allocates nothing; it counts nothing either. The limit ({@link #limitTo(long)}) and the step-back
 * flag are read once per new tick. Everything else is the slow path ({@code slowTick}).
 *
 * <p><b>Waits.</b> A call waits when the last tick's counter ran out (for the next tick), or when
 * the clock is behind the last tick within a {@code waitUpTo} bound. Every wait:
 * <ul>
 *   <li>re-applies the policy on each re-read of the clock: a clock that steps back further while
 *       a call waits for the next tick is judged like any other step back, never spun through;</li>
 *   <li>is bounded: it gives up after {@code tick + tolerance + }{@value #WAIT_SLACK_MILLIS} ms on
 *       a monotonic time source ({@code System::nanoTime} unless injected, used only to give up,
 *       never for ID time), so a clock that does not move fails the call instead of hanging it;</li>
 *   <li>gives way: it spins on {@link Thread#onSpinWait()} for 100 rounds, then calls
 *       {@link Thread#yield()} between reads, so a virtual thread lets others onto its carrier.</li>
 * </ul>
 * A controllable clock (and time source) lets a test wait without sleeping.
 *
 * <p><b>How far behind.</b> Measured in milliseconds from the clock's reading to the start of the
 * last tick used, not in ticks: with 10 ms ticks a clock 1 ms behind is 1 ms behind.
 */
public final class TickSequence extends TickSequenceRightPad {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(TickSequenceValue.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Before the first ID: tick -1 under a signed shift, so any real tick is newer. */
    private static final long NOTHING_ISSUED = -1L;

    /**
     * What {@link #next()} and {@link #nextBlock(int)} return when the pair would move the state to
     * or past the limit ({@link #limitTo(long)}): negative, so never a value (ticks and counters are
     * not negative).
     */
    public static final long REFUSED = Long.MIN_VALUE;

    /** Rounds of {@link Thread#onSpinWait()} before a wait starts yielding its thread. */
    static final int SPINS = 100;

    /** What a wait may take beyond the tick length and the policy's tolerance before it gives up. */
    public static final long WAIT_SLACK_MILLIS = 1_000;

    private final TickSpace space;
    private final InstantSource clock;
    /** The space, unpacked for the fast path: its epoch, ... */
    private final long epochMillis;
    /** ... the milliseconds from its epoch to its last millisecond ({@code >= 0}), ... */
    private final long spanMillis;
    /** ... its tick length, and whether that is one millisecond (no division). */
    private final long tickMillis;
    private final boolean unitTicks;
    private final LongSupplier nanoTime;
    private final int counterBits;
    private final long counterMask;
    private final CounterStart counterStart;
    private final ClockBackwardsPolicy policy;
    /** The policy, reduced once: how far behind (or ahead) is tolerated, in milliseconds ... */
    private final long toleranceMillis;
    /** ... and whether, within that, the IDs carry on ahead of the clock instead of waiting. */
    private final boolean runsAhead;
    private final boolean rebase;
    private final long waitLimitNanos;
    private final Logger log;
    private final Counters counters = new Counters();

    /**
     * The first tick the state may not move into ({@link #limitTo(long)}). Read only when a call
     * would move the state to a later tick (once per tick, and on the slow path), never when it
     * takes a further counter of the last tick.
     */
    private volatile long limitTick = Long.MAX_VALUE;
    /** Set while a step back is being handled, so that it is logged once; cleared on a new tick. */
    private volatile boolean stepBackLogged;
    /** The state {@link #skipThrough(long)} last stored, and the mark it stored it for. */
    private volatile long markState = Long.MIN_VALUE;
    private volatile long markMillis = Long.MIN_VALUE;
    /** The last run ahead of the clock: from the clock's tick then, to the tick taken (slow path only). */
    private volatile long ranAheadFrom;
    private volatile long ranAheadTo = -1;

    private TickSequence(Builder b) {
        this.space = b.space;
        this.clock = b.clock;
        this.epochMillis = space.epochMillis();
        this.spanMillis = space.lastMillis(space.maxTick()) - space.epochMillis();
        this.tickMillis = space.tickMillis();
        this.unitTicks = tickMillis == 1;
        this.nanoTime = b.nanoTime;
        this.counterBits = space.counterBits();
        this.counterMask = space.counterMask();
        if (b.counterStart.bound() > (1L << counterBits)) {
            throw new IllegalArgumentException("counter start bound " + b.counterStart.bound()
                    + " is outside the allowed range 0.." + (1L << counterBits) + " (2^" + counterBits + ")");
        }
        this.counterStart = b.counterStart;
        this.policy = b.policy;
        this.toleranceMillis = policy.tolerance().toMillis();
        this.runsAhead = policy instanceof ClockBackwardsPolicy.RunAhead;
        this.rebase = b.rebase;
        this.waitLimitNanos = (space.tickMillis() + toleranceMillis + WAIT_SLACK_MILLIS) * 1_000_000L;
        this.log = LoggerFactory.getLogger(b.owner);
        this.state = NOTHING_ISSUED;
    }

    /**
     * A builder: counters start at 0, policy {@link ClockBackwardsPolicy#defaultPolicy()}, waits
     * bounded on {@code System::nanoTime}, logging as {@code TickSequence}.
     *
     * @param space the ticks and counter bits
     * @param clock the only source of ID time
     * @return a new builder
     */
    public static Builder builder(TickSpace space, InstantSource clock) {
        return new Builder(space, clock);
    }

    /**
     * Takes the next (tick, counter) pair.
     *
     * @return {@code tick << counterBits | counter}, greater than every value returned before
     * @throws ClockMovedBackwardsException if the clock is behind the last tick by more than the
     *     policy allows
     * @throws IllegalStateException if the clock is outside the ticks this sequence can issue, a wait
     *     for the clock reached its bound, or the thread is interrupted while waiting for the clock
     */
    public long next() {
        return take(1);
    }

    /**
     * Sets the first tick the state may not move into, for a caller whose IDs are fenced at a tick
     * (a machine-id lease): from then on a call that would move the state into that tick or a later
     * one takes nothing and returns {@link #REFUSED}, so calling again and again cannot push the
     * state, and with it the high-water mark the lease records, past the fence. The limit is checked
     * before the CAS, and only when the state would move to a new tick: a call may still take a
     * further counter of the last tick when that tick is at or past the limit, which moves no mark
     * (a mark is a whole tick), so the caller must check the tick of every value it gets.
     *
     * <p>A filter, not the fence itself: a call that read the limit before it moved may take a
     * value past the new limit. Never set by UUIDv7 or ULID ({@link Long#MAX_VALUE}, no limit).
     *
     * @param tick the first tick the state may not move into; {@link Long#MAX_VALUE} for none
     */
    public void limitTo(long tick) {
        limitTick = tick;
    }

    /**
     * Takes a block of up to {@code n} consecutive values of one tick: one clock read and one CAS
     * when the current tick has counters left. The block is
     * {@code first .. first + blockSize(first, n) - 1}: all {@code n} values, or as many as the
     * tick still holds (at least one). To take more, call again: the next block starts in a later
     * tick, reached exactly as {@link #next()} reaches it when a tick's counter runs out (a wait for
     * the clock, or a run ahead, as the policy says).
     *
     * @param n how many values are wanted, 1 or more
     * @return the first value of the block, greater than every value returned before; every value
     *     of the block is this call's alone
     * @throws IllegalArgumentException if {@code n} is less than 1
     * @throws ClockMovedBackwardsException as {@link #next()}
     * @throws IllegalStateException as {@link #next()}
     */
    public long nextBlock(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("block size " + n + " is outside the allowed range 1.." + Integer.MAX_VALUE);
        }
        return take(n);
    }

    /**
     * The size of a block that {@link #nextBlock(int)} returned: the values it took are
     * {@code first} and the {@code blockSize - 1} after it, all in {@code first}'s tick.
     *
     * @param first what {@code nextBlock(n)} returned
     * @param n the {@code n} it was called with
     * @return {@code 1..n}
     */
    public int blockSize(long first, int n) {
        return (int) Math.min(n, counterMask - (first & counterMask) + 1);
    }

    /**
     * The one loop behind {@link #next()} and {@link #nextBlock(int)}: the first value is chosen as
     * for a single value, then the CAS stores the block's last value, so the whole block
     * {@code (prev, stored]} belongs to this call.
     */
    private long take(long n) {
        final long millis = clock.millis();
        final long since = millis - epochMillis;
        // one unsigned compare: since is in 0..spanMillis exactly when the clock is inside the
        // space (a reading before the epoch wraps to a value above any span); tickAt() throws
        final long reading = Long.compareUnsigned(since, spanMillis) <= 0
                ? (unitTicks ? since : since / tickMillis)
                : tickAt(millis);
        long now = reading;
        for (;;) {
            final long prev = state;
            final long last = prev >> counterBits;
            long first;
            if (now > last) {
                if (now >= limitTick) {
                    return REFUSED; // checked before the CAS: a refused call records nothing
                }
                first = now << counterBits | counterStart.draw();
            } else if (now == last && (prev & counterMask) != counterMask) {
                // the last tick again: no new tick, so no limit to check (see limitTo)
                first = prev + 1;
            } else {
                boolean exhausted = (prev & counterMask) == counterMask;
                if ((exhausted ? last + 1 : last) >= limitTick) {
                    return REFUSED; // every pair still to take reaches the limit: refuse without waiting
                }
                now = slowTick(last, exhausted);
                if (now >= 0) {
                    continue;
                }
                // re-base (opted into, never for Snowflake): store a smaller value, once
                now = ~now;
                if (now >= limitTick) {
                    return REFUSED;
                }
                first = now << counterBits | counterStart.draw();
                if (STATE.compareAndSet(this, prev, blockEnd(first, n))) {
                    log.warn("Clock is further behind the last tick used ({}) than policy {} allows; re-basing:"
                            + " carrying on from the clock at {}, below earlier values",
                            Instant.ofEpochMilli(space.startMillis(last)), policy,
                            Instant.ofEpochMilli(space.startMillis(now)));
                    return first;
                }
                continue;
            }
            // the block never leaves first's tick: its end is at most the tick's last counter
            if (STATE.compareAndSet(this, prev, n == 1 ? first : blockEnd(first, n))) {
                if (now > last && now == reading && stepBackLogged) {
                    // the clock itself has passed the last tick: a step back is over
                    stepBackLogged = false;
                }
                return first;
            }
            // Lost the race: another call advanced the state, possibly to a tick read after ours;
            // the loop re-reads the state, and slowTick() re-reads the clock before judging.
        }
    }

    /** The last value of a block of up to {@code n} from {@code first}, inside first's tick. */
    private long blockEnd(long first, long n) {
        return first + Math.min(n - 1, counterMask - (first & counterMask));
    }

    /**
     * @param value a value returned by {@link #next()}
     * @return its tick
     */
    public long tickOf(long value) {
        return value >> counterBits;
    }

    /**
     * @param value a value returned by {@link #next()}
     * @return its counter
     */
    public long counterOf(long value) {
        return value & counterMask;
    }

    /** {@return the tick space} */
    public TickSpace space() {
        return space;
    }

    /**
     * @return the last tick issued, or -1 before the first
     */
    public long lastTick() {
        return state >> counterBits;
    }

    /**
     * The last Unix millisecond inside the last tick issued (or skipped through).
     *
     * @return Unix milliseconds, or {@code Long.MIN_VALUE} before the first
     */
    public long lastMillisCovered() {
        long last = lastTick();
        return last < 0 ? Long.MIN_VALUE : space.lastMillis(last);
    }

    /**
     * Treats every value up to and including the tick that contains {@code unixMillis} as issued, so
     * {@link #next()} returns only values of later ticks. Does nothing when the state is already
     * there or beyond, or when {@code unixMillis} is before the epoch. A mark past the last tick this
     * sequence can issue uses up the whole range. Not for the hot path: a CAS-max loop.
     *
     * @param unixMillis the last Unix millisecond that must not be issued again
     */
    public void skipThrough(long unixMillis) {
        long tick = Math.min(space.clampedTickAt(unixMillis), space.maxTick());
        if (tick < 0) {
            return; // before tick 0: nothing this sequence could issue is at or below it
        }
        long target = tick << counterBits | counterMask;
        for (;;) {
            long prev = state;
            if (prev >= target) {
                return;
            }
            // keeps the invariant: stores only a value greater than the one it replaces
            if (STATE.compareAndSet(this, prev, target)) {
                markMillis = unixMillis;
                markState = target;
                return;
            }
        }
    }

    /**
     * The current tick of the clock, checked against the range this sequence can issue.
     *
     * @return the tick the clock reads now
     * @throws IllegalStateException if the clock reads a time before tick 0 or after the last tick
     */
    public long currentTick() {
        return tickAt(clock.millis());
    }

    /** {@return what the clock has done to this sequence so far} */
    public ClockStats clockStats() {
        return counters.snapshot();
    }

    private long tickAt(long millis) {
        long tick = space.clampedTickAt(millis);
        if (tick < 0 || tick > space.maxTick()) {
            throw new IllegalStateException("Clock reads " + Instant.ofEpochMilli(millis) + ", "
                    + (tick < 0 ? "before" : "after") + " the range this generator can encode: "
                    + space.first() + " to " + space.last());
        }
        return tick;
    }

    /**
     * The slow path: the clock is behind the last tick, or the last tick's counter ran out. Re-reads
     * the clock until it can answer, applying the policy to every reading.
     *
     * @param last the last tick used
     * @param exhausted whether its counter ran out, so the next value needs a later tick
     * @return the tick to retry with, {@code >= 0}; or {@code ~tick} (negative) to re-base on it
     */
    private long slowTick(long last, boolean exhausted) {
        final long target = exhausted ? last + 1 : last;
        if (target > space.maxTick()) {
            throw new IllegalStateException("Every id up to the last tick " + space.maxTick() + " ("
                    + space.last() + ") is used; no later id fits the layout");
        }
        long waitStart = 0;
        int rounds = 0;
        for (;;) {
            final long millis = clock.millis();
            final long now = tickAt(millis);
            if (now >= target) {
                return now; // includes a first reading that only lost a race with a later one
            }
            boolean behind = now < last;
            // behind because the clock stepped back, or only because IDs ran ahead of a clock that
            // has not gone back since (for the counts and the log; the policy judges both alike)
            boolean steppedBack = behind && !(last <= ranAheadTo && now >= ranAheadFrom);
            if (behind) {
                long behindMillis = space.startMillis(last) - millis; // > 0, in ms, not in ticks
                if (steppedBack) {
                    counters.stepBack(behindMillis, !stepBackLogged);
                }
                if (behindMillis > toleranceMillis) {
                    if (rebase) {
                        return ~now;
                    }
                    logStepBack(behindMillis, "refusing to generate ids");
                    counters.refused(millis);
                    throw refusal(behindMillis, millis);
                }
            }
            // how far ahead of this reading the target tick starts (> 0)
            long aheadMillis = space.startMillis(target) - millis;
            if (runsAhead && aheadMillis <= toleranceMillis) {
                if (steppedBack) {
                    logStepBack(space.startMillis(last) - millis, "carrying on from the last tick, ahead of the clock");
                    ranAheadFrom = now;
                } else if (!behind) {
                    ranAheadFrom = now;
                }
                ranAheadTo = target;
                counters.ranAhead();
                return target;
            }
            if (rounds == 0) {
                if (steppedBack) {
                    logStepBack(space.startMillis(last) - millis, "waiting for the clock to catch up");
                }
                counters.waited();
                waitStart = nanoTime.getAsLong();
            } else if (nanoTime.getAsLong() - waitStart > waitLimitNanos) {
                counters.refused(millis);
                throw new IllegalStateException("Waited " + waitLimitNanos / 1_000_000 + " ms (the bound: tick "
                        + space.tickMillis() + " ms + policy " + policy + " + " + WAIT_SLACK_MILLIS
                        + " ms) for the clock to reach " + Instant.ofEpochMilli(space.startMillis(target))
                        + ", but it still reads " + Instant.ofEpochMilli(millis) + "; is it frozen? No id was generated");
            }
            pause(target, rounds++);
        }
    }

    private ClockMovedBackwardsException refusal(long behindMillis, long clockMillis) {
        long mark = markMillis;
        if (state == markState && mark != Long.MIN_VALUE) {
            // the last tick is a mark raised from a lease, not an ID this process made
            return new ClockMovedBackwardsException(behindMillis, "Clock moved backwards behind the machine id's"
                    + " high-water mark: refusing to generate id for " + behindMillis + " milliseconds (policy "
                    + policy + "); the machine id's high-water mark from an earlier holder, "
                    + Instant.ofEpochMilli(mark) + ", is " + (mark - clockMillis) + " ms ahead of the clock ("
                    + Instant.ofEpochMilli(clockMillis) + ")");
        }
        return new ClockMovedBackwardsException(behindMillis, policy);
    }

    private void pause(long tick, int rounds) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("Interrupted while waiting for the clock to reach "
                    + Instant.ofEpochMilli(space.startMillis(tick)) + "; no id was generated");
        }
        if (rounds < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // gives way: on a virtual thread, lets another run on this carrier
        }
    }

    private void logStepBack(long behindMillis, String action) {
        if (!stepBackLogged) {
            stepBackLogged = true;
            log.warn("Clock is {} ms behind the last tick used ({}); policy {}: {}",
                    behindMillis, Instant.ofEpochMilli(space.startMillis(lastTick())), policy, action);
        }
    }

    /** Counts for {@link ClockStats}: written only on the slow path. */
    private static final class Counters {
        private final AtomicLong stepsBack = new AtomicLong();
        private final AtomicLong maxStepBackMillis = new AtomicLong();
        private final AtomicLong tickWaits = new AtomicLong();
        private final AtomicLong refusals = new AtomicLong();
        private final AtomicLong runAheads = new AtomicLong();
        private final AtomicLong lastRefusalMillis = new AtomicLong(Long.MIN_VALUE);

        void stepBack(long millis, boolean isNew) {
            if (isNew) {
                stepsBack.incrementAndGet();
            }
            maxStepBackMillis.accumulateAndGet(millis, Math::max);
        }

        void waited() {
            tickWaits.incrementAndGet();
        }

        void ranAhead() {
            runAheads.incrementAndGet();
        }

        void refused(long clockMillis) {
            refusals.incrementAndGet();
            lastRefusalMillis.set(clockMillis);
        }

        ClockStats snapshot() {
            return new ClockStats(stepsBack.get(), maxStepBackMillis.get(), tickWaits.get(), refusals.get(),
                    runAheads.get(), lastRefusalMillis.get());
        }
    }

    /** Configures a {@link TickSequence}. Not thread-safe. */
    public static final class Builder {
        private final TickSpace space;
        private final InstantSource clock;
        private CounterStart counterStart = CounterStart.zero();
        private ClockBackwardsPolicy policy = ClockBackwardsPolicy.defaultPolicy();
        private boolean rebase;
        private LongSupplier nanoTime = System::nanoTime;
        private Class<?> owner = TickSequence.class;

        private Builder(TickSpace space, InstantSource clock) {
            this.space = Objects.requireNonNull(space, "space");
            this.clock = Objects.requireNonNull(clock, "clock");
        }

        /**
         * @param start where each new tick's counter starts; default {@link CounterStart#zero()}
         * @return this builder
         */
        public Builder counterStart(CounterStart start) {
            this.counterStart = Objects.requireNonNull(start, "start");
            return this;
        }

        /**
         * @param policy what to do when the clock reads earlier than the last tick issued
         * @return this builder
         */
        public Builder policy(ClockBackwardsPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Whether a step back further than the policy's bound re-bases the sequence on the clock
         * (stores the clock's tick, below earlier values, once, logged at warn) instead of refusing.
         * This gives up the invariant across that one step: values after it are greater than each
         * other, not than those before. Only for callers whose IDs stay unique without it (UUIDv7's
         * fresh random bits); a Snowflake ID would repeat.
         *
         * @param rebase default {@code false}
         * @return this builder
         */
        public Builder rebaseBeyondBound(boolean rebase) {
            this.rebase = rebase;
            return this;
        }

        /**
         * @param nanoTime a monotonic time source used only to bound waits, never for ID time;
         *     default {@code System::nanoTime}
         * @return this builder
         */
        public Builder waitTimer(LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /**
         * @param owner the generator class, whose logger reports clock steps
         * @return this builder
         */
        public Builder logAs(Class<?> owner) {
            this.owner = Objects.requireNonNull(owner, "owner");
            return this;
        }

        /**
         * @return a new sequence, before its first value
         * @throws IllegalArgumentException if the counter start bound exceeds {@code 2^counterBits}
         */
        public TickSequence build() {
            return new TickSequence(this);
        }
    }
}

/** Padding before the state, so no other hot field shares its cache line. */
abstract class TickSequenceLeftPad {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** The state itself; see {@link TickSequence}. */
abstract class TickSequenceValue extends TickSequenceLeftPad {
    volatile long state;
}

/** Padding after the state. */
abstract class TickSequenceRightPad extends TickSequenceValue {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}
