package dev.idgen.testkit.lease;

import dev.idgen.machine.spi.FencingLease;
import java.time.InstantSource;

/**
 * What {@link LeaseScenarios} needs of a lease backend under test: claimers of one machine-id space
 * on one coordinator. A backend's test implements it with its own coordinator (a table, a ZooKeeper
 * path), fresh for each scenario.
 */
@FunctionalInterface
public interface LeaseBackend {

    /**
     * A new claimer, as a separate process would be: its own owner name and its own connection to
     * the coordinator, which {@link Claimer#cutOff()} can cut.
     *
     * @param name for messages
     * @param clock the claimer's wall clock: its leases compare it with the coordinator's and its
     *     generators stamp IDs with it
     * @return the claimer
     */
    Claimer claimer(String name, InstantSource clock);

    /** One would-be holder of a machine id. */
    interface Claimer extends AutoCloseable {

        /**
         * Claims a free machine id, renewing it in the background as in production.
         *
         * @return the lease, held; or {@code null} while every id is held by a live lease
         */
        FencingLease tryAcquire();

        /** Releases the lease {@link #tryAcquire()} returned last, recording its mark. */
        void release();

        /**
         * Cuts this claimer off from the coordinator, as a network partition would: from now on it
         * can neither renew nor release. It is never reconnected.
         */
        void cutOff();

        /** Releases what is still held (when connected) and frees the claimer's resources. */
        @Override
        void close();
    }
}
