package dev.idgen.lease.redis;

import dev.idgen.machine.MachineIdLease;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.security.SecureRandom;
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
 * run of ids, the renewal a compare-owner-and-nonce {@code SET XX}, the release a compare-and-delete.
 * Every script reads the server's {@code TIME} and sets the expiry at that time plus the TTL
 * ({@code PXAT}), so the expiry it returns is exactly the one Redis keeps, in Redis time. Each call
 * brackets the script with two local clock reads, for the skew. Thread-safe (no state but
 * configuration).
 *
 * <p>Keys of machine id {@code n} under prefix {@code p} (one hash slot per id):
 * <ul>
 *   <li>{@code p{n}} the lease: {@code "<token>/<owner>"}, expiring;</li>
 *   <li>{@code p{n}:token} the fencing-token counter ({@code INCR} on each claim), never expiring;</li>
 *   <li>{@code p{n}:mark} a hash, never expiring: {@code m} the high-water mark (Unix ms), {@code e}
 *       the last expiry written for the id (on a release: the instant below which the releasing
 *       holder's IDs lie, plus {@code o}), {@code o} the fence offset ({@code maxClockSkew +
 *       safetyMargin}) of the holder that wrote {@code e}, {@code n} the nonce of the claim in force,
 *       replaced by every renewal.</li>
 * </ul>
 *
 * <p>The fields of the hash live beside the lease key, not in its value, so a holder of an older
 * version (which compares only the value) and this one can share a prefix during a rolling upgrade.
 */
final class RedisLeaseProtocol {

    /** Ids per claim script: 3 keys each. */
    static final int CHUNK = 64;

    /*
     * now = TIME in ms; the first id of the run whose lease key is absent (or expired by Redis's
     * clock) gets a new token, a new nonce and the key, expiring at now + ttl. Its mark is set to
     *   max(min(m, now + S), e - min(O, o) - 1)
     * with S and O the claimer's skew bound and fence offset, m, e, o the record's: the recorded mark
     * is believed only up to now + S (a mark beyond that came from a clock outside the bound, and
     * would lock the id out), but never below the fence the last expiry allowed its writer (no ID of
     * that holder lies at or above e - o). Returns {id or -1, token, expiry, mark or -1, now}.
     */
    private static final String CLAIM = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local exp = now + tonumber(ARGV[2])
            local own = tonumber(ARGV[3])
            local cap = now + tonumber(ARGV[5])
            for i = 1, #KEYS, 3 do
              if redis.call('EXISTS', KEYS[i]) == 0 then
                local tok = redis.call('INCR', KEYS[i + 1])
                local ok = redis.call('SET', KEYS[i], string.format('%.0f', tok) .. '/' .. ARGV[1], 'NX',
                  'PXAT', string.format('%.0f', exp))
                if ok then
                  local m = math.min(tonumber(redis.call('HGET', KEYS[i + 2], 'm') or '-1'), cap)
                  local prev = redis.call('HGET', KEYS[i + 2], 'e')
                  if prev then
                    local o = math.min(own, tonumber(redis.call('HGET', KEYS[i + 2], 'o') or ARGV[3]))
                    m = math.max(m, tonumber(prev) - o - 1)
                  end
                  if m >= 0 then
                    redis.call('HSET', KEYS[i + 2], 'm', string.format('%.0f', m))
                  end
                  redis.call('HSET', KEYS[i + 2], 'e', string.format('%.0f', exp), 'o', ARGV[3], 'n', ARGV[6])
                  return {tonumber(ARGV[4]) + (i - 1) / 3, tok, exp, m, now}
                end
              end
            end
            return {-1, 0, 0, -1, now}
            """;

    /*
     * If the lease still holds our value and the record our nonce: extends the lease to now + ttl,
     * raises the mark to min(ours, now + S), writes e, our offset and a fresh nonce. Returns
     * {1, expiry, mark or -1, now}; {0, 0, -1, now} when the key is gone or another's; {2, 0, -1, now}
     * when the value is ours but the nonce is not: another copy of this process renewed first.
     */
    private static final String RENEW = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then
              return {0, 0, -1, now}
            end
            if redis.call('HGET', KEYS[2], 'n') ~= ARGV[4] then
              return {2, 0, -1, now}
            end
            local exp = now + tonumber(ARGV[2])
            redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PXAT', string.format('%.0f', exp))
            local mine = math.min(tonumber(ARGV[3]), now + tonumber(ARGV[6]))
            local m = math.max(tonumber(redis.call('HGET', KEYS[2], 'm') or '-1'), mine)
            if m >= 0 then
              redis.call('HSET', KEYS[2], 'm', string.format('%.0f', m))
            end
            redis.call('HSET', KEYS[2], 'e', string.format('%.0f', exp), 'o', ARGV[7], 'n', ARGV[5])
            return {1, exp, m, now}
            """;

    /*
     * Raises the mark to min(ours, now + S) (always: it only rises); if the lease still holds our
     * value and our nonce, deletes it and writes e = max(now, c + O + 1), c = min(our mark, e - O - 1):
     * the next claim's floor e - O - 1 then covers every ID we made below our fence, even those a
     * run-ahead generator stamped past now + S. Returns 1 if the lease was ours.
     */
    private static final String RELEASE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local mark = tonumber(ARGV[2])
            local m = math.max(tonumber(redis.call('HGET', KEYS[2], 'm') or '-1'),
              math.min(mark, now + tonumber(ARGV[3])))
            if m >= 0 then
              redis.call('HSET', KEYS[2], 'm', string.format('%.0f', m))
            end
            if redis.call('GET', KEYS[1]) ~= ARGV[1] or redis.call('HGET', KEYS[2], 'n') ~= ARGV[5] then
              return 0
            end
            local own = tonumber(ARGV[4])
            local covered = mark
            local prev = redis.call('HGET', KEYS[2], 'e')
            if prev then
              covered = math.min(mark, tonumber(prev) - own - 1)
            end
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[2], 'e', string.format('%.0f', math.max(now, covered + own + 1)), 'o', ARGV[4])
            return 1
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final String prefix;
    private final String owner;
    private final long ttlMillis;
    /** maxClockSkew + safetyMargin: how far before an expiry this holder's fence stands. */
    private final long fenceOffsetMillis;
    private final long maxClockSkewMillis;
    private final long timeoutNanos;
    private final InstantSource clock;

    RedisLeaseProtocol(StatefulRedisConnection<String, String> connection, String prefix, String owner, long ttlMillis,
            long fenceOffsetMillis, long maxClockSkewMillis, Duration commandTimeout, InstantSource clock) {
        this.connection = connection;
        this.prefix = prefix;
        this.owner = owner;
        this.ttlMillis = ttlMillis;
        this.fenceOffsetMillis = fenceOffsetMillis;
        this.maxClockSkewMillis = maxClockSkewMillis;
        this.timeoutNanos = commandTimeout.toNanos();
        this.clock = clock;
    }

    /** The same conversation, as the same owner, over another connection (a copy of the process, in tests). */
    RedisLeaseProtocol on(StatefulRedisConnection<String, String> other) {
        return new RedisLeaseProtocol(other, prefix, owner, ttlMillis, fenceOffsetMillis, maxClockSkewMillis,
                Duration.ofNanos(timeoutNanos), clock);
    }

    String prefix() {
        return prefix;
    }

    String owner() {
        return owner;
    }

    /** What a script found. */
    enum Status {
        /** Claimed, or renewed. */
        DONE,
        /** No id of the run was free (claim), or the key is gone or another holder's (renewal). */
        NOT_OURS,
        /** The key holds our owner and token but the record another nonce: a copy of this process renewed. */
        COPIED
    }

    /**
     * What one script found, with the local clock read just before it was sent and just after its
     * answer came.
     *
     * @param machineId the id (the claimed one, for a claim; -1 when none was free)
     * @param status what the script did
     * @param token the claim's fencing token
     * @param nonce the nonce the script wrote (ours from now on, if {@code status} is DONE)
     * @param expiresMillis the expiry written, Redis time
     * @param mark the id's mark after the write, or {@link MachineIdLease#NO_MARK}
     * @param redisNowMillis Redis's {@code TIME} during the script
     * @param sentNanos {@code System.nanoTime()} just before the script was sent
     */
    record Reply(long machineId, Status status, long token, String nonce, long expiresMillis, long mark,
            long redisNowMillis, long localBefore, long localAfter, long sentNanos) {

        boolean ok() {
            return status == Status.DONE;
        }
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
        String nonce = freshNonce();
        long sent = System.nanoTime();
        long before = clock.millis();
        List<Object> r = run(CLAIM, keys, owner, Long.toString(ttlMillis), Long.toString(fenceOffsetMillis),
                Long.toString(from), Long.toString(maxClockSkewMillis), nonce);
        long after = clock.millis();
        long id = num(r, 0);
        return new Reply(id, id >= 0 ? Status.DONE : Status.NOT_OURS, num(r, 1), nonce, num(r, 2), mark(num(r, 3)),
                num(r, 4), before, after, sent);
    }

    /** Who holds a key: its value ({@code "<token>/<owner>"}, empty if absent) and its expiry by Redis's clock. */
    record Holder(String value, long expiresMillis, boolean live) {
    }

    /** Reads the lease key of {@code machineId}, its remaining TTL and Redis's time, in one script. */
    Holder holder(long machineId) throws RedisLeaseIoException {
        List<Object> r = run(HOLDER, new String[] {leaseKey(machineId)});
        Object v = r.get(0);
        long pttl = num(r, 1);
        long now = num(r, 2);
        return new Holder(v instanceof String str ? str : "", pttl > 0 ? now + pttl : now, pttl > 0);
    }

    private static final String HOLDER = "local v = redis.call('GET', KEYS[1])\n"
            + "local t = redis.call('TIME')\n"
            + "return {v or '', redis.call('PTTL', KEYS[1]),"
            + " tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)}";

    /**
     * Claims the lowest free id of {@code 0..maxMachineId}, a run of {@link #CHUNK} ids per script.
     *
     * @return the claim, or {@code null} when every id is held
     */
    Reply claimLowestFree(long maxMachineId) throws RedisLeaseIoException {
        for (long from = 0; from <= maxMachineId; from += CHUNK) {
            Reply r = claimFirstFree(from, Math.min(maxMachineId, from + CHUNK - 1));
            if (r.ok()) {
                return r;
            }
        }
        return null;
    }

    /**
     * Extends our claim ({@code token}, with the record holding {@code nonce}) on {@code machineId} by
     * the TTL from Redis's now, records {@code mark} (at most Redis's now plus the skew bound) and a
     * fresh nonce.
     */
    Reply renew(long machineId, long token, String nonce, long mark) throws RedisLeaseIoException {
        String next = freshNonce();
        long sent = System.nanoTime();
        long before = clock.millis();
        List<Object> r = run(RENEW, new String[] {leaseKey(machineId), markKey(machineId)}, value(token),
                Long.toString(ttlMillis), Long.toString(Math.max(-1, mark)), nonce, next,
                Long.toString(maxClockSkewMillis), Long.toString(fenceOffsetMillis));
        long after = clock.millis();
        long code = num(r, 0);
        Status status = code == 1 ? Status.DONE : code == 2 ? Status.COPIED : Status.NOT_OURS;
        return new Reply(machineId, status, token, next, num(r, 1), mark(num(r, 2)), num(r, 3), before, after, sent);
    }

    /**
     * Records {@code mark} (at most Redis's now plus the skew bound), and deletes our claim; false if
     * the key was no longer ours (another holder's, or our owner and token with another copy's nonce).
     */
    boolean release(long machineId, long token, String nonce, long mark) throws RedisLeaseIoException {
        Long r = await(() -> connection.async().eval(RELEASE, ScriptOutputType.INTEGER,
                new String[] {leaseKey(machineId), markKey(machineId)}, value(token), Long.toString(Math.max(-1, mark)),
                Long.toString(maxClockSkewMillis), Long.toString(fenceOffsetMillis), nonce));
        return r == 1L;
    }

    /**
     * A new nonce. Safety does not rest on two copies of one process drawing different ones (a copy
     * adopts a nonce only after its own compare-and-set wrote it); the random bits only make a
     * repeat of an earlier nonce of the record, which would let a stale copy renew, unlikely (2^-64).
     */
    private static String freshNonce() {
        return Long.toHexString(NONCES.nextLong());
    }

    private static final SecureRandom NONCES = new SecureRandom();

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
