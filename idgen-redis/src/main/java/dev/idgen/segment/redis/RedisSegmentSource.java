package dev.idgen.segment.redis;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Segment ranges from Redis: one integer key per name, {@code <prefix><name>}, moved on by
 * {@code INCRBY step}; the range is the {@code step} numbers up to the value it returns. The
 * increment and a read of the server's {@code TIME} run in one script, so each range comes with the
 * store's clock at the moment it was granted.
 *
 * <pre>{@code
 * RedisSegmentSource source = RedisSegmentSource.builder(connection).keyPrefix("idgen:segment:").build();
 * SegmentGenerator orders = SegmentGenerator.builder().source(source).name("orders").step(1000).build();
 * }</pre>
 *
 * <p><b>Durability is the server's.</b> Redis answers {@code INCRBY} before its data reaches disk;
 * a server that loses its data (no persistence, {@code appendfsync everysec} and a crash, a
 * failover to a replica that had not caught up) counts again from a lower value, and a process
 * started after that repeats numbers. A running generator refuses such a range (it lies below the
 * last one it held), a new one cannot know. Use {@code appendonly yes} with
 * {@code appendfsync always} and {@code WAIT} on replicated setups, or a database source, where
 * numbers must never repeat across such failures.
 */
public final class RedisSegmentSource implements SegmentSource {

    /** INCRBY first (a write), then TIME: the answer is {last, seconds, microseconds}. */
    private static final String GRANT = """
            local v = redis.call('INCRBY', KEYS[1], ARGV[1])
            local t = redis.call('TIME')
            return {v, tonumber(t[1]), tonumber(t[2])}
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final long timeoutNanos;

    private RedisSegmentSource(Builder b) {
        this.connection = b.connection;
        this.prefix = b.prefix;
        this.timeoutNanos = b.timeout.toNanos();
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
        String key = prefix + name;
        List<Object> r = await(() -> connection.async().<List<Object>>eval(GRANT, ScriptOutputType.MULTI,
                new String[] {key}, Long.toString(step)), "grant " + step + " numbers of '" + name + "' (INCRBY " + key
                        + ")");
        long last = ((Number) r.get(0)).longValue();
        Instant time = Instant.ofEpochSecond(((Number) r.get(1)).longValue(),
                ((Number) r.get(2)).longValue() * 1000);
        return new SegmentGrant(last - step + 1, last, time);
    }

    @Override
    public Instant now() {
        List<String> t = await(() -> connection.async().time(), "read the server's TIME");
        return Instant.ofEpochSecond(Long.parseLong(t.get(0)), Long.parseLong(t.get(1)) * 1000);
    }

    @Override
    public String describe() {
        return "redis key prefix " + prefix;
    }

    /** Sends the command and waits at most the timeout; a command not sent by then is cancelled. */
    private <T> T await(Supplier<RedisFuture<T>> send, String what) {
        RedisFuture<T> f;
        try {
            f = send.get();
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not " + what + " on " + describe() + ": " + e, e);
        }
        try {
            return f.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("could not " + what + " on " + describe() + ": no answer within "
                    + timeoutNanos / 1_000_000 + " ms", e);
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

        /** {@return the source; it does not contact the server until the first grant} */
        public RedisSegmentSource build() {
            return new RedisSegmentSource(this);
        }
    }
}
