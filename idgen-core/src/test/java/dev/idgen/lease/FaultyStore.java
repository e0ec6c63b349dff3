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
    /** How much later than it was asked the store's clock answers, in the local clock: a slow round trip. */
    volatile long roundTripMillis;
    /** The store's last start, in its clock, or Long.MIN_VALUE when it keeps what it acknowledged. */
    volatile long restartedAt = Long.MIN_VALUE;
    /** While set, time() tells this latch it was entered, then waits for the second one (a store that hangs). */
    volatile java.util.concurrent.CountDownLatch[] hangTime;
    /** How many reads of records reached the store. */
    volatile int reads;
    /** How many replaces reached the store. */
    volatile int replaces;
    /** The replace with this number (1, 2, ...) lands, and its answer is lost. */
    volatile int loseAnswerNumber = -1;
    /** The replace with this number (1, 2, ...) is lost on the way. */
    volatile int loseWriteNumber = -1;
    /**
     * How many of the next claims (writes that raise a record's token) lose the race: a rival
     * claims the id first and gives it back at once, so the record is free again, under a new nonce.
     */
    volatile int claimsToLose;
    /** Run when a claim loses the race (before it returns), as the time the round trip took. */
    volatile Runnable onLostClaim;
    /** Run inside each replace that reaches the store, before it writes: what another caller does meanwhile. */
    volatile Runnable duringReplace;
    /** Run after each read of records that reaches the store, before it answers: what happens next on the way. */
    volatile Runnable afterRead;
    /** Run after each extend that reaches the store: what another process does meanwhile. */
    volatile Runnable afterExtend;
    /** The ids each claim tried, in order, won or lost. */
    final java.util.List<Long> claimsTried = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The thread of the last replace. */
    volatile Thread lastWriter;
    /** Every record a replace that reached the store carried, in order, landed or not. */
    final java.util.List<LeaseRecord> writes = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Counted down after each replace that reached the store: a test waits on it for a lease's own thread. */
    volatile java.util.concurrent.CountDownLatch replaced;

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
        java.util.concurrent.CountDownLatch[] hang = hangTime;
        if (hang != null) {
            hang[0].countDown();
            try {
                hang[1].await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        StoreTime t = store.time();
        return new StoreTime(t.storeMillis() + clockOffset, t.localBeforeMillis(),
                t.localAfterMillis() + roundTripMillis, restartedAt, true);
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
        if (toId - fromId + 1 > 64) {
            throw new IllegalArgumentException("extend of ids " + fromId + ".." + toId + ": the SPI allows 64 at most");
        }
        boolean done = store.extend(expectedNonce, next, fromId, toId, initial);
        Runnable after = afterExtend;
        if (after != null) {
            after.run();
        }
        return done;
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws IOException {
        reach();
        if (toId - fromId + 1 > 1024) {
            throw new IllegalArgumentException("read of ids " + fromId + ".." + toId + ": the SPI allows 1024 at most");
        }
        reads++;
        SortedMap<Long, LeaseRecord> found = store.read(fromId, toId);
        Runnable after = afterRead;
        if (after != null) {
            after.run();
        }
        return found;
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
        lastWriter = Thread.currentThread();
        writes.add(next);
        try {
            return replaceReached(id, expectedNonce, next);
        } finally {
            java.util.concurrent.CountDownLatch latch = replaced;
            if (latch != null) {
                latch.countDown();
            }
        }
    }

    private boolean replaceReached(long id, long expectedNonce, LeaseRecord next) throws IOException {
        LeaseRecord before = store.read(id, id).get(id);
        if (before != null && next.token() > before.token()) {
            claimsTried.add(id);
            if (claimsToLose > 0 && before.nonce() == expectedNonce) {
                claimsToLose--;
                long now = store.time().storeMillis();
                store.replace(id, expectedNonce, new LeaseRecord("rival", next.token(), before.nonce() + 1, now - 1,
                        before.markMillis(), 0));
                Runnable lost = onLostClaim;
                if (lost != null) {
                    lost.run();
                }
                return false;
            }
        }
        Runnable during = duringReplace;
        if (during != null) {
            during.run();
        }
        boolean done = store.replace(id, expectedNonce, next);
        if (loseNextAnswer || replaces == loseAnswerNumber) {
            loseNextAnswer = false;
            loseAnswerNumber = -1;
            throw new IOException("the answer was lost on the way back");
        }
        return done;
    }
}
