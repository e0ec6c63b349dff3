package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseStore;
import java.time.InstantSource;

/**
 * A lease's settings, checked by its builder and fixed for its life.
 *
 * @param store where the records live
 * @param timings the checked timings
 * @param clock the local clock: the generator's
 * @param owner the holder's name written in each claim
 * @param layout the layout signature recorded with the namespace
 * @param minId the lowest id to claim
 * @param maxId the highest id to claim
 * @param exactId the one id to claim, or -1 for any in {@code minId..maxId}
 * @param reclaimAnyId whether a lease whose id was taken claims any free id (else only its own)
 * @param background whether the lease renews on a thread of its own
 */
record LeaseConfig(LeaseStore store, LeaseTimings timings, InstantSource clock, String owner, String layout,
        long minId, long maxId, long exactId, boolean reclaimAnyId, boolean background) {

    /** {@return whether the lease may move to another id than its own} */
    boolean mayMove() {
        return exactId < 0 && reclaimAnyId;
    }
}
