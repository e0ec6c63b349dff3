package dev.idgen.sequence;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The packed (tick, counter) state behind every time-ordered generator: Snowflake and monotonic
 * UUIDv7 both take their (time, sequence) pairs from here. Internal; not exported.
 *
 * <p>The state is one {@code long}, {@code tick << counterBits | counter}, advanced by a single CAS.
 *
 * <p><b>Invariant.</b> Every successful CAS stores a value strictly greater than the one it
 * replaced, and each value returned by {@link #next()} is the value stored by that call's own
 * successful CAS. So no two calls return the same value, and if call A returns before call B
 * starts, A's value is smaller. Callers map the value to an ID by a function that is strictly
 * increasing in (tick, counter), which carries both promises over to the IDs. Only {@link #next()}
 * and {@link #skipThrough(long)} write the state; the latter keeps the same rule (it stores only a
 * greater value) and returns nothing, so it can only take values away from those {@code next()}
 * may still return, never hand one out twice.
 *
 * <p><b>High-water mark.</b> {@link #skipThrough(long)} marks every counter of a tick as used, so
 * the next value is in a later tick; a clock behind that tick then meets the
 * {@link ClockBackwardsPolicy} exactly as after a clock step back. A machine-id lease uses it to
 * keep a new holder of an id above the last tick an earlier holder used.
 *
 * <p>The common case costs one clock read, one volatile read and one CAS, and allocates nothing.
 * Clock steps back and exhausted counters leave the fast path and are handled by the
 * {@link ClockBackwardsPolicy}; waits spin on {@link Thread#onSpinWait()} re-reading the injected
 * clock, so a controllable clock lets a test wait without sleeping.
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

    private final InstantSource clock;
    private final long epochMillis;
    private final long tickMillis;
    private final long maxTick;
    private final int counterBits;
    private final long counterMask;
    private final long firstCounterBound;
    private final LongSupplier randomBits;
    private final ClockBackwardsPolicy policy;
    private final boolean runsAhead;
    private final long toleranceMillis;
    private final Logger log;

    /** Set while a step back is being handled, so that it is logged once; cleared on a new tick. */
    private volatile boolean stepBackLogged;

    /**
     * @param clock the only source of time
     * @param epochMillis Unix milliseconds of tick 0
     * @param tickMillis length of one tick in milliseconds, 1 or more
     * @param maxTick the last tick that may be issued
     * @param counterBits bits of counter below the tick, 1 to 31; {@code maxTick} must fit in the
     *     remaining {@code 63 - counterBits} bits
     * @param firstCounterBound 0 to start each new tick at counter 0, else the counter of a new tick
     *     starts uniformly at random in {@code [0, firstCounterBound)}, at most {@code 2^counterBits}
     * @param policy what to do when the clock reads earlier than the last tick issued
     * @param owner the generator class, whose logger reports clock steps
     */
    public TickSequence(InstantSource clock, long epochMillis, long tickMillis, long maxTick,
            int counterBits, long firstCounterBound, ClockBackwardsPolicy policy, Class<?> owner) {
        this(clock, epochMillis, tickMillis, maxTick, counterBits, firstCounterBound,
                () -> ThreadLocalRandom.current().nextLong(), policy, owner);
    }

    /**
     * As the other constructor, with the random bits that seed each new tick's counter given.
     *
     * @param clock the only source of time
     * @param epochMillis Unix milliseconds of tick 0
     * @param tickMillis length of one tick in milliseconds, 1 or more
     * @param maxTick the last tick that may be issued
     * @param counterBits bits of counter below the tick, 1 to 31; {@code maxTick} must fit in the
     *     remaining {@code 63 - counterBits} bits
     * @param firstCounterBound 0 to start each new tick at counter 0, else the counter of a new tick
     *     starts at {@code randomBits} reduced into {@code [0, firstCounterBound)}, at most
     *     {@code 2^counterBits} (uniform when the bound is a power of two)
     * @param randomBits 64 random bits a call, drawn once per new tick (not per ID) when
     *     {@code firstCounterBound > 0}
     * @param policy what to do when the clock reads earlier than the last tick issued
     * @param owner the generator class, whose logger reports clock steps
     */
    public TickSequence(InstantSource clock, long epochMillis, long tickMillis, long maxTick,
            int counterBits, long firstCounterBound, LongSupplier randomBits, ClockBackwardsPolicy policy,
            Class<?> owner) {
        this.randomBits = Objects.requireNonNull(randomBits, "randomBits");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.policy = Objects.requireNonNull(policy, "policy");
        if (tickMillis < 1 || counterBits < 1 || counterBits > 31 || maxTick < 0
                || maxTick > (Long.MAX_VALUE >> counterBits)
                || firstCounterBound < 0 || firstCounterBound > (1L << counterBits)) {
            throw new IllegalArgumentException("tick sequence parameters out of range: tickMillis="
                    + tickMillis + ", counterBits=" + counterBits + ", maxTick=" + maxTick
                    + ", firstCounterBound=" + firstCounterBound);
        }
        this.epochMillis = epochMillis;
        this.tickMillis = tickMillis;
        this.maxTick = maxTick;
        this.counterBits = counterBits;
        this.counterMask = (1L << counterBits) - 1;
        this.firstCounterBound = firstCounterBound;
        this.runsAhead = policy instanceof ClockBackwardsPolicy.RunAhead;
        this.toleranceMillis = policy.tolerance().toMillis();
        this.log = LoggerFactory.getLogger(owner);
        this.state = NOTHING_ISSUED;
    }

    /**
     * Takes the next (tick, counter) pair.
     *
     * @return {@code tick << counterBits | counter}, greater than every value returned before
     * @throws ClockMovedBackwardsException if the clock is behind the last tick by more than the
     *     policy allows
     * @throws IllegalStateException if the clock is outside the ticks this sequence can issue, or the
     *     thread is interrupted while waiting for the clock
     */
    public long next() {
        final long reading = currentTick();
        long now = reading;
        for (;;) {
            final long prev = state;
            final long last = prev >> counterBits;
            final long next;
            if (now > last) {
                next = now << counterBits | firstCounter();
            } else if (now < last) {
                now = clockBehind(last);
                continue;
            } else if ((prev & counterMask) != counterMask) {
                next = prev + 1;
            } else {
                now = counterExhausted(last);
                continue;
            }
            if (STATE.compareAndSet(this, prev, next)) {
                if (now > last && now == reading && stepBackLogged) {
                    // the clock itself has passed the last tick: a step back is over
                    stepBackLogged = false;
                }
                return next;
            }
            // Lost the race: another call advanced the state, possibly to a tick read after ours;
            // the loop re-reads the state, and clockBehind() re-reads the clock before judging.
        }
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
        return last < 0 ? Long.MIN_VALUE : epochMillis + (last + 1) * tickMillis - 1;
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
        if (unixMillis < epochMillis) {
            return; // before tick 0: nothing this sequence could issue is at or below it
        }
        long tick = Math.min((unixMillis - epochMillis) / tickMillis, maxTick);
        long target = tick << counterBits | counterMask;
        for (;;) {
            long prev = state;
            if (prev >= target) {
                return;
            }
            // keeps the invariant: stores only a value greater than the one it replaces
            if (STATE.compareAndSet(this, prev, target)) {
                return;
            }
        }
    }

    /**
     * The current tick of the clock, checked against the range this sequence can issue.
     *
     * @return the tick the clock reads now
     */
    public long currentTick() {
        long millis = clock.millis();
        long sinceEpoch = millis - epochMillis;
        if (sinceEpoch < 0) {
            throw outOfRange(millis, "before");
        }
        long tick = tickMillis == 1 ? sinceEpoch : sinceEpoch / tickMillis;
        if (tick > maxTick) {
            throw outOfRange(millis, "after");
        }
        return tick;
    }

    private long firstCounter() {
        return firstCounterBound == 0 ? 0 : Math.floorMod(randomBits.getAsLong(), firstCounterBound);
    }

    /** The clock read earlier than {@code last}: re-read it, then apply the policy. */
    private long clockBehind(long last) {
        long now = currentTick();
        if (now >= last) {
            return now; // our first reading lost a race with a call that read the clock later
        }
        long behindMillis = (last - now) * tickMillis;
        if (behindMillis > toleranceMillis) {
            logStepBack(behindMillis, "refusing to generate ids");
            throw new ClockMovedBackwardsException(behindMillis, policy);
        }
        if (runsAhead) {
            logStepBack(behindMillis, "carrying on from the last tick, ahead of the clock");
            return last;
        }
        logStepBack(behindMillis, "waiting for the clock to catch up");
        while (now < last) {
            awaitClock(last);
            now = currentTick();
            behindMillis = (last - now) * tickMillis;
            if (behindMillis > toleranceMillis) {
                logStepBack(behindMillis, "refusing to generate ids");
                throw new ClockMovedBackwardsException(behindMillis, policy);
            }
        }
        return now;
    }

    /**
     * Every counter value of tick {@code last} is used: take the next tick, waiting for the clock
     * to reach it unless the policy lets the IDs run ahead of the clock.
     */
    private long counterExhausted(long last) {
        long next = last + 1;
        if (next > maxTick) {
            throw new IllegalStateException("Every id up to the last tick " + maxTick + " ("
                    + instantOf(maxTick) + ") is used; no later id fits the layout");
        }
        long now = currentTick();
        while (now <= last) {
            if (runsAhead && (next - now) * tickMillis <= toleranceMillis) {
                return next;
            }
            awaitClock(next);
            now = currentTick();
        }
        return now;
    }

    private void awaitClock(long tick) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IllegalStateException("Interrupted while waiting for the clock to reach "
                    + instantOf(tick) + "; no id was generated");
        }
        Thread.onSpinWait();
    }

    private void logStepBack(long behindMillis, String action) {
        if (!stepBackLogged) {
            stepBackLogged = true;
            log.warn("Clock is {} ms behind the last tick used ({}); policy {}: {}",
                    behindMillis, instantOf(lastTick()), policy, action);
        }
    }

    private Instant instantOf(long tick) {
        return Instant.ofEpochMilli(epochMillis + tick * tickMillis);
    }

    private IllegalStateException outOfRange(long millis, String side) {
        return new IllegalStateException("Clock reads " + Instant.ofEpochMilli(millis) + ", " + side
                + " the range this generator can encode: " + instantOf(0) + " to "
                + instantOf(maxTick + 1).minusMillis(1));
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
