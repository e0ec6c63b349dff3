package dev.idgen.testkit.check;

import dev.idgen.uuid.UuidInfo;
import dev.idgen.uuid.UuidVariant;
import dev.idgen.uuid.Uuids;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Checks on UUIDs that fail with an {@link AssertionError} saying which positions, which values
 * and how far apart. Order is RFC 9562's: unsigned, byte by byte ({@link Uuids#unsignedOrder()}),
 * not {@link UUID#compareTo}, which compares signed longs. Fields are read with core's decoder,
 * {@link Uuids#decode(UUID)}.
 */
public final class UuidChecks {

    private UuidChecks() {
    }

    /**
     * Every UUID appears once.
     *
     * @param uuids the UUIDs, in any order
     * @throws AssertionError naming the first UUID seen twice and both positions
     */
    public static void assertAllUnique(List<UUID> uuids) {
        Objects.requireNonNull(uuids, "uuids");
        Map<UUID, Integer> seen = new HashMap<>(uuids.size() * 2);
        for (int i = 0; i < uuids.size(); i++) {
            Integer before = seen.putIfAbsent(uuids.get(i), i);
            if (before != null) {
                throw new AssertionError("duplicate uuid " + uuids.get(i) + " at index " + before + " and index " + i
                        + " (of " + uuids.size() + " uuids)");
            }
        }
    }

    /**
     * Each UUID is greater than the one before it in unsigned order.
     *
     * @param uuids the UUIDs in the order they were made
     * @throws AssertionError naming the first pair out of order
     */
    public static void assertStrictlyIncreasing(List<UUID> uuids) {
        Objects.requireNonNull(uuids, "uuids");
        for (int i = 1; i < uuids.size(); i++) {
            if (Uuids.unsignedOrder().compare(uuids.get(i), uuids.get(i - 1)) <= 0) {
                throw new AssertionError("uuids not strictly increasing at index " + i + ": uuids[" + (i - 1) + "] = "
                        + uuids.get(i - 1) + ", uuids[" + i + "] = " + uuids.get(i) + " (" + (uuids.get(i)
                        .equals(uuids.get(i - 1)) ? "equal" : "smaller") + ", of " + uuids.size() + " uuids)");
            }
        }
    }

    /**
     * UUIDv7s listed in the order they were made are k-sorted by the Unix milliseconds in their
     * first 48 bits: none carries a time more than {@code k} earlier than one made before it.
     *
     * @param uuids version 7 UUIDs in the order they were made
     * @param k the disorder allowed, zero or more
     * @throws AssertionError naming the later UUID, the earlier one it falls behind, and by how much
     */
    public static void assertKSorted(List<UUID> uuids, Duration k) {
        Objects.requireNonNull(uuids, "uuids");
        long bound = IdChecks.requireBound(k);
        long latest = Long.MIN_VALUE;
        int latestAt = -1;
        for (int i = 0; i < uuids.size(); i++) {
            long t = unixMillisOf(uuids.get(i), i);
            if (latestAt >= 0 && latest - t > bound) {
                throw new AssertionError("uuids not " + bound + " ms-sorted: uuids[" + i + "] = " + uuids.get(i)
                        + " carries " + Instant.ofEpochMilli(t) + ", " + (latest - t) + " ms before uuids["
                        + latestAt + "] = " + uuids.get(latestAt) + " made earlier at " + Instant.ofEpochMilli(latest)
                        + " (allowed " + bound + " ms)");
            }
            if (t > latest) {
                latest = t;
                latestAt = i;
            }
        }
    }

    /**
     * Every UUID is an RFC 9562 version 7 (variant {@code 10}) whose embedded time lies within
     * {@code [from, to]} (compared in whole milliseconds).
     *
     * @param uuids the UUIDs
     * @param from the earliest time allowed
     * @param to the latest time allowed
     * @throws AssertionError naming the first UUID that is not, and what is wrong
     */
    public static void assertV7Fields(List<UUID> uuids, Instant from, Instant to) {
        long lo = from.toEpochMilli();
        long hi = to.toEpochMilli();
        for (int i = 0; i < uuids.size(); i++) {
            UUID u = uuids.get(i);
            long t = unixMillisOf(u, i);
            if (t < lo || t > hi) {
                throw new AssertionError("uuids[" + i + "] = " + u + " carries " + Instant.ofEpochMilli(t)
                        + ", outside " + from + " .. " + to);
            }
        }
    }

    /**
     * Every UUID is an RFC 9562 version 4 (variant {@code 10}).
     *
     * @param uuids the UUIDs
     * @throws AssertionError naming the first UUID that is not
     */
    public static void assertV4Fields(List<UUID> uuids) {
        Objects.requireNonNull(uuids, "uuids");
        for (int i = 0; i < uuids.size(); i++) {
            requireVersion(uuids.get(i), i, 4);
        }
    }

    /** The {@code unix_ts_ms} of a UUIDv7 (RFC 9562 section 5.7), as core's decoder reads it. */
    private static long unixMillisOf(UUID uuid, int index) {
        return requireVersion(uuid, index, 7).time().orElseThrow().toEpochMilli();
    }

    private static UuidInfo requireVersion(UUID u, int index, int version) {
        UuidInfo info = Uuids.decode(u);
        if (info.version() != version || info.variant() != UuidVariant.RFC_9562) {
            throw new AssertionError("uuids[" + index + "] = " + u + " is version " + info.version() + " variant "
                    + info.variant() + "; expected version " + version + " variant " + UuidVariant.RFC_9562);
        }
        return info;
    }
}
