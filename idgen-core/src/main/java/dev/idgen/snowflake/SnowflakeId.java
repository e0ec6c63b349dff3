package dev.idgen.snowflake;

import java.util.Objects;

/**
 * The fields of one Snowflake ID, as {@link SnowflakeLayout#decode(long)} reads them.
 *
 * @param id the ID itself
 * @param timestamp the start of the tick it was made in
 * @param machineId the machine id field
 * @param sequence the sequence field
 * @param layout the layout it was read with
 */
public record SnowflakeId(long id, java.time.Instant timestamp, long machineId, long sequence,
        SnowflakeLayout layout) {

    /** Bits of worker id in Twitter's (and Discord's) 10-bit machine field. */
    private static final int WORKER_BITS = 5;

    /**
     * @param id the ID itself
     * @param timestamp the start of the tick it was made in
     * @param machineId the machine id field
     * @param sequence the sequence field
     * @param layout the layout it was read with
     * @throws NullPointerException if {@code timestamp} or {@code layout} is null
     */
    public SnowflakeId {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(layout, "layout");
    }

    /**
     * The high 5 of Twitter's 10 machine bits: the datacenter (Discord's internal worker id).
     *
     * @return the datacenter id, 0 to 31
     * @throws IllegalStateException if the layout's machine field is not 10 bits
     */
    public long datacenterId() {
        requireTwitterSplit();
        return machineId >>> WORKER_BITS;
    }

    /**
     * The low 5 of Twitter's 10 machine bits: the worker (Discord's internal process id).
     *
     * @return the worker id, 0 to 31
     * @throws IllegalStateException if the layout's machine field is not 10 bits
     */
    public long workerId() {
        requireTwitterSplit();
        return machineId & ((1L << WORKER_BITS) - 1);
    }

    private void requireTwitterSplit() {
        if (layout.machineBits() != 2 * WORKER_BITS) {
            throw new IllegalStateException("layout " + layout.name() + " has " + layout.machineBits()
                    + " machine bits; the datacenter/worker split needs 10");
        }
    }

    /**
     * The machine field for people: the number, and for a 10-bit field its two 5-bit halves under the
     * names the layout's authors use (Twitter: datacenter and worker; Discord: internal worker and
     * internal process).
     *
     * @return e.g. {@code 32 (worker 1, process 0)} for Discord, {@code 42} for a 13-bit shard
     */
    public String machineDescription() {
        if (layout.machineBits() != 2 * WORKER_BITS) {
            return Long.toString(machineId);
        }
        boolean discord = layout.equals(SnowflakeLayout.DISCORD);
        return machineId + " (" + (discord ? "worker " : "datacenter ") + datacenterId()
                + (discord ? ", process " : ", worker ") + workerId() + ")";
    }

    @Override
    public String toString() {
        return "SnowflakeId[" + Long.toUnsignedString(id) + " layout=" + layout.name()
                + " timestamp=" + timestamp + " machine=" + machineDescription() + " sequence=" + sequence + "]";
    }
}
