package dev.idgen.testkit.lease;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.spi.LeaseStore;

/**
 * A lease store under test, as {@link LeaseScenarios} needs it: fresh namespaces on the real
 * engine, connections that a partition can cut, and the ways a real store forgets. A store module's
 * test implements it with its own engine.
 */
public interface LeaseBackend {

    /**
     * {@return a namespace no one used (its own table, key prefix or path), initialised as new: the
     * first claim in it does not wait}
     *
     * @param scenario the scenario's name, for the namespace's name and messages
     */
    Namespace namespace(String scenario);

    /** One namespace of machine ids on the store, for one scenario. */
    interface Namespace extends AutoCloseable {

        /**
         * {@return a connection of its own, as a separate process would have}
         *
         * @param name for messages and the owner of its leases
         */
        Connection connect(String name);

        /**
         * The store loses the record of one machine id, as a cleanup job, an eviction or an old
         * dump restored over it would.
         *
         * @param machineId the id
         */
        void forgetRecord(long machineId);

        /**
         * The store loses every record of the namespace, its namespace record included, as a
         * TRUNCATE, a FLUSHDB or a deleted prefix would.
         */
        void forgetAll();

        /**
         * The store stops and starts again empty (a Redis without persistence, a wiped member),
         * where the backend runs a server of its own; else as {@link #forgetAll()}.
         */
        default void restartEmpty() {
            forgetAll();
        }

        /** Frees the namespace (drops the table, deletes the keys) and whatever is still connected. */
        @Override
        void close();
    }

    /** One process's way to the store. */
    interface Connection extends AutoCloseable {

        /**
         * {@return a lease builder on this connection and the namespace, with the backend's short
         * test timings (a ttl of a few seconds) and no background thread unless the scenario turns
         * it on; the scenario sets the rest}
         */
        LeaseBuilder<?, ?> builder();

        /** {@return the store over this connection, for a copy of a process image} */
        LeaseStore store();

        /**
         * Cuts this connection off as a network partition would: nothing it sends arrives, no answer
         * comes, nothing fails at once. Never reconnected.
         */
        void cutOff();

        /** Closes the connection (leases on it are not released first). */
        @Override
        void close();
    }
}
