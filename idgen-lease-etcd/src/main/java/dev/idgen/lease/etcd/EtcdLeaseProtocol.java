package dev.idgen.lease.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The etcd side of a machine-id lease, apart from its timing: the keys, the claim, the keep-alive,
 * the mark and the release. A keep-alive and the mark it records wait at most {@code timeoutMillis}
 * (a slower one would fence a healthy holder anyway); a claim, which opens no fence by itself and
 * may be the client's first call (connecting), waits up to {@code claimTimeoutMillis}.
 *
 * <p>Keys under the namespace {@code ns}: {@code ns/id/<n>} holds the owner of id {@code n} and is
 * bound to that owner's etcd lease (it vanishes when the lease expires or is revoked);
 * {@code ns/mark/<n>} holds id {@code n}'s high-water mark in decimal Unix milliseconds, bound to no
 * lease, and is only ever raised (a compare on its mod revision).
 */
final class EtcdLeaseProtocol {

    /**
     * What a grant or a keep-alive proved: the lease lives on the leader for {@code ttlSeconds} of
     * its elapsed time from some instant between the send and the answer.
     *
     * @param leaseId the etcd lease
     * @param sentAtMillis the local wall clock just before the request was sent
     * @param ttlSeconds the TTL the server answered; 0 or less when the lease no longer exists
     * @param sentNanos the local elapsed-time clock just before the request was sent
     * @param ackedNanos the local elapsed-time clock just after the answer came
     */
    record Ack(long leaseId, long sentAtMillis, long ttlSeconds, long sentNanos, long ackedNanos) {
    }

    /**
     * What etcd's lease countdown read: the leader's remaining TTL, truncated to whole seconds (etcd
     * answers {@code int64(Remaining().Seconds())}), so the true remainder is in
     * {@code [remainingSeconds, remainingSeconds + 1)} seconds of the leader's elapsed time.
     *
     * @param remainingSeconds the remaining TTL; negative when the lease no longer exists
     * @param grantedSeconds the TTL the lease was granted with
     * @param sentNanos the local elapsed-time clock just before the request was sent
     * @param ackedNanos the local elapsed-time clock just after the answer came
     */
    record Countdown(long remainingSeconds, long grantedSeconds, long sentNanos, long ackedNanos) {
    }

    private final Client client;
    private final String namespace;
    private final String owner;
    private final long ttlSeconds;
    private final long timeoutMillis;
    private final long claimTimeoutMillis;
    private final InstantSource clock;
    private final LongSupplier nanos;

    EtcdLeaseProtocol(Client client, String namespace, String owner, long ttlSeconds, long timeoutMillis,
            long claimTimeoutMillis, InstantSource clock, LongSupplier nanos) {
        this.client = client;
        this.namespace = namespace;
        this.owner = owner;
        this.ttlSeconds = ttlSeconds;
        this.timeoutMillis = timeoutMillis;
        this.claimTimeoutMillis = claimTimeoutMillis;
        this.clock = clock;
        this.nanos = nanos;
    }

    String namespace() {
        return namespace;
    }

    String owner() {
        return owner;
    }

    ByteSequence idKey(long id) {
        return bytes(namespace + "/id/" + id);
    }

    ByteSequence markKey(long id) {
        return bytes(namespace + "/mark/" + id);
    }

    /** The ids whose keys exist now (held by a live etcd lease). */
    Set<Long> heldIds() throws EtcdCallException {
        String prefix = namespace + "/id/";
        GetResponse r = await(client.getKVClient().get(bytes(prefix),
                GetOption.builder().isPrefix(true).withKeysOnly(true).build()), claimTimeoutMillis);
        Set<Long> held = new HashSet<>();
        for (KeyValue kv : r.getKvs()) {
            String k = kv.getKey().toString(StandardCharsets.UTF_8);
            try {
                held.add(Long.parseLong(k.substring(prefix.length())));
            } catch (NumberFormatException e) {
                // not one of ours; ignore
            }
        }
        return held;
    }

    /**
     * Grants a new etcd lease: the grant, sent at local time {@code t}, proves the lease lives on the
     * server until {@code t}'s real instant plus the TTL it reports, at least.
     */
    Ack grant() throws EtcdCallException {
        long sent = clock.millis();
        long sentNanos = nanos.getAsLong();
        LeaseGrantResponse r = await(client.getLeaseClient().grant(ttlSeconds), claimTimeoutMillis);
        return new Ack(r.getID(), sent, r.getTTL(), sentNanos, nanos.getAsLong());
    }

    /**
     * Creates {@code ns/id/<id>} bound to {@code leaseId} if it does not exist (create revision 0),
     * reading the mark in the same transaction.
     *
     * @return the mark (or {@code Long.MIN_VALUE} when none), or {@code null} when the key exists
     */
    Long claim(long id, long leaseId) throws EtcdCallException {
        ByteSequence key = idKey(id);
        TxnResponse r = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(key, bytes(owner), PutOption.builder().withLeaseId(leaseId).build()),
                        Op.get(markKey(id), GetOption.DEFAULT))
                .commit(), claimTimeoutMillis);
        if (!r.isSucceeded()) {
            return null;
        }
        return markOf(r.getGetResponses().get(0).getKvs());
    }

    /**
     * Keeps {@code leaseId} alive once: the acknowledgement of a request sent at local time
     * {@code t} proves the lease lives on the server until {@code t}'s real instant plus the TTL it
     * reports, at least.
     *
     * @return the proof, with {@code ttlSeconds <= 0} when the lease no longer exists
     */
    Ack keepAlive(long leaseId) throws EtcdCallException {
        long sent = clock.millis();
        long sentNanos = nanos.getAsLong();
        try {
            LeaseKeepAliveResponse r = await(client.getLeaseClient().keepAliveOnce(leaseId));
            return new Ack(leaseId, sent, r.getTTL(), sentNanos, nanos.getAsLong());
        } catch (EtcdCallException e) {
            if (leaseNotFound(e.getCause())) { // jetcd reports the server's TTL 0 as an error
                return new Ack(leaseId, sent, 0, sentNanos, nanos.getAsLong());
            }
            throw e;
        }
    }

    /**
     * Reads the leader's countdown of {@code leaseId} (a read: it renews nothing).
     *
     * @return the countdown, with a negative remainder when the lease no longer exists
     */
    Countdown timeToLive(long leaseId) throws EtcdCallException {
        long sentNanos = nanos.getAsLong();
        try {
            LeaseTimeToLiveResponse r = await(client.getLeaseClient().timeToLive(leaseId, LeaseOption.DEFAULT));
            return new Countdown(r.getTTL(), r.getGrantedTTL(), sentNanos, nanos.getAsLong());
        } catch (EtcdCallException e) {
            if (leaseNotFound(e.getCause())) {
                return new Countdown(-1, 0, sentNanos, nanos.getAsLong());
            }
            throw e;
        }
    }

    /** Whether {@code t} is etcd's answer that the lease does not exist (expired or revoked). */
    static boolean leaseNotFound(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof EtcdException ee && ee.getErrorCode() == ErrorCode.NOT_FOUND) {
                return true;
            }
            if (c instanceof StatusRuntimeException se && se.getStatus().getCode() == Status.Code.NOT_FOUND) {
                return true;
            }
        }
        return false;
    }

    /**
     * Raises {@code ns/mark/<id>} to {@code mark} unless it is higher already (compare and swap on
     * its mod revision, retried), and checks that {@code ns/id/<id>} is still bound to
     * {@code leaseId}.
     *
     * @return the mark now recorded, or {@code null} when the id key is no longer ours
     */
    Long recordMark(long id, long leaseId, long mark) throws EtcdCallException {
        ByteSequence markKey = markKey(id);
        for (int attempt = 0; ; attempt++) {
            TxnResponse read = await(client.getKVClient().txn()
                    .Then(Op.get(idKey(id), GetOption.DEFAULT), Op.get(markKey, GetOption.DEFAULT)).commit());
            List<KeyValue> idKv = read.getGetResponses().get(0).getKvs();
            if (idKv.isEmpty() || idKv.get(0).getLease() != leaseId) {
                return null;
            }
            List<KeyValue> markKv = read.getGetResponses().get(1).getKvs();
            long stored = markOf(markKv);
            if (mark <= stored) {
                return stored;
            }
            long rev = markKv.isEmpty() ? 0 : markKv.get(0).getModRevision();
            // never lowered: the put applies only if nobody wrote the mark since we read it
            TxnResponse w = await(client.getKVClient().txn()
                    .If(new Cmp(markKey, Cmp.Op.EQUAL, CmpTarget.modRevision(rev)))
                    .Then(Op.put(markKey, bytes(Long.toString(mark)), PutOption.DEFAULT)).commit());
            if (w.isSucceeded()) {
                return mark;
            }
            if (attempt >= 10) {
                throw new EtcdCallException("the mark key " + markKey + " kept changing under us");
            }
        }
    }

    /** Raises the mark regardless of who holds the id (on release); false if the id was not ours. */
    boolean release(long id, long leaseId, long mark) throws EtcdCallException {
        Long recorded = recordMark(id, leaseId, mark);
        await(client.getLeaseClient().revoke(leaseId));
        return recorded != null;
    }

    /** Revokes a lease quietly (a claim that lost its race). */
    void revokeQuietly(long leaseId) {
        try {
            await(client.getLeaseClient().revoke(leaseId));
        } catch (EtcdCallException e) {
            // it expires by itself
        }
    }

    private static long markOf(List<KeyValue> kvs) {
        if (kvs.isEmpty()) {
            return Long.MIN_VALUE;
        }
        return Long.parseLong(kvs.get(0).getValue().toString(StandardCharsets.UTF_8));
    }

    private <T> T await(CompletableFuture<T> f) throws EtcdCallException {
        return await(f, timeoutMillis);
    }

    private static <T> T await(CompletableFuture<T> f, long timeoutMillis) throws EtcdCallException {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new EtcdCallException("no answer from etcd within " + timeoutMillis + " ms");
        } catch (ExecutionException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw new EtcdCallException(c.toString(), c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new EtcdCallException("interrupted");
        }
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** An etcd call failed or timed out. */
    static final class EtcdCallException extends Exception {
        private static final long serialVersionUID = 1L;

        EtcdCallException(String message) {
            super(message);
        }

        EtcdCallException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
