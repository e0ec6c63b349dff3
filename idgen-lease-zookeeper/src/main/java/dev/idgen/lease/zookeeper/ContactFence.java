package dev.idgen.lease.zookeeper;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Turns the acknowledged writes ("contacts") of one ZooKeeper session into the fence: the first
 * Unix millisecond no ID of this holder may carry. Pure arithmetic on the numbers each contact
 * returns; the lease calls it, tests drive it with plain numbers. Thread-safe.
 *
 * <p><b>One contact.</b> A write sent at local monotonic time {@code sent}, acknowledged at
 * {@code acked}, came back with the znode's {@code mtime}: the leader's wall clock when it ordered
 * the write, which it does only while the session is alive. The leader heard from the session no
 * earlier than {@code mtime - rtt} on its clock, so it cannot expire the session, and delete its
 * ephemeral node, before {@code mtime - rtt + sessionTimeout}; less the margin (the leader's clock
 * rate over one session, the spread between the servers' clocks), that is the contact's
 * <em>expiry bound</em> in ZooKeeper's time. The fence is the bound minus the skew bound, and the
 * next holder starts above its claim's {@code mtime} minus the same skew bound, so no clock of
 * either holder enters the argument (docs/lease-safety-zookeeper.md).
 *
 * <p><b>Two contacts.</b> A server that is a follower records the contact in a touch table and
 * tells the leader at the leader's next ping, up to {@code tickTime / 2} later (plus the margin);
 * only the leader expires sessions. A session silent for almost its timeout can therefore expire
 * just after the leader ordered the write. So a contact's bound counts only once a later write of
 * the same session, sent at least {@link #lagMillis(long)} after the first was acknowledged, was
 * acknowledged too: the leader was alive to that session after it had applied the touch. The fence
 * always comes from the second-to-last such contact.
 */
final class ContactFence {

    /** Enough history for a contact made sooner than the lag after the previous one. */
    private static final int KEPT = 16;

    private final long maxSkewMillis;
    private final long marginMillis;
    private final long serverTickMillis;
    private final ArrayDeque<Contact> recent = new ArrayDeque<>();
    private long session;
    private long fenceMillis = Long.MIN_VALUE;

    /**
     * @param maxSkewMillis the skew bound subtracted on both sides of a hand-over
     * @param marginMillis the margin for the servers' clock rate and spread, and for the touch lag
     * @param serverTickMillis the servers' {@code tickTime}, or 0 for half the session timeout (the
     *     longest tick ZooKeeper's default minimum session timeout allows)
     */
    ContactFence(long maxSkewMillis, long marginMillis, long serverTickMillis) {
        this.maxSkewMillis = maxSkewMillis;
        this.marginMillis = marginMillis;
        this.serverTickMillis = serverTickMillis;
    }

    private record Contact(long sentNanos, long ackedNanos, long fenceMillis) {
    }

    /**
     * How long after a contact is acknowledged the next one must be sent for the first to count:
     * half a server tick (the leader's ping period) plus the margin.
     *
     * @param sessionTimeoutMillis the negotiated session timeout
     * @return milliseconds
     */
    long lagMillis(long sessionTimeoutMillis) {
        long tick = serverTickMillis > 0 ? serverTickMillis : sessionTimeoutMillis / 2;
        return (tick + 1) / 2 + marginMillis;
    }

    /**
     * The fence one contact would give once confirmed: {@code mtime - rtt + sessionTimeout - margin
     * - maxSkew}, with the round trip rounded up to whole milliseconds.
     */
    long fenceOf(long sentNanos, long ackedNanos, long mtimeMillis, long sessionTimeoutMillis) {
        long rttMillis = Math.max(0, (ackedNanos - sentNanos + 999_999) / 1_000_000);
        return mtimeMillis - rttMillis + sessionTimeoutMillis - marginMillis - maxSkewMillis;
    }

    /**
     * Records an acknowledged write of {@code sessionId} and moves the fence to the latest earlier
     * contact of that session it confirms.
     *
     * @return the fence now
     */
    synchronized long acknowledged(long sessionId, long sentNanos, long ackedNanos, long mtimeMillis,
            long sessionTimeoutMillis) {
        if (sessionId != session) {
            // a new session owes nothing to the old one's contacts (its node is a new node)
            recent.clear();
            session = sessionId;
            fenceMillis = Long.MIN_VALUE;
        }
        long lagNanos = lagMillis(sessionTimeoutMillis) * 1_000_000;
        Contact confirmed = null;
        for (Contact c : recent) {
            // sent after the leader has heard of c's touch: this write's success proves it applied it
            if (sentNanos - c.ackedNanos >= lagNanos) {
                confirmed = c;
            }
        }
        if (confirmed != null) {
            fenceMillis = Math.max(fenceMillis, confirmed.fenceMillis);
            for (Iterator<Contact> it = recent.iterator(); it.hasNext() && it.next() != confirmed; ) {
                it.remove();
            }
        }
        if (recent.size() == KEPT) {
            recent.removeFirst();
        }
        recent.addLast(new Contact(sentNanos, ackedNanos,
                fenceOf(sentNanos, ackedNanos, mtimeMillis, sessionTimeoutMillis)));
        return fenceMillis;
    }

    /** Forgets every contact: the fence is closed until two new ones. */
    synchronized void reset() {
        recent.clear();
        session = 0;
        fenceMillis = Long.MIN_VALUE;
    }

    /** {@return the fence: the first Unix millisecond no ID may cover; MIN_VALUE when closed} */
    synchronized long fenceMillis() {
        return fenceMillis;
    }
}
