package dev.idgen.snowflake;

import dev.idgen.sequence.TickSequence;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * Which (layout, fixed machine id) pairs a live generator on the system clock uses in this JVM. Two
 * such generators would make the same IDs, so {@link SnowflakeGenerator.Builder#build()} refuses the
 * second while the first is reachable; once the first is gone, the next one starts above the last
 * tick the first used (the entry keeps the first's sequence strongly, the generator only weakly).
 * Used only at build, never on the hot path.
 *
 * <p>Generators on an injected clock are not registered: their time is the test's, not the
 * world's, and a test builds many generators on one id on purpose. Leases that can be lost
 * ({@code FencingLease}) fence themselves and are not registered either.
 */
final class MachineIdRegistry {

    /** How many times a build that meets a registered generator asks the JVM to collect it. */
    static final int COLLECT_ATTEMPTS = 5;

    /**
     * The ID space a generator uses: its layout in the time-first order, so one layout's fields in
     * two {@link SnowflakeLayout.FieldOrder orders} count as one space (their IDs overlap).
     */
    private record Key(SnowflakeLayout layout, long machineId) {
        static Key of(SnowflakeLayout layout, long machineId) {
            return new Key(layout.withFieldOrder(SnowflakeLayout.FieldOrder.TIME_MACHINE_SEQUENCE), machineId);
        }
    }

    /** A live (or collected) generator and the sequence it left. */
    private record Entry(WeakReference<SnowflakeGenerator> generator, String description, TickSequence sequence) {
    }

    private static final Map<Key, Entry> ENTRIES = new HashMap<>();

    private MachineIdRegistry() {
    }

    /** {@return whether generators on {@code clock} are registered: the system clock, in any zone} */
    static boolean covers(InstantSource clock) {
        return clock.equals(InstantSource.system()) || clock instanceof Clock c && c.equals(Clock.system(c.getZone()));
    }

    /**
     * Registers {@code generator} as the user of its (layout, machine id) and moves its sequence
     * above the last tick an earlier, collected generator on the same pair used.
     *
     * @throws IllegalArgumentException naming the first generator if it is still reachable
     */
    static synchronized void register(SnowflakeGenerator generator, TickSequence sequence) {
        Key key = Key.of(generator.layout(), generator.machineId());
        Entry earlier = ENTRIES.get(key);
        if (earlier != null) {
            // a generator that is no longer used may simply not have been collected yet: ask, a few times
            for (int i = 0; i < COLLECT_ATTEMPTS && earlier.generator().get() != null; i++) {
                System.gc();
                Thread.onSpinWait();
            }
            if (earlier.generator().get() != null) {
                throw new IllegalArgumentException("machine id " + key.machineId() + " in layout "
                        + key.layout().name() + " is already used by a live generator in this JVM, "
                        + earlier.description() + "; two generators with one machine id and layout make the"
                        + " same IDs. Share that generator between threads, or drop every reference to it first");
            }
            // the earlier generator is gone; its sequence is not: start above the last tick it used
            sequence.skipThrough(earlier.sequence().lastMillisCovered());
        }
        ENTRIES.put(key, new Entry(new WeakReference<>(generator), generator.toString(), sequence));
    }

    /** For tests: behave as if the generator on this pair had been collected. */
    static synchronized void simulateCollected(SnowflakeLayout layout, long machineId) {
        Entry e = ENTRIES.get(Key.of(layout, machineId));
        if (e != null) {
            e.generator().clear();
        }
    }

    /** For tests: {@return whether a generator on this pair is registered and still reachable} */
    static synchronized boolean isLive(SnowflakeLayout layout, long machineId) {
        Entry e = ENTRIES.get(Key.of(layout, machineId));
        return e != null && e.generator().get() != null;
    }
}
