package dev.idgen.lease.spi;

import java.util.SortedMap;

/**
 * A place that keeps machine-id lease records: a database table, a Redis key prefix, a ZooKeeper
 * path, an etcd prefix. It only keeps and compares records; the life of a lease (claiming, fencing,
 * renewing, re-claiming, restores, readiness) is core's, written once for every store.
 *
 * <p><b>Each method is one atomic operation on the store</b> (one SQL statement or transaction, one
 * Lua script, one etcd transaction, one ZooKeeper write or multi-op), so two processes calling at once
 * are ordered by the store. A method that throws may or may not have taken effect: the life treats
 * the outcome as unknown and looks again. Records carry no time to live: the store must not drop
 * them by itself (a store that may, an evicting Redis, says so at build time). Implementations are
 * thread-safe.
 */
public interface LeaseStore {

    /**
     * {@return where the records live, for messages: {@code "in table idgen_machine_lease"},
     * {@code "under Redis key prefix idgen:"}}
     */
    String describe();

    /**
     * {@return whether the store shows a clock ({@link #time()} reads it); false for a store with none
     * (etcd), whose {@code time()} answers the local clock: each holder's clock is then assumed within
     * the skew bound of true time, and fences use twice the bound}
     */
    default boolean hasClock() {
        return true;
    }

    /**
     * Reads the store's clock.
     *
     * @return the reading, bracketed by the local clock
     * @throws Exception when the store does not answer
     */
    StoreTime time() throws Exception;

    /**
     * @return the namespace record, or {@code null} when there is none
     * @throws Exception when the store does not answer
     */
    NamespaceRecord readNamespace() throws Exception;

    /**
     * Writes the namespace record if there is none.
     *
     * @param namespace the record
     * @return whether it was written (false: another process wrote one first)
     * @throws Exception when the store does not answer
     */
    boolean createNamespace(NamespaceRecord namespace) throws Exception;

    /**
     * Where the namespace record still has nonce {@code expectedNonce}: replaces it with
     * {@code next} and creates a record, {@code initial}, for every id from {@code fromId} to
     * {@code toId} that has none, leaving the others as they are; all or nothing. At most 64 ids.
     *
     * @param expectedNonce the namespace record's nonce as read
     * @param next the namespace record to write
     * @param fromId the first id, 0 or more
     * @param toId the last id, at most {@code fromId + 63}
     * @param initial the record for each id that has none
     * @return whether it was done (false: the namespace record changed, or is gone)
     * @throws Exception when the store does not answer
     */
    boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws Exception;

    /**
     * Reads the records of ids {@code fromId..toId} that exist, at most 1,024 ids.
     *
     * @param fromId the first id
     * @param toId the last id
     * @return the records by id
     * @throws Exception when the store does not answer
     */
    SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws Exception;

    /**
     * Replaces the record of {@code id} where it still has nonce {@code expectedNonce}.
     *
     * @param id the machine id
     * @param expectedNonce the nonce the record must have
     * @param next the record to write
     * @return whether it was replaced (false: the record changed since, or is gone)
     * @throws Exception when the store does not answer
     */
    boolean replace(long id, long expectedNonce, LeaseRecord next) throws Exception;
}
