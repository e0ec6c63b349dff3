package dev.idgen.testkit.check;

import dev.idgen.snowflake.SnowflakeId;
import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * Checks on {@code long} IDs (Snowflake and any other 64-bit scheme) that fail with an
 * {@link AssertionError} saying which positions, which values and how far apart. They need no test
 * framework: any runner reports an {@code AssertionError} as a failed test.
 *
 * <p>Arrays are read, never changed. IDs are printed unsigned, as Discord's are.
 */
public final class IdChecks {

    private IdChecks() {
    }

    /**
     * Every ID appears once.
     *
     * @param ids the IDs, in any order
     * @throws AssertionError naming the first value that appears twice and both positions
     */
    public static void assertAllUnique(long[] ids) {
        Objects.requireNonNull(ids, "ids");
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                long value = sorted[i];
                int first = indexOf(ids, value, 0);
                int second = indexOf(ids, value, first + 1);
                throw new AssertionError("duplicate id " + Long.toUnsignedString(value) + " at index " + first
                        + " and index " + second + " (of " + ids.length + " ids)");
            }
        }
    }

    /**
     * Every ID appears once across all the arrays (one per thread, generator or run).
     *
     * @param idsByGroup the IDs, one array per group
     * @throws AssertionError naming the first value that appears twice, as {@code group[index]}
     */
    public static void assertAllUnique(long[][] idsByGroup) {
        Objects.requireNonNull(idsByGroup, "idsByGroup");
        long total = 0;
        for (long[] group : idsByGroup) {
            total += group.length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(total + " ids are more than one array can check");
        }
        long[] all = new long[(int) total];
        int at = 0;
        for (long[] group : idsByGroup) {
            System.arraycopy(group, 0, all, at, group.length);
            at += group.length;
        }
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                throw new AssertionError("duplicate id " + Long.toUnsignedString(all[i]) + " at "
                        + where(idsByGroup, all[i], 2) + " (of " + all.length + " ids in " + idsByGroup.length
                        + " groups)");
            }
        }
    }

    /**
     * Each ID is greater than the one before it (signed order, which is the order of non-negative
     * Snowflake IDs).
     *
     * @param ids the IDs in the order they were made
     * @throws AssertionError naming the first pair out of order and their difference
     */
    public static void assertStrictlyIncreasing(long[] ids) {
        Objects.requireNonNull(ids, "ids");
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] <= ids[i - 1]) {
                throw new AssertionError("ids not strictly increasing at index " + i + ": ids[" + (i - 1) + "] = "
                        + ids[i - 1] + ", ids[" + i + "] = " + ids[i] + " (difference " + (ids[i] - ids[i - 1])
                        + ", of " + ids.length + " ids)");
            }
        }
    }

    /**
     * IDs listed in the order they were made (for example merged from several generators whose
     * clocks disagree) are k-sorted: no ID carries a time more than {@code k} earlier than an ID made
     * before it.
     *
     * @param ids the IDs in the order they were made
     * @param epochMillisOf the time an ID carries, in Unix milliseconds
     * @param k the disorder allowed, zero or more
     * @throws AssertionError naming the later ID, the earlier one it falls behind, and by how much
     */
    public static void assertKSorted(long[] ids, LongUnaryOperator epochMillisOf, Duration k) {
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(epochMillisOf, "epochMillisOf");
        long bound = requireBound(k);
        long latest = Long.MIN_VALUE;
        int latestAt = -1;
        for (int i = 0; i < ids.length; i++) {
            long t = epochMillisOf.applyAsLong(ids[i]);
            if (latestAt >= 0 && latest - t > bound) {
                throw new AssertionError("ids not " + bound + " ms-sorted: ids[" + i + "] = "
                        + Long.toUnsignedString(ids[i]) + " carries " + Instant.ofEpochMilli(t) + ", "
                        + (latest - t) + " ms before ids[" + latestAt + "] = " + Long.toUnsignedString(ids[latestAt])
                        + " made earlier at " + Instant.ofEpochMilli(latest) + " (allowed " + bound + " ms)");
            }
            if (t > latest) {
                latest = t;
                latestAt = i;
            }
        }
    }

    /**
     * Snowflake IDs listed in the order they were made are k-sorted by the time the layout decodes.
     *
     * @param ids the IDs in the order they were made
     * @param layout their layout
     * @param k the disorder allowed, zero or more
     * @throws AssertionError as {@link #assertKSorted(long[], LongUnaryOperator, Duration)}
     */
    public static void assertKSorted(long[] ids, SnowflakeLayout layout, Duration k) {
        Objects.requireNonNull(layout, "layout");
        assertKSorted(ids, id -> layout.decode(id).timestamp().toEpochMilli(), k);
    }

    /**
     * Every Snowflake ID decodes, in its layout, to a time within {@code [from, to]}, a machine id
     * within {@code [minMachine, maxMachine]}, and is not negative.
     *
     * @param ids the IDs
     * @param layout their layout
     * @param from the earliest time allowed (compared at the layout's tick: an ID carries the start
     *     of its tick)
     * @param to the latest time allowed
     * @param minMachine the lowest machine id allowed
     * @param maxMachine the highest machine id allowed
     * @throws AssertionError naming the first ID outside, its decoded fields and the range it missed
     */
    public static void assertSnowflakeFields(long[] ids, SnowflakeLayout layout, Instant from, Instant to,
            long minMachine, long maxMachine) {
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(layout, "layout");
        Instant fromTick = Instant.ofEpochMilli(Math.floorDiv(from.toEpochMilli() - layout.epoch().toEpochMilli(),
                layout.tickMillis()) * layout.tickMillis() + layout.epoch().toEpochMilli());
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0) {
                throw new AssertionError("ids[" + i + "] = " + ids[i] + " is negative; layout " + layout.name()
                        + " keeps the sign bit 0");
            }
            SnowflakeId id = layout.decode(ids[i]);
            if (id.timestamp().isBefore(fromTick) || id.timestamp().isAfter(to)) {
                throw new AssertionError("ids[" + i + "] = " + id + ": timestamp " + id.timestamp()
                        + " outside " + from + " .. " + to);
            }
            if (id.machineId() < minMachine || id.machineId() > maxMachine) {
                throw new AssertionError("ids[" + i + "] = " + id + ": machine id " + id.machineId()
                        + " outside " + minMachine + " .. " + maxMachine);
            }
        }
    }

    static long requireBound(Duration k) {
        Objects.requireNonNull(k, "k");
        if (k.isNegative()) {
            throw new IllegalArgumentException("k-sorted bound " + k + " is negative; allowed zero or more");
        }
        return k.toMillis();
    }

    private static int indexOf(long[] ids, long value, int from) {
        for (int i = from; i < ids.length; i++) {
            if (ids[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The first {@code limit} places of {@code value}, as {@code group[index]}. */
    private static String where(long[][] groups, long value, int limit) {
        StringBuilder out = new StringBuilder();
        int found = 0;
        for (int g = 0; g < groups.length && found < limit; g++) {
            for (int i = 0; i < groups[g].length && found < limit; i++) {
                if (groups[g][i] == value) {
                    out.append(found == 0 ? "" : " and ").append("group ").append(g).append(" index ").append(i);
                    found++;
                }
            }
        }
        return out.toString();
    }
}
