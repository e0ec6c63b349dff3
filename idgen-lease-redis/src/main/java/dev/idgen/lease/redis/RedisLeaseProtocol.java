package dev.idgen.lease.redis;

import dev.idgen.machine.MachineIdLease;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The lease's conversation with Redis, and nothing else: claim, renew, release. Each is one Lua
 * script, so Redis runs it as one step: the claim is {@code SET NX} on the first absent key of a
 * run of ids, the renewal a compare-owner {@code SET XX}, the release a compare-and-delete. Every
 * script reads the server's {@code TIME} and sets the expiry at that time plus the TTL
 * ({@code PXAT}), so the expiry it returns is exactly the one Redis keeps, in Redis time. Each call
 * brackets the script with two local clock reads, for the skew. Thread-safe (no state but
 * configuration).
 *
 * <p>Keys of machine id {@code n} under prefix {@code p} (one hash slot per id):
 * <ul>
 *   <li>{@code p{n}} the lease: {@code "<token>/<owner>"}, expiring;</li>
 *   <li>{@code p{n}:token} the fencing-token counter ({@code INCR} on each claim), never expiring;</li>
 *   <li>{@code p{n}:mark} a hash, never expiring: {@code m} the high-water mark (Unix ms, only
 *       raised), {@code e} the last expiry written for the id.</li>
 * </ul>
 */
final class RedisLeaseProtocol {

    /** Ids per claim script: 3 keys each. */
    static final int CHUNK = 64;

    /*
     * now = TIME in ms; the first id of the run whose lease key is absent (or expired by Redis's
     * clock) gets a new token and the key, expiring at now + ttl. Its mark is raised to the fence the
     * last expiry written for the id allowed (e - (skew + margin) - 1): no earlier holder's ID can lie
     * above that. Returns {id or -1, token, expiry, mark or -1, now}.
     */
    private static final String CLAIM = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local exp = now + tonumber(ARGV[2])
            for i = 1, #KEYS, 3 do
              if redis.call('EXISTS', KEYS[i]) == 0 then
                local tok = redis.call('INCR', KEYS[i + 1])
                local ok = redis.call('SET', KEYS[i], string.format('%.0f', tok) .. '/' .. ARGV[1], 'NX',
                  'PXAT', string.format('%.0f', exp))
                if ok then
                  local m = tonumber(redis.call('HGET', KEYS[i + 2], 'm') or '-1')
                  local prev = redis.call('HGET', KEYS[i + 2], 'e')
                  if prev then
                    m = math.max(m, tonumber(prev) - tonumber(ARGV[3]))
                  end
                  if m >= 0 then
                    redis.call('HSET', KEYS[i + 2], 'm', string.format('%.0f', m))
                  end
                  redis.call('HSET', KEYS[i + 2], 'e', string.format('%.0f', exp))
                  return {tonumber(ARGV[4]) + (i - 1) / 3, tok, exp, m, now}
                end
              end
            end
            return {-1, 0, 0, -1, now}
            """;

    /*
     * Extends the lease to now + ttl if it still holds our value, and raises the mark. Returns
     * {1, expiry, mark or -1, now}, or {0, 0, -1, now} when the key is gone or another's.
     */
    private static final String RENEW = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then
              return {0, 0, -1, now}
            end
            local exp = now + tonumber(ARGV[2])
            redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PXAT', string.format('%.0f', exp))
            local m = math.max(tonumber(redis.call('HGET', KEYS[2], 'm') or '-1'), tonumber(ARGV[3]))
            if m >= 0 then
              redis.call('HSET', KEYS[2], 'm', string.format('%.0f', m))
            end
            redis.call('HSET', KEYS[2], 'e', string.format('%.0f', exp))
            return {1, exp, m, now}
            """;

    /*
     * Raises the mark (always: it only rises); deletes the lease and records its end as now if it
     * still holds our value. Returns 1 if it was ours.
     */
    private static final String RELEASE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local m = math.max(tonumber(redis.call('HGET', KEYS[2], 'm') or '-1'), tonumber(ARGV[2]))
            if m >= 0 then
              redis.call('HSET', KEYS[2], 'm', string.format('%.0f', m))
            end
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then
              return 0
            end
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[2], 'e', string.format('%.0f', now))
            return 1
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final String owner;
    private final long ttlMillis;
    /** expiry - this = the highest mark an earlier holder's fence can have left uncovered. */
    private final long claimMarkOffset;
    private final long timeoutNanos;
    private final InstantSource clock;

    RedisLeaseProtocol(StatefulRedisConnection<String, String> connection, String prefix, String owner, long ttlMillis,
            long fenceOffsetMillis, Duration commandTimeout, InstantSource clock) {
        this.connection = connection;
        this.prefix = prefix;
        this.owner = owner;
        this.ttlMillis = ttlMillis;
        this.claimMarkOffset = fenceOffsetMillis + 1;
        this.timeoutNanos = commandTimeout.toNanos();
        this.clock = clock;
    }

    String prefix() {
        return prefix;
    }

    String owner() {
        return owner;
    }

    /**
     * What one script found, with the local clock read just before it was sent and just after its
     * answer came.
     *
     * @param machineId the id (the claimed one, for a claim; -1 when none was free)
     * @param ok whether the write was made (claimed, renewed)
     * @param token the claim's fencing token
     * @param expiresMillis the expiry written, Redis time
     * @param mark the id's mark after the write, or {@link MachineIdLease#NO_MARK}
     * @param redisNowMillis Redis's {@code TIME} during the script
     */
    record Reply(long machineId, boolean ok, long token, long expiresMillis, long mark, long redisNowMillis,
            long localBefore, long localAfter) {
    }

    /** The value our claim with {@code token} wrote in the lease key. */
    String value(long token) {
        return token + "/" + owner;
    }

    String leaseKey(long machineId) {
        return prefix + "{" + machineId + "}";
    }

    String tokenKey(long machineId) {
        return leaseKey(machineId) + ":token";
    }

    String markKey(long machineId) {
        return leaseKey(machineId) + ":mark";
    }

    /**
     * Claims the first free id of {@code from..to} (at most {@link #CHUNK} ids).
     *
     * @return the reply; {@code ok} false when every id of the run is held
     */
    Reply claimFirstFree(long from, long to) throws RedisLeaseIoException {
        int n = (int) (to - from + 1);
        String[] keys = new String[3 * n];
        for (int i = 0; i < n; i++) {
            keys[3 * i] = leaseKey(from + i);
            keys[3 * i + 1] = tokenKey(from + i);
            keys[3 * i + 2] = markKey(from + i);
        }
        long before = clock.millis();
        List<Object> r = run(CLAIM, keys, owner, Long.toString(ttlMillis), Long.toString(claimMarkOffset),
                Long.toString(from));
        long after = clock.millis();
        long id = num(r, 0);
        return new Reply(id, id >= 0, num(r, 1), num(r, 2), mark(num(r, 3)), num(r, 4), before, after);
    }

    /** Extends our claim ({@code token}) on {@code machineId} by the TTL from Redis's now; records {@code mark}. */
    Reply renew(long machineId, long token, long mark) throws RedisLeaseIoException {
        long before = clock.millis();
        List<Object> r = run(RENEW, new String[] {leaseKey(machineId), markKey(machineId)}, value(token),
                Long.toString(ttlMillis), Long.toString(Math.max(-1, mark)));
        long after = clock.millis();
        return new Reply(machineId, num(r, 0) == 1, token, num(r, 1), mark(num(r, 2)), num(r, 3), before, after);
    }

    /** Records {@code mark}, and deletes our claim; false if the key was no longer ours. */
    boolean release(long machineId, long token, long mark) throws RedisLeaseIoException {
        Long r = await(() -> connection.async().eval(RELEASE, ScriptOutputType.INTEGER,
                new String[] {leaseKey(machineId), markKey(machineId)}, value(token), Long.toString(Math.max(-1, mark))));
        return r == 1L;
    }

    /**
     * A lower bound of Redis's uptime, from {@code INFO server}: a server that restarted without its
     * data may have forgotten live claims, so claims wait until it has been up at least the TTL.
     * Redis reports {@code uptime_in_seconds} as the difference of two whole-second clock readings,
     * which can exceed the real uptime by up to a second; so the real uptime is more than this.
     *
     * @return {@code (uptime_in_seconds - 1) * 1000}, at least 0
     */
    long uptimeAboveMillis() throws RedisLeaseIoException {
        String info = await(() -> connection.async().info("server"));
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("uptime_in_seconds:")) {
                long s = Long.parseLong(line.substring("uptime_in_seconds:".length()).trim());
                return Math.max(0, s - 1) * 1000;
            }
        }
        throw new RedisLeaseIoException("INFO server has no uptime_in_seconds", null);
    }

    private List<Object> run(String script, String[] keys, String... args) throws RedisLeaseIoException {
        return await(() -> connection.async().<List<Object>>eval(script, ScriptOutputType.MULTI, keys, args));
    }

    /** Sends the command and waits for its answer, at most the command timeout. */
    private <T> T await(Supplier<RedisFuture<T>> send) throws RedisLeaseIoException {
        RedisFuture<T> f;
        try {
            f = send.get();
        } catch (RuntimeException e) { // a closed connection refuses at once
            throw new RedisLeaseIoException(e.toString(), e);
        }
        try {
            return f.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true); // not sent yet (reconnecting): never sent late
            throw new RedisLeaseIoException("no answer within " + timeoutNanos / 1_000_000 + " ms", e);
        } catch (ExecutionException e) {
            throw new RedisLeaseIoException(String.valueOf(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.cancel(true);
            throw new RedisLeaseIoException("interrupted", e);
        }
    }

    private static long num(List<Object> r, int i) {
        return ((Number) r.get(i)).longValue();
    }

    private static long mark(long m) {
        return m < 0 ? MachineIdLease.NO_MARK : m;
    }

    /** Redis did not answer, or answered with an error. */
    static final class RedisLeaseIoException extends Exception {
        RedisLeaseIoException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
