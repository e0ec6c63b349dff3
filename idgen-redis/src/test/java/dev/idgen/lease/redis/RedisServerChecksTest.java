package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.StoreTime;
import dev.idgen.machine.MachineIdLeaseException;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the builder checks of the server before it claims, on private {@code redis-server}s whose
 * configuration the tests set: the eviction policy (and the opt-in that accepts an evicting one),
 * a server that refuses {@code CONFIG}, keys of the lease before 0.1.0, and whether the server's
 * clock reading carries its restart (no append-only file) or not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisServerChecksTest {

    /** The lease made but not claimed: {@code newLease()} runs every check, and claims nothing. */
    private static RedisMachineIdLease check(RedisMachineIdLease.Builder b) {
        RedisMachineIdLease lease = b.newLease();
        lease.close();
        return lease;
    }

    @Test
    void anEvictingPolicyIsRefusedUnlessAcceptedAndTheOthersAreNot() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisCommands<String, String> admin = redis.connect().sync();
            RedisMachineIdLease.Builder b = RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix);
            check(b); // noeviction, Redis's default
            for (String policy : new String[] {"allkeys-lru", "allkeys-lfu", "allkeys-random"}) {
                admin.configSet("maxmemory-policy", policy);
                MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> check(b));
                assertEquals("Redis runs maxmemory-policy " + policy + ", which may evict the lease's records (they"
                        + " have no time to live) under Redis key prefix " + redis.prefix + "; a lease whose record was"
                        + " evicted stops making IDs for up to a ttl. Use noeviction or a volatile-* policy, a Redis of"
                        + " its own for the leases, or accept it with acceptEviction(true)", e.getMessage());
            }
            check(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix).acceptEviction(true));
            for (String policy : new String[] {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}) {
                admin.configSet("maxmemory-policy", policy);
                check(b); // they evict only keys with a time to live, and the lease's have none
            }
        }
    }

    @Test
    void aServerThatRefusesConfigIsUsedWithAWarning() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server("--rename-command", "CONFIG", "");
                TestRedis redis = server.redis()) {
            assertEquals(null, new RedisLeaseStore(redis.connect(), redis.prefix, InstantSource.system(),
                    Duration.ofSeconds(5)).evictionPolicy(), "CONFIG is refused");
            check(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix));
        }
    }

    @Test
    void keysOfTheLeaseBefore010UnderThePrefixAreRefused() throws Exception {
        try (TestRedis redis = TestRedis.shared("old")) {
            redis.connect().sync().set(redis.prefix + "{0}:token", "4");
            MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                    () -> check(RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix)));
            String p = redis.prefix;
            assertEquals("Keys of the Redis lease before 0.1.0 exist under key prefix " + p + " (" + p + "{0}:token, "
                    + p + "{0}:mark): leases of both versions on one prefix would hand out the same machine ids. Stop"
                    + " every holder of the old version first, then delete its keys (" + p + "{<id>}, ...:token,"
                    + " ...:mark) or give this version another prefix", e.getMessage());
        }
    }

    @Test
    void theClockReadingCarriesTheRestartOnlyWithoutAnAppendOnlyFile() throws Exception {
        try (TestRedis.Server plain = new TestRedis.Server(); TestRedis redis = plain.redis();
                TestRedis.Server aof = new TestRedis.Server("--appendonly", "yes"); TestRedis redisAof = aof.redis()) {
            long beforeStart = System.currentTimeMillis();
            plain.stop();
            plain.start();
            StoreTime t = new RedisLeaseStore(redis.connect(), redis.prefix, InstantSource.system(),
                    Duration.ofSeconds(5)).time();
            // a second after what uptime_in_seconds says, so never before the restart happened
            assertTrue(t.restartedAtMillis() >= beforeStart && t.restartedAtMillis() <= t.storeMillis(),
                    "restarted at " + t.restartedAtMillis() + ", stopped at " + beforeStart + ", now " + t.storeMillis());
            StoreTime withAof = new RedisLeaseStore(redisAof.connect(), redisAof.prefix, InstantSource.system(),
                    Duration.ofSeconds(5)).time();
            assertEquals(Long.MIN_VALUE, withAof.restartedAtMillis());
        }
    }
}
