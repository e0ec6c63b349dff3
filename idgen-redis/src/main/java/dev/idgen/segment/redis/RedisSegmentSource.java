package dev.idgen.segment.redis;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.segment.spi.SegmentStoreRefusedException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Segment ranges from Redis: one integer key per name, {@code <prefix><name>}, moved on by
 * {@code INCRBY step}; the range is the {@code step} numbers up to the value it returns. The
 * increment, the namespace record and a read of the server's {@code TIME} run in one script, so
 * each range comes with the store's clock at the moment it was granted.
 *
 * <pre>{@code
 * RedisSegmentSource source = RedisSegmentSource.builder(connection).keyPrefix("idgen:segment:").build();
 * SegmentGenerator orders = SegmentGenerator.builder().source(source).name("orders").step(1000).build();
 * }</pre>
 *
 * <p><b>What a grant survives.</b> Redis answers a write before it reaches the disk unless told
 * otherwise, so the source makes sure of it, and refuses the server
 * ({@link SegmentStoreRefusedException}, naming the setting) when it cannot:
 * <ul>
 *   <li>Before the first grant it reads {@code INFO}: the append-only file must be on
 *       ({@code appendonly yes}; without it a restart or crash sets every counter back to the last
 *       RDB snapshot, or to nothing) and {@code maxmemory-policy} must not be an {@code allkeys-*}
 *       policy (which may evict a counter).</li>
 *   <li>On Redis 7.2 or later each grant is followed, on the same connection, by
 *       {@code WAITAOF 1 0 timeout}: the range is used only once the server says the write is in
 *       the append-only file on its disk, whatever {@code appendfsync} says. (The connection is
 *       held for up to a second meanwhile with {@code appendfsync everysec}: give the source a
 *       connection of its own if others share it.)</li>
 *   <li>Before 7.2 there is no {@code WAITAOF}: each grant first reads {@code CONFIG GET
 *       *append*} (in the same round trip) and goes on only with {@code appendfsync always} and
 *       {@code no-appendfsync-on-rewrite no}, with which the server writes and syncs the file
 *       before it sends any answer (Redis's {@code beforeSleep} flushes the AOF before it writes
 *       replies; {@code src/server.c} and {@code src/aof.c}). A server whose {@code CONFIG} is
 *       disabled cannot show this and is refused.</li>
 * </ul>
 * {@link Builder#allowLossyStore(boolean)} skips all of this, for a cache-only Redis in tests.
 *
 * <p><b>A lost counter fails closed.</b> The key at the prefix itself (names are never empty, so no
 * counter has it) is the namespace record: a hash whose field {@code counter:<name>} holds the last
 * value granted for each name, written by the same script as the counter. A grant finds:
 * <ul>
 *   <li>counter and record both there, the counter at or above the record: normal (a counter
 *       raised by hand is taken as it is, and the record follows it);</li>
 *   <li>the counter missing but on record (deleted, evicted), or below its record (set back by
 *       hand, a partial restore): refused, naming the value on record and the command that sets
 *       the counter to it;</li>
 *   <li>the counter there and not on record (made by hand, or by an earlier idgen): taken as it is;</li>
 *   <li>both missing: a new name. The store alone cannot tell this from a server that lost
 *       everything (a flush, a restart without persistence, a wiped disk); the checks above refuse
 *       servers that lose data on a restart, a running generator refuses a range below the last one
 *       it held, and a flush or restore is an operator's act: raise the counters after it.</li>
 * </ul>
 * The field {@code pattern:<name>} records the pattern of business numbers ({@link #recordPattern}).
 * A failover to a replica that had not received the last grants is not covered.
 */
public final class RedisSegmentSource implements SegmentSource {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSegmentSource.class);

    /**
     * KEYS: counter, namespace record; ARGV: step, record field. The answer is {last, seconds,
     * microseconds}, or {0, why, counter, recorded} when the counter was lost. Values are compared
     * and copied as decimal text: Lua's numbers are doubles and lose digits above 2^53.
     */
    private static final String GRANT = """
            local function below(a, b)
              if string.sub(a, 1, 1) == '-' then return true end
              if #a ~= #b then return #a < #b end
              return a < b
            end
            local recorded = redis.call('HGET', KEYS[2], ARGV[2])
            local current = redis.call('GET', KEYS[1])
            if current then
              if recorded and below(current, recorded) then return {0, 'below', current, recorded} end
            elseif recorded then
              return {0, 'missing', '', recorded}
            end
            redis.call('INCRBY', KEYS[1], ARGV[1])
            local last = redis.call('GET', KEYS[1])
            redis.call('HSET', KEYS[2], ARGV[2], last)
            local t = redis.call('TIME')
            return {last, t[1], t[2]}
            """;

    /** KEYS: namespace record; ARGV: field, pattern. The answer is the pattern on record. */
    private static final String PATTERN = """
            redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
            return redis.call('HGET', KEYS[1], ARGV[1])
            """;

    /** {@code WAITAOF numlocal numreplicas timeout} (Redis 7.2), which Lettuce has no method for. */
    private static final ProtocolKeyword WAITAOF = new ProtocolKeyword() {
        private final byte[] bytes = "WAITAOF".getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return "WAITAOF";
        }
    };

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final long timeoutNanos;
    private final boolean allowLossyStore;
    /** Null until the server was checked; then whether it has WAITAOF (7.2 or later). */
    private volatile Boolean waitAof;

    private RedisSegmentSource(Builder b) {
        this.connection = b.connection;
        this.prefix = b.prefix;
        this.timeoutNanos = b.timeout.toNanos();
        this.allowLossyStore = b.allowLossyStore;
    }

    /**
     * @param connection a connection to the server (shared with other users is fine; the source
     *     does not close it)
     * @return a builder, key prefix {@code idgen:segment:}, timeout 2 s
     */
    public static Builder builder(StatefulRedisConnection<String, String> connection) {
        return new Builder(connection);
    }

    @Override
    public SegmentGrant grant(String name, long step) {
        SegmentGenerator.checkName(name);
        SegmentGenerator.checkStep(step);
        Boolean aof = waitAof;
        if (aof == null && !allowLossyStore) {
            checkStore();
            aof = waitAof;
        }
        String key = prefix + name;
        String what = "grant " + step + " numbers of '" + name + "' (INCRBY " + key + ")";
        RedisAsyncCommands<String, String> async = connection.async();
        // pipelined: the settings read (before 7.2), the script, WAITAOF (7.2 on): one round trip
        RedisFuture<Map<String, String>> settings = allowLossyStore || aof ? null : async.configGet("*append*");
        RedisFuture<List<Object>> script = async.eval(GRANT, ScriptOutputType.MULTI, new String[] {key, prefix},
                Long.toString(step), "counter:" + name);
        RedisFuture<List<Long>> synced = allowLossyStore || !aof ? null
                : async.dispatch(WAITAOF, new IntegerListOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8)
                        .add(1).add(0).add(Math.max(1, timeoutNanos / 1_000_000)));
        if (settings != null) {
            List<String> found = appendFindings(await(settings, "read the AOF settings (CONFIG GET *append*)"));
            if (!found.isEmpty()) {
                await(script, what); // let it finish, then drop its range: a gap, never a repeat
                throw refused(found);
            }
        }
        List<Object> r = await(script, what);
        if (r.get(0) instanceof Number refusal && refusal.longValue() == 0) {
            throw lost(name, key, String.valueOf(r.get(1)), String.valueOf(r.get(2)), String.valueOf(r.get(3)));
        }
        if (synced != null) {
            List<Long> acks = awaitSync(synced);
            if (acks.isEmpty() || acks.get(0) < 1) {
                throw new SegmentStoreRefusedException(describe() + ": the grant of '" + name + "' did not reach the"
                        + " append-only file on disk within " + timeoutNanos / 1_000_000 + " ms (WAITAOF answered "
                        + acks + "); its range is dropped. Is appendfsync no? Set appendfsync everysec or always");
            }
        }
        long last = Long.parseLong(String.valueOf(r.get(0)));
        Instant time = Instant.ofEpochSecond(Long.parseLong(String.valueOf(r.get(1))),
                Long.parseLong(String.valueOf(r.get(2))) * 1000);
        return new SegmentGrant(last - step + 1, last, time);
    }

    private SegmentStoreRefusedException lost(String name, String key, String why, String current, String recorded) {
        String found = why.equals("missing") ? "is missing" : "is at " + current + ", below";
        return new SegmentStoreRefusedException("redis counter '" + name + "' (key " + key + ") " + found
                + (why.equals("missing") ? ", but" : "") + " the namespace record " + prefix + " says it granted up to "
                + recorded + (why.equals("missing")
                        ? ": the key was deleted, evicted or lost while the record was kept"
                        : ": it was set back (a hand edit, a restore of part of the data)")
                + ". Numbers up to " + recorded + " may be in use, so none are granted; set the key to at least "
                + recorded + " (SET " + key + " " + recorded + ") to go on");
    }

    /**
     * Reads the server's {@code INFO} and refuses it if it would lose a grant: no append-only file,
     * an {@code allkeys-*} eviction policy, or (before Redis 7.2, which has no {@code WAITAOF}) an
     * {@code appendfsync} other than {@code always}, {@code no-appendfsync-on-rewrite yes}, or no
     * {@code CONFIG} to read them with. {@link #grant} runs it before its first grant.
     *
     * @throws SegmentStoreRefusedException naming every setting found, unless the builder allowed
     *     a lossy store
     */
    @Override
    public void checkStore() {
        if (allowLossyStore) {
            return;
        }
        Map<String, String> info = parseInfo(await(connection.async().info(), "read the server's INFO"));
        List<String> found = new ArrayList<>();
        String version = info.getOrDefault("redis_version", "0");
        if (!"1".equals(info.get("aof_enabled"))) {
            found.add("appendonly is no (the counters live in memory and in RDB snapshots at most, so a restart or"
                    + " crash sets them back; set appendonly yes)");
        }
        String policy = info.getOrDefault("maxmemory_policy", "noeviction");
        if (policy.startsWith("allkeys-")) {
            found.add("maxmemory-policy is " + policy + " (it may evict a counter; set noeviction, or a volatile-*"
                    + " policy: the counters never expire)");
        }
        boolean hasWaitAof = atLeast(version, 7, 2);
        if (!hasWaitAof && found.isEmpty()) {
            Map<String, String> append;
            try {
                append = await(connection.async().configGet("*append*"), "read the AOF settings (CONFIG GET *append*)");
            } catch (IllegalStateException e) {
                throw refused(List.of("this server (" + version + ") has no WAITAOF and its AOF settings cannot be read ("
                        + e.getMessage() + "), so no grant can be shown to be on disk before it is used; use Redis 7.2"
                        + " or later, or allow CONFIG GET"));
            }
            found.addAll(appendFindings(append));
        }
        if (!found.isEmpty()) {
            throw refused(found);
        }
        if (!hasWaitAof) {
            LOG.info("{}: Redis {} has no WAITAOF; each grant checks appendfsync always instead", describe(), version);
        }
        waitAof = hasWaitAof;
    }

    private static List<String> appendFindings(Map<String, String> config) {
        List<String> found = new ArrayList<>();
        if (!"yes".equals(config.get("appendonly"))) {
            found.add("appendonly is " + config.get("appendonly") + " (set appendonly yes)");
        }
        if (!"always".equals(config.get("appendfsync"))) {
            found.add("appendfsync is " + config.get("appendfsync") + " and this server has no WAITAOF (Redis 7.2),"
                    + " so a write is acknowledged before it reaches the disk and a crash can lose the last grants; set"
                    + " appendfsync always, or use Redis 7.2 or later");
        }
        if ("yes".equals(config.get("no-appendfsync-on-rewrite"))) {
            found.add("no-appendfsync-on-rewrite is yes (writes are not synced while a rewrite runs; set it to no)");
        }
        return found;
    }

    private SegmentStoreRefusedException refused(List<String> found) {
        return new SegmentStoreRefusedException(describe() + " is refused: it may lose a grant after acknowledging it,"
                + " and numbers would then repeat: " + String.join("; ", found) + ". Change the setting, or accept such"
                + " a store with allowLossyStore(true)");
    }

    private static Map<String, String> parseInfo(String info) {
        Map<String, String> m = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                m.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return m;
    }

    static boolean atLeast(String version, int major, int minor) {
        String[] parts = version.split("\\.");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false; // an unreadable version is treated as old: its grants are checked the old way
        }
    }

    /**
     * Records the pattern in the namespace record's field {@code pattern:<name>} ({@code HSETNX}),
     * unless one is there, and reads the one there back.
     */
    @Override
    public String recordPattern(String name, String pattern) {
        SegmentGenerator.checkName(name);
        Objects.requireNonNull(pattern, "pattern");
        return await(connection.async().eval(PATTERN, ScriptOutputType.VALUE, new String[] {prefix},
                "pattern:" + name, pattern), "record pattern " + pattern + " of '" + name + "' (HSETNX " + prefix + ")");
    }

    @Override
    public Instant now() {
        List<String> t = await(connection.async().time(), "read the server's TIME");
        return Instant.ofEpochSecond(Long.parseLong(t.get(0)), Long.parseLong(t.get(1)) * 1000);
    }

    @Override
    public String describe() {
        return "redis key prefix " + prefix;
    }

    private List<Long> awaitSync(RedisFuture<List<Long>> synced) {
        try {
            // the server waits up to the timeout itself: give its answer as long again to arrive
            return await(synced, "wait for the grant to reach the append-only file (WAITAOF)", 2 * timeoutNanos);
        } catch (IllegalStateException e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("appendonly is disabled")) {
                throw refused(List.of("appendonly is no (WAITAOF: " + e.getCause() + "; set appendonly yes)"));
            }
            throw e;
        }
    }

    private <T> T await(RedisFuture<T> f, String what) {
        return await(f, what, timeoutNanos);
    }

    /** Waits at most {@code nanos} for a command sent; cancels it when no answer came. */
    private <T> T await(RedisFuture<T> f, String what, long nanos) {
        try {
            return f.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("could not " + what + " on " + describe() + ": no answer within "
                    + nanos / 1_000_000 + " ms", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not " + what + " on " + describe() + ": " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new IllegalStateException("interrupted while trying to " + what + " on " + describe(), e);
        }
    }

    /** Configures a {@link RedisSegmentSource}. */
    public static final class Builder {
        private final StatefulRedisConnection<String, String> connection;
        private String prefix = "idgen:segment:";
        private Duration timeout = Duration.ofSeconds(2);
        private boolean allowLossyStore;

        private Builder(StatefulRedisConnection<String, String> connection) {
            this.connection = Objects.requireNonNull(connection, "connection");
        }

        /**
         * @param prefix put before each name to make its key; 1 to 64 printable characters without
         *     spaces; default {@code idgen:segment:}
         * @return this
         * @throws IllegalArgumentException for another prefix
         */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            if (prefix.isEmpty() || prefix.length() > 64 || !prefix.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                throw new IllegalArgumentException("key prefix '" + prefix
                        + "' must be 1 to 64 printable ASCII characters without spaces");
            }
            this.prefix = prefix;
            return this;
        }

        /**
         * @param timeout the longest one command waits for its answer, 1 ms to 1 min; default 2 s
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
         * Accepts a server that may lose an acknowledged grant (no append-only file, no sync before
         * the answer, an eviction policy that may take a counter): the source then neither checks
         * the server nor waits for the disk. After a restart or crash of such a server its counters
         * can go back, and processes started then repeat numbers. For caches in tests only.
         *
         * @param allow true to skip the checks; default false
         * @return this
         */
        public Builder allowLossyStore(boolean allow) {
            this.allowLossyStore = allow;
            return this;
        }

        /** {@return the source; it does not contact the server until the first grant (or {@code checkStore()})} */
        public RedisSegmentSource build() {
            return new RedisSegmentSource(this);
        }
    }
}
