package dev.idgen.lease.redis;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Lease records in Redis: one hash per machine id and one for the namespace, every key of a prefix
 * under the hash tag {@code {prefix}}, so each script touches one hash slot. Every write is one Lua
 * script, which Redis runs as one step; no key carries a time to live. Values are decimal strings
 * and the scripts only compare them, never compute with them (Lua numbers are doubles: a 64-bit
 * nonce would not survive). Thread-safe: no state but configuration.
 *
 * <pre>
 * {p}namespace  layout, highestId, nonce, trustedFrom
 * {p}&lt;n&gt;         owner, token, nonce, expires, mark, fenceOffset      (machine id n)
 * </pre>
 */
final class RedisLeaseStore implements LeaseStore {

    private static final String[] RECORD = {"owner", "token", "nonce", "expires", "mark", "fenceOffset"};
    private static final String[] NAMESPACE = {"layout", "highestId", "nonce", "trustedFrom"};

    /**
     * The server's clock and what a restart may have lost: {@code TIME}, {@code uptime_in_seconds} and
     * {@code aof_enabled}, read in one step. KEYS[1], the namespace, is not read: it only routes the
     * script to the node that keeps the records, whose clock judges them.
     */
    private static final String TIME = """
            local t = redis.call('TIME')
            local up = string.match(redis.call('INFO', 'server'), 'uptime_in_seconds:(%d+)')
            local aof = string.match(redis.call('INFO', 'persistence'), 'aof_enabled:(%d)')
            return {t[1], t[2], up or '', aof or ''}
            """;

    /**
     * What the scripts share: the field names, a write of one hash from ARGV, and the compare-and-set
     * on a hash's nonce (a string, compared as one).
     */
    private static final String FIELDS = "local RECORD = {'" + String.join("', '", RECORD) + "'}\n"
            + "local NAMESPACE = {'" + String.join("', '", NAMESPACE) + "'}\n" + """
            -- writes the fields named by names, from ARGV[from] on, into the hash at key
            local function write(key, names, from)
              for j, name in ipairs(names) do
                redis.call('HSET', key, name, ARGV[from + j - 1])
              end
            end
            -- where the hash at key has nonce, writes it as write() does; false where not (or no hash)
            local function replace(key, nonce, names, from)
              if redis.call('HGET', key, 'nonce') ~= nonce then
                return false
              end
              write(key, names, from)
              return true
            end
            """;

    /** KEYS[1] the namespace; ARGV its fields: written if there is none. */
    private static final String CREATE_NAMESPACE = FIELDS + """
            if redis.call('EXISTS', KEYS[1]) == 1 then
              return 0
            end
            write(KEYS[1], NAMESPACE, 1)
            return 1
            """;

    /**
     * KEYS[1] the namespace, KEYS[2..] the ids' records; ARGV[1] the namespace's expected nonce,
     * ARGV[2..5] its next fields, ARGV[6..11] the record for ids that have none.
     */
    private static final String EXTEND = FIELDS + """
            if not replace(KEYS[1], ARGV[1], NAMESPACE, 2) then
              return 0
            end
            for i = 2, #KEYS do
              if redis.call('EXISTS', KEYS[i]) == 0 then
                write(KEYS[i], RECORD, 2 + #NAMESPACE)
              end
            end
            return 1
            """;

    /** KEYS[1] the record; ARGV[1] its expected nonce, ARGV[2..7] the next fields. */
    private static final String REPLACE = FIELDS + """
            return replace(KEYS[1], ARGV[1], RECORD, 2) and 1 or 0
            """;

    /** KEYS the records: the fields of each, in the order of {@link #RECORD}, in one step. */
    private static final String READ = FIELDS + """
            local out = {}
            for i = 1, #KEYS do
              out[i] = redis.call('HMGET', KEYS[i], unpack(RECORD))
            end
            return out
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final String tag;
    private final InstantSource clock;
    private final long timeoutNanos;

    /**
     * @param connection the lease's connection to the Redis primary; never closed here
     * @param prefix the key prefix, checked by the builder (no braces)
     * @param clock the local clock that brackets each reading of the server's
     * @param callTimeout how long one command may take; one not answered by then is cancelled, so a
     *     reconnecting client never sends it late
     */
    RedisLeaseStore(StatefulRedisConnection<String, String> connection, String prefix, InstantSource clock,
            Duration callTimeout) {
        this.connection = connection;
        this.prefix = prefix;
        this.tag = "{" + prefix + "}";
        this.clock = clock;
        this.timeoutNanos = callTimeout.toNanos();
    }

    /** The same records over another connection: a copy of this process, in tests. */
    RedisLeaseStore on(StatefulRedisConnection<String, String> other) {
        return new RedisLeaseStore(other, prefix, clock, Duration.ofNanos(timeoutNanos));
    }

    String namespaceKey() {
        return tag + "namespace";
    }

    String idKey(long machineId) {
        return tag + machineId;
    }

    @Override
    public String describe() {
        return "under Redis key prefix " + prefix;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Without an append-only file a restart reloads an older snapshot or nothing: the reading then
     * carries the restart's time, from {@code uptime_in_seconds}. Redis counts that as the difference
     * of two whole-second readings, so it can exceed the real uptime by up to a second: the restart
     * is put a second later than it says, which only lengthens the wait.
     */
    @Override
    public StoreTime time() throws Exception {
        long before = clock.millis();
        List<Object> r = run(TIME, new String[] {namespaceKey()});
        long after = clock.millis();
        long now = Long.parseLong(text(r.get(0))) * 1000 + Long.parseLong(text(r.get(1))) / 1000;
        String up = text(r.get(2));
        String aof = text(r.get(3));
        if (up.isEmpty()) {
            throw new IllegalStateException("Redis's INFO server shows no uptime_in_seconds (lease records "
                    + describe() + "), so a restart that lost acknowledged writes cannot be told; the lease needs it");
        }
        long restartedAt = "1".equals(aof) ? Long.MIN_VALUE : now - Math.max(0, Long.parseLong(up) - 1) * 1000;
        return new StoreTime(now, before, after, restartedAt, true);
    }

    @Override
    public NamespaceRecord readNamespace() throws Exception {
        String key = namespaceKey();
        List<Object> f = new ArrayList<>();
        await(() -> connection.async().hmget(key, NAMESPACE)).forEach(kv -> f.add(kv.getValueOrElse(null)));
        if (f.get(2) == null) {
            return null;
        }
        return new NamespaceRecord(text(f.get(0)), num(f, 1, key, NAMESPACE), num(f, 2, key, NAMESPACE),
                num(f, 3, key, NAMESPACE));
    }

    @Override
    public boolean createNamespace(NamespaceRecord ns) throws Exception {
        return write(CREATE_NAMESPACE, List.of(namespaceKey()), fields(ns));
    }

    @Override
    public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
            throws Exception {
        if (fromId < 0 || toId - fromId >= 64) {
            throw new IllegalArgumentException("ids " + fromId + ".." + toId + ": from 0 up, at most 64 at once");
        }
        List<String> keys = new ArrayList<>();
        keys.add(namespaceKey());
        for (long id = fromId; id <= toId; id++) {
            keys.add(idKey(id));
        }
        List<String> args = new ArrayList<>(List.of(Long.toString(expectedNonce)));
        args.addAll(fields(next));
        args.addAll(fields(initial));
        return write(EXTEND, keys, args);
    }

    @Override
    public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws Exception {
        if (toId < fromId) {
            return Collections.emptySortedMap();
        }
        if (fromId < 0 || toId - fromId >= 1024) {
            throw new IllegalArgumentException("ids " + fromId + ".." + toId + ": from 0 up, at most 1,024 at once");
        }
        String[] keys = new String[(int) (toId - fromId + 1)];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = idKey(fromId + i);
        }
        List<Object> all = run(READ, keys);
        TreeMap<Long, LeaseRecord> found = new TreeMap<>();
        for (int i = 0; i < keys.length; i++) {
            @SuppressWarnings("unchecked")
            List<Object> f = (List<Object>) all.get(i);
            if (f.get(2) != null) {
                found.put(fromId + i, new LeaseRecord(text(f.get(0)), num(f, 1, keys[i], RECORD),
                        num(f, 2, keys[i], RECORD), num(f, 3, keys[i], RECORD), num(f, 4, keys[i], RECORD),
                        num(f, 5, keys[i], RECORD)));
            }
        }
        return Collections.unmodifiableSortedMap(found);
    }

    @Override
    public boolean replace(long id, long expectedNonce, LeaseRecord next) throws Exception {
        List<String> args = new ArrayList<>(List.of(Long.toString(expectedNonce)));
        args.addAll(fields(next));
        return write(REPLACE, List.of(idKey(id)), args);
    }

    /**
     * Sends a command and waits for its answer, at most the call timeout; one not answered by then is
     * cancelled (if still queued while the client reconnects, it is never sent).
     */
    private <T> T await(Supplier<RedisFuture<T>> send) throws Exception {
        RedisFuture<T> f = send.get(); // a closed connection refuses here, at once
        try {
            return f.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new TimeoutException("Redis did not answer within " + timeoutNanos / 1_000_000 + " ms (lease records "
                    + describe() + ")");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /**
     * {@return the server's {@code maxmemory-policy}, or {@code null} when {@code CONFIG} is refused
     * (renamed or forbidden, as on managed Redis services)}
     */
    String evictionPolicy() throws Exception {
        try {
            return await(() -> connection.async().configGet("maxmemory-policy")).get("maxmemory-policy");
        } catch (RedisCommandExecutionException e) {
            return null;
        }
    }

    /**
     * {@return whether keys of the lease before 0.1.0 exist under the prefix: {@code p{0}:token}
     * and {@code p{0}:mark} never expired, and the lowest id is the one claimed first}
     */
    boolean hasKeysOfTheOldLease() throws Exception {
        return await(() -> connection.async().exists(prefix + "{0}:token", prefix + "{0}:mark")) > 0;
    }

    private List<Object> run(String script, String[] keys) throws Exception {
        return await(() -> connection.async().<List<Object>>eval(script, ScriptOutputType.MULTI, keys));
    }

    /** Runs a writing script; whether it wrote (it answers 1). */
    private boolean write(String script, List<String> keys, List<String> args) throws Exception {
        Long r = await(() -> connection.async().<Long>eval(script, ScriptOutputType.INTEGER,
                keys.toArray(String[]::new), args.toArray(String[]::new)));
        return r != null && r == 1L;
    }

    private static List<String> fields(NamespaceRecord ns) {
        return List.of(ns.layout(), Long.toString(ns.highestId()), Long.toString(ns.nonce()),
                Long.toString(ns.trustedFromMillis()));
    }

    private static List<String> fields(LeaseRecord r) {
        return List.of(r.owner(), Long.toString(r.token()), Long.toString(r.nonce()), Long.toString(r.expiresMillis()),
                Long.toString(r.markMillis()), Long.toString(r.fenceOffsetMillis()));
    }

    private static String text(Object o) {
        return o == null ? "" : o.toString();
    }

    /** A field that must hold a decimal long; a hash someone else wrote is named, not misread. */
    private static long num(List<Object> fields, int i, String key, String[] names) {
        Object o = fields.get(i);
        try {
            return Long.parseLong(text(o));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Redis hash " + key + " holds " + (o == null ? "no" : "'" + o + "' as its")
                    + " field " + names[i] + ", not a whole number: it was not written by this lease; delete it or"
                    + " use another key prefix", e);
        }
    }
}
