package dev.idgen.machine.spi;

import dev.idgen.machine.MachineIdLease;

/**
 * What a {@link FencingLease} sees of the generator that makes IDs with its machine id: how far in
 * time its IDs have gone, a way to push that further, and the fence that bounds them.
 *
 * <p>All three methods are for the lease's own threads (claiming, renewal, release), off the ID hot
 * path. A generator hands the lease a private view implementing this interface at build time, so
 * none of it is on the generator's public face.
 */
public interface MachineIdUser {

    /**
     * The last Unix millisecond covered by any ID made so far: the last millisecond of the last
     * tick used. It never falls.
     *
     * @return Unix milliseconds, or {@link MachineIdLease#NO_MARK} before the first ID (and before
     *     any mark was raised)
     */
    long highWaterMark();

    /**
     * From now on, issue only IDs whose time is later than {@code unixMillis}. Does nothing when the
     * generator is already past it. A clock behind the new mark is then handled like a clock step
     * back, by the generator's clock-backwards policy.
     *
     * @param unixMillis the last Unix millisecond that must not be issued again;
     *     {@link MachineIdLease#NO_MARK} does nothing
     */
    void raiseHighWaterMark(long unixMillis);

    /**
     * Sets the fence: from now on the generator returns no ID whose tick reaches {@code unixMillis}.
     * The generator compares each ID's own time with the fence <em>after</em> it has taken the ID's
     * (tick, sequence) pair, so a call that was paused anywhere (a GC, a stopped process) is judged
     * by the time it actually stamps, and no thread has to run for the fence to hold. The fence may
     * move both ways: forward on each acknowledged renewal, to {@link Long#MIN_VALUE} when the lease
     * is lost or released.
     *
     * @param unixMillis the first Unix millisecond no ID may cover; {@link Long#MAX_VALUE} for no
     *     fence, {@link Long#MIN_VALUE} to refuse every ID
     */
    void fenceFrom(long unixMillis);

    /**
     * A new claim was made, of {@code machineId} (the same id as before or another): from now on the
     * generator stamps {@code machineId}, and it never stamps it on a (tick, sequence) pair taken
     * before this call, which may belong to the id's previous holder. Shuts the fence; the lease
     * opens it with {@link #fenceFrom(long)} once the claim is confirmed. The lease raises the
     * generator's mark to the id's recorded mark before it calls this.
     *
     * @param machineId the id now held
     * @throws IllegalArgumentException if the generator's layout has no room for {@code machineId}
     * @throws UnsupportedOperationException unless overridden: a generator that cannot change its
     *     machine id
     */
    default void switchTo(long machineId) {
        throw new UnsupportedOperationException("this generator cannot take machine id " + machineId
                + " after it was built; the lease must claim the same id again");
    }

    /**
     * How this generator cuts its IDs, for a lease to compare with the layout it claimed for: two
     * layouts on one machine-id namespace can make equal IDs from different ids.
     *
     * @return the layout's signature (for Snowflake, {@code SnowflakeLayout.signature()}), or
     *     {@code null} when the generator has none to compare
     */
    default String layoutSignature() {
        return null;
    }
}
