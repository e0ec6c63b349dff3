package dev.idgen.snowflake;

import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockStats;
import dev.idgen.LongIdGenerator;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.spi.MachineIdUser;
import dev.idgen.sequence.CounterStart;
import dev.idgen.sequence.TickSequence;
import dev.idgen.sequence.TickSpace;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Makes 64-bit Snowflake IDs: {@code timestamp | machine id | sequence}, cut as its
 * {@link SnowflakeLayout} says, in the layout's {@link SnowflakeLayout.FieldOrder field order}
 * (the machine id may be below the sequence, or above the timestamp). The shifts and the machine
 * field are fixed when the generator is built, so the order costs nothing per ID.
 *
 * <p>Thread-safe and lock-free: {@link #nextLong()} reads the clock once, takes its (tick, sequence)
 * pair from one CAS on a padded, packed {@code long}, then reads the machine id and the ticks it
 * may stamp (one volatile read) and checks that tick against both ends with one compare; it
 * allocates nothing. IDs from one generator are unique and strictly increasing in the order the
 * calls return, under every {@link ClockBackwardsPolicy}.
 *
 * <p>When the sequence of a tick is exhausted (4,096 IDs in one millisecond with Twitter's layout)
 * the call spins until the clock reaches the next tick, as Twitter's {@code tilNextMillis}; under
 * {@link ClockBackwardsPolicy#runAhead(java.time.Duration)} it takes the next tick at once, within
 * that policy's bound. A thread interrupted while waiting gets an {@link IllegalStateException}.
 *
 * <pre>{@code
 * SnowflakeGenerator ids = SnowflakeGenerator.builder()
 *         .layout(SnowflakeLayout.TWITTER)
 *         .machineId(42)
 *         .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5)))
 *         .build();
 * long id = ids.nextLong();
 * }</pre>
 */
public final class SnowflakeGenerator implements LongIdGenerator {

    private final SnowflakeLayout layout;
    private final MachineIdLease lease;
    private final ClockBackwardsPolicy policy;
    private final TickSequence sequence;
    private final int timestampShift;
    private final int sequenceShift;
    private final int machineShift;
    /** How the sequence packs a pair: the counter's bits and its mask (copied, one load fewer). */
    private final int counterBits;
    private final long counterMask;
    /**
     * The machine id in force and the ticks it may stamp, as one immutable value: a fixed id holds
     * every tick for ever; a lease replaces the whole value on each fence move and each claim
     * ({@link LeaseView}), so an ID is always judged against the id it carries.
     */
    private volatile Holding holding;

    private SnowflakeGenerator(Builder b) {
        this.layout = b.layout;
        this.lease = b.lease;
        this.policy = b.policy;
        this.timestampShift = layout.timestampShift();
        this.sequenceShift = layout.sequenceShift();
        this.machineShift = layout.machineShift();
        this.counterBits = layout.sequenceBits();
        this.counterMask = (1L << counterBits) - 1;
        TickSpace space = new TickSpace(layout.epoch().toEpochMilli(), layout.tickMillis(),
                layout.maxTimestamp(), layout.sequenceBits());
        this.sequence = TickSequence.builder(space, b.clock)
                .counterStart(b.randomSequenceStart
                        ? CounterStart.randomBelow((layout.maxSequence() + 1) / 2, () -> ThreadLocalRandom.current().nextLong())
                        : CounterStart.zero())
                .policy(policy)
                .waitTimer(b.waitTimer)
                .logAs(SnowflakeGenerator.class)
                .build();
        // before the first ID: start above the last time an earlier holder of the id used
        this.sequence.skipThrough(lease.highWaterMark());
        // a lease that can be lost opens the fence itself when the generator attaches to it
        long id = lease.machineId();
        long fence = lease instanceof FencingLease ? 0 : Long.MAX_VALUE;
        this.sequence.limitTo(fence);
        this.holding = new Holding(id, id << machineShift, 0, fence);
    }

    /**
     * A machine id and the ticks this generator may stamp with it: {@code firstTick <= tick <
     * fenceTick}. {@code firstTick} is one past the last tick taken before the id was (re-)claimed,
     * so a (tick, sequence) pair taken under an earlier claim, by a call paused until after the
     * claim, is never stamped with the new claim's id: that tick may belong to the id's previous
     * holder, and under a new id it could sort below IDs already returned.
     *
     * <p>{@code ticks} is {@code fenceTick - firstTick} (0 when the fence is at or below the first
     * tick), so that one unsigned compare, {@code tick - firstTick < ticks}, checks both ends.
     */
    private static final class Holding {
        final long machineId;
        final long machineField;
        final long firstTick;
        final long fenceTick;
        final long ticks;

        Holding(long machineId, long machineField, long firstTick, long fenceTick) {
            this.machineId = machineId;
            this.machineField = machineField;
            this.firstTick = firstTick;
            this.fenceTick = fenceTick;
            this.ticks = fenceTick > firstTick ? fenceTick - firstTick : 0;
        }

        /**
         * Whether {@code tick} may be stamped with this machine id: {@code firstTick <= tick <
         * fenceTick}. False for the tick of {@link TickSequence#REFUSED} (far below 0).
         */
        boolean admits(long tick) {
            return Long.compareUnsigned(tick - firstTick, ticks) < 0;
        }
    }

    /**
     * A builder with Twitter's layout, the system clock and the default policy; the machine id must
     * be set.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Makes the next ID.
     *
     * @return an ID greater than every ID this generator returned before
     * @throws MachineIdLostException if the machine-id lease is no longer held
     * @throws ClockMovedBackwardsException if the clock is further behind the last tick used than
     *     the policy allows
     * @throws IllegalStateException if the clock is before the layout's epoch or past its last
     *     instant, or the thread was interrupted while waiting for the next tick
     */
    @Override
    public long nextLong() {
        for (;;) {
            // The sequence moves to no tick at or past its limit, a copy of the fence (checked before
            // its CAS, once per new tick), so refused calls never raise the mark a lease records; the
            // copy may be stale, and is only a filter.
            long pair = sequence.next();
            // Act, then check: the holding read after the CAS decides, and it is the only read of it.
            // Its ends are compared with the tick this ID carries, so a call paused anywhere before
            // this line is judged by the time it stamps; and the ID carries that holding's machine id.
            // The swap keeps this safe because a holding is immutable and replaced whole: the fence is
            // shut before a new id's first tick is read, and that first tick lies above every pair
            // taken before it, so a pair taken under the old claim either meets the old holding (old
            // id) or fails the new one's first tick, never the new id. The read also keeps this
            // generator reachable until the pair is taken, which the fixed-id registry (a weak
            // reference) relies on.
            Holding h = holding;
            long tick = pair >> counterBits;
            if (h.admits(tick)) {
                return tick << timestampShift | h.machineField | (pair & counterMask) << sequenceShift;
            }
            if (pair == TickSequence.REFUSED || tick >= h.fenceTick) {
                throw new MachineIdLostException(lease);
            }
            // taken before the machine id was claimed again: drop it, take a later one
        }
    }

    /**
     * Fills {@code out} with new IDs, for a batch insert: IDs as {@link #nextLong()} makes them, with
     * the same promises, but taken from the sequence a block at a time, with one clock read and one CAS per block. A block holds what is
     * left of the current tick's sequence; when the array needs more, the next block starts in a
     * later tick, reached as {@code nextLong()} reaches it when a sequence runs out (a wait for the
     * clock, or a run ahead, as the policy says). So {@code out} is strictly increasing, and every
     * ID in it is greater than every ID returned before this call started and smaller than every ID
     * returned by a call that starts after it returns; blocks taken by other threads at the same
     * time never overlap it.
     *
     * <p>The lease's fence is checked after each block is taken, against that block's tick (the
     * last block's tick is the largest), before any of its IDs is written. If it reaches the fence
     * the call throws and the whole array is refused: its content is then unspecified and none of it
     * may be used.
     *
     * @param out the array to fill; an empty array is left alone, without reading the clock
     * @throws MachineIdLostException if the machine-id lease is no longer held for a block's tick
     * @throws ClockMovedBackwardsException as {@link #nextLong()}
     * @throws IllegalStateException as {@link #nextLong()}
     */
    public void fill(long[] out) {
        Objects.requireNonNull(out, "out");
        int i = 0;
        while (i < out.length) {
            int wanted = out.length - i;
            long first = sequence.nextBlock(wanted);
            // act, then check, as in nextLong(): against the tick of the IDs just taken
            Holding h = holding;
            long tick = first >> counterBits;
            if (!h.admits(tick)) {
                if (first == TickSequence.REFUSED || tick >= h.fenceTick) {
                    throw new MachineIdLostException(lease);
                }
                continue; // taken before the machine id was claimed again, as in nextLong()
            }
            int size = sequence.blockSize(first, wanted);
            long base = tick << timestampShift | h.machineField;
            long counter = first & counterMask;
            for (int end = i + size; i < end; i++, counter++) {
                out[i] = base | counter << sequenceShift;
            }
        }
    }

    /**
     * Takes an ID of this generator's layout apart.
     *
     * @param id an ID
     * @return its fields
     */
    public SnowflakeId decode(long id) {
        return layout.decode(id);
    }

    /** {@return the layout} */
    public SnowflakeLayout layout() {
        return layout;
    }

    /**
     * {@return the machine id this generator stamps now: fixed for a fixed id; a lease that claims
     * again after a fence may move the generator to another id}
     */
    public long machineId() {
        return holding.machineId;
    }

    /**
     * The last Unix millisecond covered by an ID of this generator: the end of the last tick used,
     * or of the tick of a mark raised from its lease. A lease records it so that the next holder of
     * the machine id starts above it.
     *
     * @return Unix milliseconds, or {@link MachineIdLease#NO_MARK} before the first ID and mark
     */
    public long highWaterMark() {
        return sequence.lastMillisCovered();
    }

    /** {@return the clock-backwards policy} */
    public ClockBackwardsPolicy policy() {
        return policy;
    }

    /**
     * What the clock has done to this generator since it was built: steps back, waits, refusals,
     * run-aheads. Counted only off the fast path; see {@link ClockStats}.
     *
     * @return a snapshot
     */
    public ClockStats clockStats() {
        return sequence.clockStats();
    }

    /** The face a {@link FencingLease} sees: mark and fence, kept off the generator's public API. */
    private final class LeaseView implements MachineIdUser {
        @Override
        public long highWaterMark() {
            return sequence.lastMillisCovered();
        }

        @Override
        public void raiseHighWaterMark(long unixMillis) {
            sequence.skipThrough(unixMillis);
        }

        @Override
        public void fenceFrom(long unixMillis) {
            // tick t is allowed while its last millisecond is before the fence: t < (fence - epoch) / tick,
            // computed without overflow for any long (before the epoch: 0, every tick refused)
            long fenceTick = unixMillis == Long.MAX_VALUE ? Long.MAX_VALUE
                    : Math.max(0, sequence.space().clampedTickAt(unixMillis));
            // the sequence's limit is only a filter (see nextLong); the holding decides
            sequence.limitTo(fenceTick);
            Holding h = holding;
            holding = new Holding(h.machineId, h.machineField, h.firstTick, fenceTick);
        }

        @Override
        public String layoutSignature() {
            return layout.signature();
        }

        @Override
        public void switchTo(long machineId) {
            if (machineId < 0 || machineId > layout.maxMachineId()) {
                throw new IllegalArgumentException("machine id " + machineId + " is outside layout "
                        + layout.name() + "'s range 0.." + layout.maxMachineId());
            }
            // Shut first, so no call stamps anything while the new first tick is read; then start
            // past every tick taken so far (the lease raised the mark before this call).
            sequence.limitTo(0);
            Holding h = holding;
            holding = new Holding(h.machineId, h.machineField, h.firstTick, 0);
            long first = sequence.lastTick() + 1;
            holding = new Holding(machineId, machineId << machineShift, first, 0);
        }
    }

    @Override
    public String toString() {
        return "SnowflakeGenerator[layout=" + layout.name() + ", machine id " + holding.machineId + " from " + lease + ", policy=" + policy + "]";
    }

    /** Configures a {@link SnowflakeGenerator}. Not thread-safe; each {@link #build()} is independent. */
    public static final class Builder {
        private SnowflakeLayout layout = SnowflakeLayout.TWITTER;
        private MachineIdLease lease;
        private InstantSource clock = InstantSource.system();
        private ClockBackwardsPolicy policy = ClockBackwardsPolicy.defaultPolicy();
        private boolean randomSequenceStart;
        private LongSupplier waitTimer = System::nanoTime;
        private boolean registered = true;

        private Builder() {
        }

        /**
         * @param layout the layout; default {@link SnowflakeLayout#TWITTER}
         * @return this builder
         */
        public Builder layout(SnowflakeLayout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            return this;
        }

        /**
         * A fixed machine id from configuration; the operator keeps it unique.
         *
         * @param machineId 0 to the layout's {@link SnowflakeLayout#maxMachineId()}, checked at
         *     {@link #build()}
         * @return this builder
         * @throws IllegalArgumentException if {@code machineId} is negative
         */
        public Builder machineId(long machineId) {
            this.lease = MachineIdLease.fixed(machineId);
            return this;
        }

        /**
         * A machine id from a lease. A lease that can be lost (a {@link FencingLease} from a
         * coordinator) fences the generator by time: {@link SnowflakeGenerator#nextLong()} throws
         * {@link MachineIdLostException} for any ID whose time reaches the lease's fence. The
         * generator starts above the lease's {@link MachineIdLease#highWaterMark()} and, once built,
         * attaches a private view of itself to the lease
         * ({@link FencingLease#attach(MachineIdUser)}) so the lease can record and raise its mark
         * and move its fence.
         *
         * @param lease the lease
         * @return this builder
         */
        public Builder machineId(MachineIdLease lease) {
            this.lease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /**
         * @param clock the only source of time; default {@link InstantSource#system()}
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param policy what to do when the clock steps back; default
         *     {@link ClockBackwardsPolicy#defaultPolicy()}, waiting up to 5 ms
         * @return this builder
         */
        public Builder onClockBackwards(ClockBackwardsPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Start the sequence of each new tick at a random value in the lower half of its range
         * instead of at 0. At low traffic most IDs then no longer end in sequence 0, so sharding by
         * {@code id % n} spreads evenly; it costs one {@code ThreadLocalRandom} draw per new tick and
         * halves the IDs guaranteed per tick before the generator waits for the next one.
         *
         * @param random whether to start at random; default {@code false}
         * @return this builder
         */
        public Builder randomSequenceStart(boolean random) {
            this.randomSequenceStart = random;
            return this;
        }

        /**
         * Leaves this generator out of the JVM-wide check of fixed machine ids (see {@link #build()}):
         * it is not refused when a live generator's IDs overlap its own, does not block later ones,
         * and does not start above the last tick of a collected one. Only for simulations and tests
         * that build many generators on one id on purpose and keep none of their IDs (jcstress
         * states, a demo on a manual clock, simulated fleets): two such generators on one machine id
         * make the same IDs. Has no effect on a {@link FencingLease}, which is never registered.
         *
         * @return this builder
         */
        public Builder skipMachineIdRegistry() {
            this.registered = false;
            return this;
        }

        /** For tests: the monotonic time source that bounds waits (never ID time). */
        Builder waitTimer(LongSupplier nanoTime) {
            this.waitTimer = Objects.requireNonNull(nanoTime, "nanoTime");
            return this;
        }

        /**
         * Builds the generator. A fixed machine id (not a {@link FencingLease}) is registered for
         * this JVM, on every clock: while a generator built earlier is still reachable and some long
         * could come from both (decided from the bits: widths, field order and machine id, whatever
         * the names; epoch and tick aside, since equal bits make equal longs at other instants), this
         * fails naming it; once that one is unreachable (this method asks the JVM to collect it, a
         * few times), a new generator with the same bits, epoch, tick and id on the same timeline
         * (the system clock in any zone or tick is one) starts above the last tick it used.
         * {@link #skipMachineIdRegistry()} opts a simulation out.
         *
         * @return a new generator
         * @throws IllegalArgumentException if no machine id was set, the machine id is outside the
         *     layout, the clock reads a time the layout cannot encode (the epoch is in the
         *     future, or the layout has run out), or a live generator in this JVM with a fixed
         *     machine id can make one of the IDs this one can
         */
        public SnowflakeGenerator build() {
            if (lease == null) {
                throw new IllegalArgumentException("no machine id set; call machineId(0.."
                        + layout.maxMachineId() + ") with an id unique to this generator");
            }
            if (!(lease instanceof FencingLease) && !lease.isHeld()) {
                throw new IllegalArgumentException("lease " + lease + " is not held; a machine id that can be"
                        + " lost must come from a FencingLease (dev.idgen.machine.spi), which fences the generator");
            }
            long id = lease.machineId();
            if (id < 0 || id > layout.maxMachineId()) {
                throw new IllegalArgumentException("machine id " + id + " is outside layout "
                        + layout.name() + "'s range 0.." + layout.maxMachineId());
            }
            SnowflakeGenerator generator = new SnowflakeGenerator(this);
            try {
                generator.sequence.currentTick();
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException("layout " + layout.name() + " cannot be used with this clock: "
                        + e.getMessage(), e);
            }
            if (lease instanceof FencingLease fencing) {
                fencing.attach(generator.new LeaseView());
            } else if (registered) {
                MachineIdRegistry.register(generator, generator.sequence, clock);
            }
            return generator;
        }
    }
}
