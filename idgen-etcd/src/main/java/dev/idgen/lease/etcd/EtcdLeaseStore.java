package dev.idgen.lease.etcd;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Lease records in etcd, under a namespace {@code ns}: {@code ns/namespace} and one key per machine
 * id, {@code ns/ids/0000000042}, the id written with ten digits so that a range of keys is a range of
 * ids. Values are text: a record is {@code "<token> <nonce> <expires> <mark> <offset> <owner>"}, the
 * namespace {@code "<highestId> <nonce> <trustedFrom> <layout>"}, numbers in decimal, the owner and
 * the layout last (they may hold spaces). No key is bound to an etcd lease: nothing expires by itself.
 *
 * <p>A conditional write is read, then one transaction that compares the key's {@code mod_revision}
 * with the one read: etcd runs it only if no one wrote the key in between. etcd shows no clock, so
 * {@link #time()} is the local clock ({@link #hasClock()} is false).
 */
final class EtcdLeaseStore implements LeaseStore {

    /** How long a client's first call may take: it opens the connection. */
    static final long CONNECT_MILLIS = 10_000;

    private final Client client;
    private final String namespace;
    private final InstantSource clock;
    private final long timeoutMillis;
    /** Until a call is answered, calls may take longer: the first one connects the client. */
    private volatile boolean answered;

    /**
     * @param client the etcd client
     * @param namespace the key prefix, e.g. {@code /idgen/machine-ids}
     * @param clock the lease's local clock
     * @param timeout how long one call may take
     */
    EtcdLeaseStore(Client client, String namespace, InstantSource clock, Duration timeout) {
        this.client = client;
        this.namespace = namespace;
        this.clock = clock;
        this.timeoutMillis = Math.max(1, timeout.toMillis());
    }

    @Override
    public String describe() {
        return "under etcd namespace " + namespace;
    }

    @Override
    public boolean hasClock() {
        return false;
    }

    @Override
    public StoreTime time() {
        return StoreTime.local(clock.millis());
    }

    @Override
    public NamespaceRecord readNamespace() throws Exception {
        List<KeyValue> kvs = await(client.getKVClient().get(namespaceKey())).getKvs();
        return kvs.isEmpty() ? null : namespaceOf(text(kvs.get(0)));
    }

    @Override
    public boolean createNamespace(NamespaceRecord ns) throws Exception {
        return await(client.getKVClient().txn()
                .If(new Cmp(namespaceKey(), Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(namespaceKey(), bytes(text(ns)), PutOption.DEFAULT))
                .commit()).isSucceeded();
    }

    @Override
    public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws Exception {
        List<KeyValue> nsKvs = await(client.getKVClient().get(namespaceKey())).getKvs();
        if (nsKvs.isEmpty() || namespaceOf(text(nsKvs.get(0))).nonce() != expectedNonce) {
            return false;
        }
        SortedMap<Long, LeaseRecord> present = toId >= fromId ? read(fromId, toId) : new TreeMap<>();
        List<Cmp> compares = new ArrayList<>();
        List<Op> puts = new ArrayList<>();
        compares.add(new Cmp(namespaceKey(), Cmp.Op.EQUAL, CmpTarget.modRevision(nsKvs.get(0).getModRevision())));
        puts.add(Op.put(namespaceKey(), bytes(text(next)), PutOption.DEFAULT));
        for (long id = fromId; id <= toId; id++) {
            if (!present.containsKey(id)) {
                compares.add(new Cmp(idKey(id), Cmp.Op.EQUAL, CmpTarget.createRevision(0)));
                puts.add(Op.put(idKey(id), bytes(text(initial)), PutOption.DEFAULT));
            }
        }
        return await(client.getKVClient().txn().If(compares.toArray(Cmp[]::new)).Then(puts.toArray(Op[]::new))
                .commit()).isSucceeded();
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws Exception {
        GetResponse r = await(client.getKVClient().get(idKey(fromId),
                GetOption.builder().withRange(idKey(toId + 1)).build()));
        SortedMap<Long, LeaseRecord> out = new TreeMap<>();
        String prefix = namespace + "/ids/";
        for (KeyValue kv : r.getKvs()) {
            long id = Long.parseLong(kv.getKey().toString(StandardCharsets.UTF_8).substring(prefix.length()));
            out.put(id, recordOf(text(kv)));
        }
        return out;
    }

    @Override
    public boolean replace(long id, long expectedNonce, LeaseRecord next) throws Exception {
        List<KeyValue> kvs = await(client.getKVClient().get(idKey(id))).getKvs();
        if (kvs.isEmpty() || recordOf(text(kvs.get(0))).nonce() != expectedNonce) {
            return false;
        }
        return await(client.getKVClient().txn()
                .If(new Cmp(idKey(id), Cmp.Op.EQUAL, CmpTarget.modRevision(kvs.get(0).getModRevision())))
                .Then(Op.put(idKey(id), bytes(text(next)), PutOption.DEFAULT))
                .commit()).isSucceeded();
    }

    /** {@return the key of machine id {@code id}} */
    ByteSequence idKey(long id) {
        return bytes(String.format("%s/ids/%010d", namespace, id));
    }

    /** {@return the namespace record's key} */
    ByteSequence namespaceKey() {
        return bytes(namespace + "/namespace");
    }

    static String text(LeaseRecord r) {
        return r.token() + " " + r.nonce() + " " + r.expiresMillis() + " " + r.markMillis() + " "
                + r.fenceOffsetMillis() + " " + r.owner();
    }

    static LeaseRecord recordOf(String s) {
        String[] f = s.split(" ", 6);
        return new LeaseRecord(f[5], Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                Long.parseLong(f[3]), Long.parseLong(f[4]));
    }

    static String text(NamespaceRecord ns) {
        return ns.highestId() + " " + ns.nonce() + " " + ns.trustedFromMillis() + " " + ns.layout();
    }

    static NamespaceRecord namespaceOf(String s) {
        String[] f = s.split(" ", 4);
        return new NamespaceRecord(f.length > 3 ? f[3] : "", Long.parseLong(f[0]), Long.parseLong(f[1]),
                Long.parseLong(f[2]));
    }

    private static String text(KeyValue kv) {
        return kv.getValue().toString(StandardCharsets.UTF_8);
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private <T> T await(CompletableFuture<T> f) throws Exception {
        long limit = answered ? timeoutMillis : Math.max(timeoutMillis, CONNECT_MILLIS);
        try {
            T t = f.get(limit, TimeUnit.MILLISECONDS);
            answered = true;
            return t;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException("no answer from etcd " + describe() + " within " + limit + " ms");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception c ? c : e;
        }
    }
}
