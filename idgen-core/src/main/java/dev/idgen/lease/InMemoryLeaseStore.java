package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import java.time.InstantSource;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@link LeaseStore} in this process's memory, with a clock of its own: for tests of leases and of
 * what uses them, and for processes that share one JVM. It is born with its namespace record (it
 * is new, and can show it); {@link #forget(long)} and {@link #forgetAll()} make it lose records as a
 * real store can. Thread-safe.
 */
public final class InMemoryLeaseStore implements LeaseStore {

    private final InstantSource clock;
    private final String name;
    private final TreeMap<Long, LeaseRecord> records = new TreeMap<>();
    private NamespaceRecord namespace;

    /**
     * @param clock the store's clock
     */
    public InMemoryLeaseStore(InstantSource clock) {
        this(clock, "in memory");
    }

    /**
     * @param clock the store's clock
     * @param name for messages, e.g. {@code "in memory store A"}
     */
    public InMemoryLeaseStore(InstantSource clock, String name) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.name = Objects.requireNonNull(name, "name");
        this.namespace = new NamespaceRecord("", -1, 1, Long.MIN_VALUE);
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public StoreTime time() {
        long now = clock.millis();
        return StoreTime.of(now, now, now);
    }

    @Override
    public synchronized NamespaceRecord readNamespace() {
        return namespace;
    }

    @Override
    public synchronized boolean createNamespace(NamespaceRecord ns) {
        if (namespace != null) {
            return false;
        }
        namespace = Objects.requireNonNull(ns, "ns");
        return true;
    }

    @Override
    public synchronized boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId,
            LeaseRecord initial) {
        if (namespace == null || namespace.nonce() != expectedNonce) {
            return false;
        }
        namespace = next;
        for (long id = fromId; id <= toId; id++) {
            records.putIfAbsent(id, initial);
        }
        return true;
    }

    @Override
    public synchronized SortedMap<Long, LeaseRecord> read(long fromId, long toId) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(records.subMap(fromId, true, toId, true)));
    }

    @Override
    public synchronized boolean replace(long id, long expectedNonce, LeaseRecord next) {
        LeaseRecord r = records.get(id);
        if (r == null || r.nonce() != expectedNonce) {
            return false;
        }
        records.put(id, Objects.requireNonNull(next, "next"));
        return true;
    }

    /**
     * Loses the record of one id, as a cleanup job or an eviction would.
     *
     * @param id the machine id
     */
    public synchronized void forget(long id) {
        records.remove(id);
    }

    /** Loses everything, the namespace record included, as a flush or a restart without persistence would. */
    public synchronized void forgetAll() {
        records.clear();
        namespace = null;
    }

    /** {@return a copy of the records, by machine id} */
    public synchronized Map<Long, LeaseRecord> records() {
        return new TreeMap<>(records);
    }
}
