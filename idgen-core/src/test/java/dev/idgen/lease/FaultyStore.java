package dev.idgen.lease;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import java.io.IOException;
import java.util.SortedMap;

/**
 * One process's way to an {@link InMemoryLeaseStore}, with the faults a network gives: cut off
 * (every call fails), a write that lands but whose answer is lost, a write that is lost, and a
 * clock read that answers another time (a store whose clock is elsewhere, or a restart).
 */
final class FaultyStore implements LeaseStore {

    private final InMemoryLeaseStore store;
    volatile boolean cut;
    /** The next replace lands, then its answer is lost. */
    volatile boolean loseNextAnswer;
    /** The next replace is lost on the way (it does not land) and fails. */
    volatile boolean loseNextWrite;
    /** How far the store's clock reads from the local clock. */
    volatile long clockOffset;
    /** The store's last start, in its clock, or Long.MIN_VALUE when it keeps what it acknowledged. */
    volatile long restartedAt = Long.MIN_VALUE;
    /** How many replaces reached the store. */
    volatile int replaces;
    /** The replace with this number (1, 2, ...) lands, and its answer is lost. */
    volatile int loseAnswerNumber = -1;
    /** The replace with this number (1, 2, ...) is lost on the way. */
    volatile int loseWriteNumber = -1;

    FaultyStore(InMemoryLeaseStore store) {
        this.store = store;
    }

    private void reach() throws IOException {
        if (cut) {
            throw new IOException("cut off");
        }
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public StoreTime time() throws IOException {
        reach();
        StoreTime t = store.time();
        return new StoreTime(t.storeMillis() + clockOffset, t.localBeforeMillis(), t.localAfterMillis(), restartedAt,
                true);
    }

    @Override
    public NamespaceRecord readNamespace() throws IOException {
        reach();
        return store.readNamespace();
    }

    @Override
    public boolean createNamespace(NamespaceRecord namespace) throws IOException {
        reach();
        return store.createNamespace(namespace);
    }

    @Override
    public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws IOException {
        reach();
        return store.extend(expectedNonce, next, fromId, toId, initial);
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws IOException {
        reach();
        return store.read(fromId, toId);
    }

    @Override
    public boolean replace(long id, long expectedNonce, LeaseRecord next) throws IOException {
        reach();
        if (loseNextWrite || replaces + 1 == loseWriteNumber) {
            loseNextWrite = false;
            loseWriteNumber = -1;
            throw new IOException("the write was lost on the way");
        }
        replaces++;
        boolean done = store.replace(id, expectedNonce, next);
        if (loseNextAnswer || replaces == loseAnswerNumber) {
            loseNextAnswer = false;
            loseAnswerNumber = -1;
            throw new IOException("the answer was lost on the way back");
        }
        return done;
    }
}
