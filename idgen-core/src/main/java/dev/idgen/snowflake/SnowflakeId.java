package dev.idgen.snowflake;

import java.util.List;
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
     * One named part of the machine field, as the layout names them ({@link SnowflakeLayout#machineParts()}).
     *
     * @param name a part name of the layout, such as {@code "datacenter"} or {@code "shard"}
     * @return its value
     * @throws IllegalArgumentException if the layout has no part of that name; the message lists the parts
     */
    public long machinePart(String name) {
        List<SnowflakeLayout.Part> parts = layout.machineParts();
        int below = layout.machineBits();
        for (SnowflakeLayout.Part part : parts) {
            below -= part.bits();
            if (part.name().equals(name)) {
                return machineId >>> below & ((1L << part.bits()) - 1);
            }
        }
        throw new IllegalArgumentException("layout " + layout.name() + " has no machine part named '" + name
                + "'; its parts: " + parts.stream().map(SnowflakeLayout.Part::name).toList());
    }

    /**
     * The machine field for people: the number, and when the layout splits it, each part under its
     * name (Twitter: datacenter and worker; Discord: worker and process).
     *
     * @return e.g. {@code 32 (worker 1, process 0)} for Discord, {@code 42} for Instagram's shard
     */
    public String machineDescription() {
        List<SnowflakeLayout.Part> parts = layout.machineParts();
        if (parts.size() < 2) {
            return Long.toString(machineId);
        }
        StringBuilder out = new StringBuilder().append(machineId).append(" (");
        for (int i = 0; i < parts.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(parts.get(i).name()).append(' ')
                    .append(machinePart(parts.get(i).name()));
        }
        return out.append(')').toString();
    }

    @Override
    public String toString() {
        return "SnowflakeId[" + Long.toUnsignedString(id) + " layout=" + layout.name()
                + " timestamp=" + timestamp + " machine=" + machineDescription() + " " + layout.sequenceName() + "=" + sequence + "]";
    }
}
