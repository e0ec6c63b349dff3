package dev.idgen.lease.spi;

import java.util.Objects;

/**
 * What a store keeps for one machine id: who holds it, until when, and how far any holder's IDs
 * went. The store keeps it as it is written and gives it back unchanged; every rule about what the
 * fields mean lives in the lease life in core, none in a store.
 *
 * @param owner the holder's name, for people reading the store ({@code ""} while no one ever held it)
 * @param token how many claims the id has seen; each claim writes the last one plus one
 * @param nonce a random number replaced by every write: the version a conditional write compares, so
 *     of two copies of one process image only the first to write keeps the record
 * @param expiresMillis when the claim ends, in the store's time (Unix ms); a claim is free at any
 *     store time after it. {@link Long#MIN_VALUE} for an id no one ever claimed
 * @param markMillis the last Unix millisecond any holder's IDs may carry, as recorded;
 *     {@link Long#MIN_VALUE} when nothing was recorded
 * @param fenceOffsetMillis how far before {@code expiresMillis} the writer's fence stood (its skew
 *     bound and margin): the next holder starts at or above {@code expiresMillis - fenceOffsetMillis}
 */
public record LeaseRecord(String owner, long token, long nonce, long expiresMillis, long markMillis,
        long fenceOffsetMillis) {

    /** The {@link #expiresMillis()} and {@link #markMillis()} of an id no one ever claimed. */
    public static final long NEVER = Long.MIN_VALUE;

    /**
     * Checks the record.
     *
     * @param owner the holder's name
     * @param token the claims the id has seen
     * @param nonce the version a conditional write compares
     * @param expiresMillis when the claim ends, store time
     * @param markMillis the recorded high-water mark
     * @param fenceOffsetMillis the writer's fence offset, 0 or more
     * @throws NullPointerException if {@code owner} is null
     * @throws IllegalArgumentException if {@code fenceOffsetMillis} is negative
     */
    public LeaseRecord {
        Objects.requireNonNull(owner, "owner");
        if (fenceOffsetMillis < 0) {
            throw new IllegalArgumentException("fence offset " + fenceOffsetMillis + " ms is negative; 0 or more");
        }
    }

    /**
     * A record no one holds: free from {@code expiresMillis} on, for the next claimer to start at or
     * above {@code expiresMillis}.
     *
     * @param nonce the record's first nonce
     * @param expiresMillis store time from which it is free; {@link #NEVER} for at once
     * @return the record
     */
    public static LeaseRecord unclaimed(long nonce, long expiresMillis) {
        return new LeaseRecord("", 0, nonce, expiresMillis, NEVER, 0);
    }
}
