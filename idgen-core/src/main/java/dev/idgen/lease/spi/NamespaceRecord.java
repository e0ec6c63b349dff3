package dev.idgen.lease.spi;

import java.util.Objects;

/**
 * What a store keeps once for a whole namespace of machine ids (a table, a key prefix, a path): how
 * the 64 bits of an ID are cut, how far its id records reach, and from when they can be believed.
 *
 * <p>It never expires and only the lease life writes it. A namespace whose record is missing is
 * either new or was emptied (a flush, a truncate, a restart without persistence): the two look the
 * same, so the life treats both as emptied and lets no claim open before every holder from before
 * could have stopped ({@link #trustedFromMillis()}).
 *
 * @param layout the signature of the Snowflake layout every holder of the namespace uses
 *     ({@code SnowflakeLayout.signature()}): a holder with another one is refused
 * @param highestId every machine id from 0 to this one has a record; -1 for none yet. A record
 *     missing below it was lost by the store
 * @param nonce a random number replaced by every write, compared by {@link LeaseStore#extend}
 * @param trustedFromMillis store time before which a record created now could still have an
 *     earlier, forgotten holder: records created for the namespace are free only from then on
 */
public record NamespaceRecord(String layout, long highestId, long nonce, long trustedFromMillis) {

    /**
     * Checks the record.
     *
     * @param layout the layout signature, {@code ""} before the first holder names it
     * @param highestId the highest id with a record, -1 for none
     * @param nonce the version {@link LeaseStore#extend} compares
     * @param trustedFromMillis store time from which created records are free
     * @throws NullPointerException if {@code layout} is null
     * @throws IllegalArgumentException if {@code highestId} is below -1
     */
    public NamespaceRecord {
        Objects.requireNonNull(layout, "layout");
        if (highestId < -1) {
            throw new IllegalArgumentException("highest id " + highestId + " is below -1 (none)");
        }
    }
}
