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
 * <p>Keys under the namespace {@code ns}: {@code ns/id/<n>} holds {@code "<nonce> <owner>"} of id
 * {@code n}'s holder and is bound to that holder's etcd lease (it vanishes when the lease expires or
 * is revoked); the nonce (random, 64 bits, hexadecimal) is rotated by every renewal where it is still
 * the one this copy wrote, so of two copies of one process image only the first to renew keeps the
 * id. {@code ns/mark/<n>} is id {@code n}'s record ({@link Row}: {@code "<mark> <offset> <expiry> <writer nonce>"},
 * decimal milliseconds and the hexadecimal nonce the writer left in the id key, {@code -} for none), bound to no lease so that it outlives every holder;
 * written only in the same transaction as a nonce rotation (or a release) that still finds our nonce.
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
     * Who holds {@code id}: the owner written in its key, the etcd lease it is bound to and that
     * lease's remaining TTL in whole seconds (-1 if the lease is gone); {@code null} if the key is absent.
     */
    record Holder(String owner, long leaseId, long ttlSeconds) {
    }

    Holder holder(long id) throws EtcdCallException {
        GetResponse r = await(client.getKVClient().get(idKey(id)), claimTimeoutMillis);
        if (r.getKvs().isEmpty()) {
            return null;
        }
        KeyValue kv = r.getKvs().get(0);
        String v = kv.getValue().toString(StandardCharsets.UTF_8);
        int space = v.indexOf(' ');
        LeaseTimeToLiveResponse ttl = await(client.getLeaseClient().timeToLive(kv.getLease(), LeaseOption.DEFAULT),
                claimTimeoutMillis);
        return new Holder(space >= 0 ? v.substring(space + 1) : v, kv.getLease(), ttl.getTTL());
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
     * What {@code ns/mark/<id>} records about id {@code id} for its next holder; it is bound to no
     * etcd lease, so it outlives every holder.
     *
     * @param mark the high-water mark, Unix milliseconds, or {@link #NONE}
     * @param offsetMillis the last writer's fence offset ({@code maxClockSkew + safetyMargin}), or
     *     {@link #NONE} when written by a version that did not record it
     * @param expiryMillis the equivalent expiry of the last writer's newest acknowledged keep-alive
     *     ({@code sent + ttl - maxClockSkew}, in its own clock), or {@link #NONE} when its holder
     *     released the id (its mark then covers every ID it returned)
     * @param writerNonce the nonce the writer left in the id key with this write, so a holder can
     *     tell its own record from another's; {@link #NONE} when unknown
     */
    record Row(long mark, long offsetMillis, long expiryMillis, long writerNonce) {
        static final Row EMPTY = new Row(NONE, NONE, NONE, NONE);

        String encode() {
            return text(mark) + " " + text(offsetMillis) + " " + text(expiryMillis) + " "
                    + (writerNonce == NONE ? "-" : Long.toHexString(writerNonce));
        }

        static Row decode(String s) {
            String[] f = s.trim().split(" ");
            if (f.length == 1) { // written before the record had more than the mark
                return new Row(Long.parseLong(f[0]), NONE, NONE, NONE);
            }
            return new Row(number(f[0]), number(f[1]), number(f[2]),
                    f[3].equals("-") ? NONE : Long.parseUnsignedLong(f[3], 16));
        }

        private static String text(long v) {
            return v == NONE ? "-" : Long.toString(v);
        }

        private static long number(String s) {
            return s.equals("-") ? NONE : Long.parseLong(s);
        }
    }

    /** What a renewal found: the key still ours with our nonce, taken, or renewed by a copy of us. */
    enum Outcome { OURS, TAKEN, COPY }

    /**
     * @param outcome what the renewal found
     * @param recordedMark the mark now in the record (when {@link Outcome#OURS})
     * @param detail what the key held instead (when not ours), for the log
     */
    record Renewal(Outcome outcome, long recordedMark, String detail) {
    }

    /** "none" for the numbers of a {@link Row}. */
    static final long NONE = Long.MIN_VALUE;

    /**
     * The id key's value: the nonce first, in hexadecimal, then the owner (which may hold spaces).
     */
    String idValue(long nonce) {
        return Long.toHexString(nonce) + " " + owner;
    }

    /**
     * Creates {@code ns/id/<id>} bound to {@code leaseId} if it does not exist (create revision 0),
     * with a fresh nonce, reading the id's record in the same transaction.
     *
     * @return the record (possibly {@link Row#EMPTY}), or {@code null} when the key exists
     */
    Row claim(long id, long leaseId, long nonce) throws EtcdCallException {
        ByteSequence key = idKey(id);
        TxnResponse r = await(client.getKVClient().txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(key, bytes(idValue(nonce)), PutOption.builder().withLeaseId(leaseId).build()),
                        Op.get(markKey(id), GetOption.DEFAULT))
                .commit(), claimTimeoutMillis);
        if (!r.isSucceeded()) {
            return null;
        }
        return rowOf(r.getGetResponses().get(0).getKvs());
    }

    /**
     * One renewal's write, after its keep-alive was acknowledged: in one transaction, rotates the id
     * key's nonce from {@code nonce} to {@code nextNonce} (a compare on the key's whole value, so it
     * applies only where the key still holds our owner and the nonce this copy wrote last) and writes
     * the record: the mark {@code min(max(recorded, mark), markCap)}, our fence offset and
     * {@code expiryMillis} (a compare on the record's mod revision, so no concurrent write is lost).
     * A failed compare is read back and told apart: another owner or etcd lease (or no key): taken;
     * our owner and etcd lease with another nonce: a copy of this process renewed first.
     */
    Renewal renew(long id, long leaseId, long nonce, long nextNonce, long mark, long markCap, long offsetMillis,
            long expiryMillis) throws EtcdCallException {
        ByteSequence idKey = idKey(id);
        ByteSequence markKey = markKey(id);
        String ours = idValue(nonce);
        for (int attempt = 0; ; attempt++) {
            TxnResponse read = await(client.getKVClient().txn()
                    .Then(Op.get(idKey, GetOption.DEFAULT), Op.get(markKey, GetOption.DEFAULT)).commit());
            List<KeyValue> idKv = read.getGetResponses().get(0).getKvs();
            if (idKv.isEmpty()) {
                return new Renewal(Outcome.TAKEN, NONE, "no key (expired, revoked or deleted)");
            }
            KeyValue held = idKv.get(0);
            String value = held.getValue().toString(StandardCharsets.UTF_8);
            if (!value.equals(ours)) {
                int space = value.indexOf(' ');
                String heldOwner = space < 0 ? value : value.substring(space + 1);
                boolean copy = held.getLease() == leaseId && heldOwner.equals(owner);
                return new Renewal(copy ? Outcome.COPY : Outcome.TAKEN, NONE,
                        "\"" + value + "\" under etcd lease " + Long.toHexString(held.getLease()));
            }
            List<KeyValue> markKv = read.getGetResponses().get(1).getKvs();
            Row stored = rowOf(markKv);
            // the mark only rises, except past the cap: a mark beyond any clock's reach heals here
            long newMark = Math.min(Math.max(stored.mark(), mark), markCap);
            Row row = new Row(newMark, offsetMillis, expiryMillis, nextNonce);
            long rev = markKv.isEmpty() ? 0 : markKv.get(0).getModRevision();
            TxnResponse w = await(client.getKVClient().txn()
                    .If(new Cmp(idKey, Cmp.Op.EQUAL, CmpTarget.value(bytes(ours))),
                            new Cmp(markKey, Cmp.Op.EQUAL, CmpTarget.modRevision(rev)))
                    .Then(Op.put(idKey, bytes(idValue(nextNonce)), PutOption.builder().withLeaseId(leaseId).build()),
                            Op.put(markKey, bytes(row.encode()), PutOption.DEFAULT))
                    .commit());
            if (w.isSucceeded()) {
                return new Renewal(Outcome.OURS, newMark, "");
            }
            if (attempt >= 10) {
                throw new EtcdCallException("the keys of machine id " + id + " under " + namespace
                        + " kept changing under us");
            }
        }
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
     * Gives the id back: where the id key still holds our nonce, records the final mark (capped as a
     * renewal's), our offset and no expiry (the mark covers every ID returned, since the fence shut
     * before it was read), then revokes the etcd lease, which deletes the id key. Where a copy of
     * this process holds the key under the same etcd lease (it renewed first), records nothing and
     * leaves the etcd lease to that copy.
     *
     * @return false if the id key was no longer ours (nothing recorded)
     */
    boolean release(long id, long leaseId, long nonce, long mark, long markCap, long offsetMillis)
            throws EtcdCallException {
        Renewal r = renew(id, leaseId, nonce, nonce, mark, markCap, offsetMillis, NONE);
        if (r.outcome() != Outcome.COPY) {
            await(client.getLeaseClient().revoke(leaseId));
        }
        return r.outcome() == Outcome.OURS;
    }

    /** Reads id {@code id}'s record (tests and tools). */
    Row row(long id) throws EtcdCallException {
        return rowOf(await(client.getKVClient().get(markKey(id))).getKvs());
    }

    /** Revokes a lease quietly (a claim that lost its race). */
    void revokeQuietly(long leaseId) {
        try {
            await(client.getLeaseClient().revoke(leaseId));
        } catch (EtcdCallException e) {
            // it expires by itself
        }
    }

    private static Row rowOf(List<KeyValue> kvs) {
        if (kvs.isEmpty()) {
            return Row.EMPTY;
        }
        return Row.decode(kvs.get(0).getValue().toString(StandardCharsets.UTF_8));
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
