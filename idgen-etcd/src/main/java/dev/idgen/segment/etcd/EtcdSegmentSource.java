package dev.idgen.segment.etcd;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Segment ranges from etcd: one key per name, {@code <namespace>/<name>}, holding the last number
 * granted as decimal text.
 *
 * <pre>{@code
 * EtcdSegmentSource source = EtcdSegmentSource.builder(client).namespace("/idgen/segments").build();
 * SegmentGenerator orders = SegmentGenerator.builder().source(source).name("orders").step(1000).build();
 * }</pre>
 *
 * <p><b>Why no range is granted twice.</b> A grant reads the key and its mod revision {@code r}
 * (0 when absent), then commits one transaction: if the key's mod revision is still {@code r}, put
 * {@code last + step}. etcd serialises transactions through its Raft log, so of two clients that
 * read the same {@code r} exactly one transaction succeeds; the other reads again. A committed
 * transaction is on a quorum; one whose answer was lost is never reused (the client reads the new
 * revision on its next attempt), which leaves a gap of one step, never a repeat.
 *
 * <p><b>No store clock.</b> etcd's API tells no time, so {@link #now()} is not supported and
 * {@link dev.idgen.segment.BusinessNumberGenerator} refuses this source (it fails on its first call,
 * saying so); each grant is stamped with the {@link InstantSource} given to the builder, which only
 * counts for logs. For business numbers use a store that has a clock (a database, Redis,
 * ZooKeeper).
 */
public final class EtcdSegmentSource implements SegmentSource {

    /** Attempts of one grant lost to other clients' transactions before it gives up. */
    static final int MAX_ATTEMPTS = 64;

    private final Client client;
    private final String namespace;
    private final long timeoutMillis;
    private final InstantSource clock;

    private EtcdSegmentSource(Builder b) {
        this.client = b.client;
        this.namespace = b.namespace;
        this.timeoutMillis = b.timeout.toMillis();
        this.clock = b.clock;
    }

    /**
     * @param client a jetcd client (the source does not close it)
     * @return a builder, namespace {@code /idgen/segments}, timeout 2 s
     */
    public static Builder builder(Client client) {
        return new Builder(client);
    }

    @Override
    public SegmentGrant grant(String name, long step) {
        SegmentGenerator.checkName(name);
        SegmentGenerator.checkStep(step);
        ByteSequence key = bytes(namespace + "/" + name);
        String what = "grant " + step + " numbers of '" + name + "'";
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            GetResponse read = await(client.getKVClient().get(key), what);
            List<KeyValue> kvs = read.getKvs();
            long last = kvs.isEmpty() ? 0 : parse(name, kvs.get(0));
            long revision = kvs.isEmpty() ? 0 : kvs.get(0).getModRevision();
            if (last > SegmentGrant.MAX_LAST - step) {
                throw new IllegalStateException("counter '" + name + "' under etcd " + namespace + " is at " + last
                        + "; a step of " + step + " would pass " + SegmentGrant.MAX_LAST);
            }
            long next = last + step;
            // the revision compare is the whole mutual exclusion: see the class comment
            TxnResponse w = await(client.getKVClient().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(revision)))
                    .Then(Op.put(key, bytes(Long.toString(next)), PutOption.DEFAULT)).commit(), what);
            if (w.isSucceeded()) {
                return new SegmentGrant(last + 1, next, clock.instant());
            }
            // another client granted a range meanwhile: wait a random while, then read again
            SegmentSource.backOffAfterLostWrite(attempt + 1);
        }
        throw new IllegalStateException("could not grant " + step + " numbers of '" + name + "' on " + describe()
                + ": lost " + MAX_ATTEMPTS + " revision-checked transactions in a row to other clients (a larger"
                + " step makes fewer grants)");
    }

    /**
     * Records the pattern under the key {@code <namespace>.patterns/<name>} in one transaction (put
     * it if the key has no version yet), then reads the one there back.
     */
    @Override
    public String recordPattern(String name, String pattern) {
        SegmentGenerator.checkName(name);
        Objects.requireNonNull(pattern, "pattern");
        ByteSequence key = bytes(namespace + ".patterns/" + name);
        String what = "record pattern " + pattern + " of '" + name + "'";
        await(client.getKVClient().txn().If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(key, bytes(pattern), PutOption.DEFAULT)).commit(), what);
        List<KeyValue> kvs = await(client.getKVClient().get(key), what).getKvs();
        if (kvs.isEmpty()) {
            throw new IllegalStateException("pattern of '" + name + "' under etcd " + namespace
                    + ".patterns vanished right after it was recorded; is another program deleting keys there?");
        }
        return kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
    }

    @Override
    public String describe() {
        return "etcd namespace " + namespace;
    }

    private long parse(String name, KeyValue kv) {
        String text = kv.getValue().toString(StandardCharsets.UTF_8).trim();
        try {
            long v = Long.parseLong(text);
            if (v < 0) {
                throw new NumberFormatException("negative");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalStateException("etcd key " + namespace + "/" + name + " holds '" + text + "', not a"
                    + " segment counter (the last number granted, 0 or more); is another program using this"
                    + " namespace?");
        }
    }

    private <T> T await(CompletableFuture<T> f, String what) {
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("could not " + what + " on " + describe() + ": no answer within "
                    + timeoutMillis + " ms", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not " + what + " on " + describe() + ": " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new IllegalStateException("interrupted while trying to " + what + " on " + describe(), e);
        }
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** Configures an {@link EtcdSegmentSource}. */
    public static final class Builder {
        private final Client client;
        private String namespace = "/idgen/segments";
        private Duration timeout = Duration.ofSeconds(2);
        private InstantSource clock = InstantSource.system();

        private Builder(Client client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param namespace put before {@code /<name>} to make each key; 1 to 128 printable
         *     characters without spaces, not ending in {@code /}; default {@code /idgen/segments}
         * @return this
         * @throws IllegalArgumentException for another namespace
         */
        public Builder namespace(String namespace) {
            Objects.requireNonNull(namespace, "namespace");
            if (namespace.isEmpty() || namespace.length() > 128 || namespace.endsWith("/")
                    || !namespace.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw new IllegalArgumentException("namespace '" + namespace + "' must be 1 to 128 printable ASCII"
                        + " characters without spaces, not ending in '/', e.g. /idgen/segments");
            }
            this.namespace = namespace;
            return this;
        }

        /**
         * @param timeout the longest one call waits for etcd, 1 ms to 1 min; default 2 s
         * @return this
         * @throws IllegalArgumentException if out of range
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("timeout " + timeout + " is out of range [PT0.001S, PT1M]");
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param clock stamps each grant (etcd tells no time); default the system clock
         * @return this
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** {@return the source; it does not contact etcd until the first grant} */
        public EtcdSegmentSource build() {
            return new EtcdSegmentSource(this);
        }
    }
}
