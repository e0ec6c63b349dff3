package dev.idgen.snowflake;

import dev.idgen.sequence.TickSequence;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The fixed machine ids of the live generators in this JVM, by the longs each can make. Two
 * generators whose sets of possible IDs intersect could return the same ID, so
 * {@link SnowflakeGenerator.Builder#build()} refuses the second while the first is reachable; once
 * the first is gone, a generator on the same ID space and timeline starts above the last tick the
 * first used (the entry keeps the first's sequence strongly, the generator only weakly). Used only at
 * build, never on the hot path.
 *
 * <p><b>Overlap, decided from bits.</b> Names (of the layout, its parts, the sequence) play no part,
 * and neither does the clock: every generator with a fixed machine id is registered, whatever its
 * {@link InstantSource}, unless its builder opted out
 * ({@link SnowflakeGenerator.Builder#skipMachineIdRegistry()}). A generator on layout L with machine
 * id m may make any long that is at most {@link SnowflakeLayout#maxId()} and holds m in L's machine
 * field; the rule takes every tick count and every sequence as possible. That ignores the epoch and
 * the tick length on purpose: the long a generator makes depends on its tick count, not on when that
 * tick is, so two layouts with the same bits and different epochs or ticks make the same longs at
 * different instants (one of them years later, or on a clock set back), and those IDs still collide
 * in a table that keeps both. So two generators conflict exactly when some long satisfies both
 * descriptions: their machine fields agree on every bit they share, and each one's machine field
 * fits below the other's largest ID. For one bit split and order that is "the same machine id"; for
 * two splits it refuses pairs whose IDs can coincide only at far-apart times (a time-first and a
 * machine-first generator of one 63-bit layout always conflict, whatever their ids), which is the
 * conservative side: a refused build names the generator in the way, and the fix is another id.
 *
 * <p><b>Timelines.</b> A collected generator's last tick is carried to a new one only when both have
 * the same bits (epoch, tick, widths, order), the same machine id and the same timeline: the system
 * clock in any zone, also ticking by millisecond, second or minute ({@code Clock.tickMillis} etc.),
 * is one timeline; any other clock is its own (compared with {@code equals}). A simulated clock's
 * mark says nothing about real time, and carrying it would push a real-time generator into the
 * future (or the reverse).
 *
 * <p>Leases that can be lost ({@code FencingLease}) fence themselves and are not registered.
 */
final class MachineIdRegistry {

    /** How many times a build that meets a registered generator asks the JVM to collect it. */
    static final int COLLECT_ATTEMPTS = 5;

    /** The system clock and the system clock ticking by whole units, in UTC: one timeline. */
    private static final Set<Clock> SYSTEM_CLOCKS = Set.of(Clock.systemUTC(), Clock.tickMillis(ZoneOffset.UTC),
            Clock.tickSeconds(ZoneOffset.UTC), Clock.tickMinutes(ZoneOffset.UTC));

    /** Stands for the system timeline in {@link Entry#timeline}. */
    private static final Object SYSTEM_TIMELINE = new Object();

    /**
     * The longs one generator may make, as bits: {@code machineValue} under {@code machineMask},
     * every bit above {@code maxId} zero, every other bit free.
     */
    record Space(SnowflakeLayout layout, long machineId, long machineMask, long machineValue, long maxId) {

        static Space of(SnowflakeLayout layout, long machineId) {
            int shift = layout.machineShift();
            return new Space(layout, machineId, layout.maxMachineId() << shift, machineId << shift, layout.maxId());
        }

        /**
         * {@return whether some long is in both spaces} The long {@code machineValue | other.machineValue}
         * (tick 0 and sequence 0 in both readings) is one when the three conditions hold; when the
         * machine fields disagree on a shared bit, or one field has a bit the other space never sets,
         * no long is in both.
         */
        boolean overlaps(Space other) {
            return ((machineValue ^ other.machineValue) & machineMask & other.machineMask) == 0
                    && (machineValue & ~other.maxId) == 0
                    && (other.machineValue & ~maxId) == 0;
        }

        /** {@return whether the two make the same longs at the same instants: same bits, epoch, tick, id} */
        boolean sameAs(Space other) {
            SnowflakeLayout a = layout;
            SnowflakeLayout b = other.layout;
            return machineId == other.machineId && a.timestampBits() == b.timestampBits()
                    && a.machineBits() == b.machineBits() && a.sequenceBits() == b.sequenceBits()
                    && a.fieldOrder() == b.fieldOrder() && a.epoch().equals(b.epoch()) && a.tick().equals(b.tick());
        }
    }

    /**
     * A live (or collected) generator, the sequence it left, and its timeline: {@link #SYSTEM_TIMELINE}
     * or a weak reference to its clock (a collected clock can carry no mark to anyone).
     */
    private record Entry(WeakReference<SnowflakeGenerator> generator, String description, Space space,
            Object timeline, TickSequence sequence) {

        boolean onTimeline(Object other) {
            if (timeline == SYSTEM_TIMELINE || other == SYSTEM_TIMELINE) {
                return timeline == other;
            }
            Object clock = ((WeakReference<?>) timeline).get();
            return clock != null && clock.equals(other);
        }

        boolean useless() {
            return generator.get() == null && timeline instanceof WeakReference<?> w && w.get() == null;
        }
    }

    private static final List<Entry> ENTRIES = new ArrayList<>();

    private MachineIdRegistry() {
    }

    /** {@return {@link #SYSTEM_TIMELINE} for the system clock in any zone, ticking or not; else the clock} */
    static Object timeline(InstantSource clock) {
        if (clock.equals(InstantSource.system())) {
            return SYSTEM_TIMELINE;
        }
        return clock instanceof Clock c && SYSTEM_CLOCKS.contains(c.withZone(ZoneOffset.UTC)) ? SYSTEM_TIMELINE : clock;
    }

    /**
     * Registers {@code generator} as a user of its ID space and moves its sequence above the last
     * tick an earlier, collected generator on the same space and timeline used.
     *
     * @throws IllegalArgumentException naming the first live generator whose space overlaps
     */
    static synchronized void register(SnowflakeGenerator generator, TickSequence sequence, InstantSource clock) {
        Space space = Space.of(generator.layout(), generator.machineId());
        Object timeline = timeline(clock);
        ENTRIES.removeIf(Entry::useless);
        Entry blocking = firstLiveOverlap(space);
        // a generator that is no longer used may simply not have been collected yet: ask, a few times
        for (int i = 0; i < COLLECT_ATTEMPTS && blocking != null; i++) {
            System.gc();
            Thread.onSpinWait();
            blocking = firstLiveOverlap(space);
        }
        if (blocking != null) {
            throw new IllegalArgumentException("machine id " + space.machineId() + " in layout "
                    + space.layout() + " can make the same IDs as a live generator in this JVM, "
                    + blocking.description() + " (machine id " + blocking.space().machineId() + " in layout "
                    + blocking.space().layout() + "); two generators whose fixed machine ids and layouts can"
                    + " make one long repeat each other's IDs. Share that generator between threads, drop every"
                    + " reference to it first, or use a machine id that differs in the machine bits both layouts"
                    + " share");
        }
        for (Iterator<Entry> it = ENTRIES.iterator(); it.hasNext();) {
            Entry earlier = it.next();
            if (earlier.space().sameAs(space) && earlier.onTimeline(timeline)) {
                // the earlier generator is gone; its sequence is not: start above the last tick it used
                sequence.skipThrough(earlier.sequence().lastMillisCovered());
                it.remove(); // the new entry carries the mark on from here
            }
        }
        Object kept = timeline == SYSTEM_TIMELINE ? SYSTEM_TIMELINE : new WeakReference<>(clock);
        ENTRIES.add(new Entry(new WeakReference<>(generator), generator.toString(), space, kept, sequence));
    }

    private static Entry firstLiveOverlap(Space space) {
        for (Entry e : ENTRIES) {
            if (e.generator().get() != null && e.space().overlaps(space)) {
                return e;
            }
        }
        return null;
    }

    /** For tests: behave as if every generator on this layout's bits and machine id had been collected. */
    static synchronized void simulateCollected(SnowflakeLayout layout, long machineId) {
        Space space = Space.of(layout, machineId);
        for (Entry e : ENTRIES) {
            if (e.space().sameAs(space)) {
                e.generator().clear();
            }
        }
    }

    /** For tests: {@return whether a live generator is registered on this layout's bits and machine id} */
    static synchronized boolean isLive(SnowflakeLayout layout, long machineId) {
        Space space = Space.of(layout, machineId);
        return ENTRIES.stream().anyMatch(e -> e.space().sameAs(space) && e.generator().get() != null);
    }
}
