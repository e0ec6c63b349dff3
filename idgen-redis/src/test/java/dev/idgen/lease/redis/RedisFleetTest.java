package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseFleet;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's {@link LeaseFleet} on a private {@code redis-server}: each member has its own
 * connection and renewal thread, as separate processes would; a death closes the connection. The
 * renewal load is Redis's own count of {@code EVAL} calls ({@code INFO commandstats}: a renewal is
 * two, the clock and the write); the store's expiry of a dead holder is the {@code expires} field
 * of its record. About 35 s on a loaded 2-core machine, so tagged {@code slow}. 200 claimers by default; {@code -Didgen.test.fleet.claimers=1000} for the large
 * setting.
 */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RedisFleetTest {

    /**
     * ttl 10 s, renew 2 s, margin 1 s, skew 1 s: headroom 3 s. (The 3 s ttl of the other tests, with
     * 1.1 s of headroom, fenced healthy holders at 1,000 claimers on two shared cores: the claimers'
     * own threads, not Redis, were late.)
     */
    private static RedisMachineIdLease.Builder timings(RedisMachineIdLease.Builder b) {
        return b.ttl(Duration.ofSeconds(10)).renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .maxClockSkew(Duration.ofSeconds(1));
    }

    @Test
    void aFleetClaimsDistinctIdsAndIdsOfHoldersThatDieAreReclaimedOnlyAfterExpiry() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisCommands<String, String> admin = redis.connect().sync();
            RedisLeaseStore store = redis.newStore(redis.connect());
            server.awaitUptimeAbove(Duration.ofSeconds(10)); // the fresh server's restart is a ttl behind, once
            LeaseFleet.Result r = LeaseFleet.run("Redis", new LeaseFleet.Backend() {
                @Override
                public LeaseFleet.Member member(int index, long maxMachineId) {
                    StatefulRedisConnection<String, String> c = redis.connect(); // its own, as a process has
                    RedisMachineIdLease.Builder b = timings(RedisMachineIdLease.builder(c)).keyPrefix(redis.prefix)
                            .maxMachineId(maxMachineId).owner("fleet-" + index);
                    // a death closes the connection: renewals fail from then on; nothing is released
                    return LeaseFleet.member(() -> TestRedis.acquire(b), c::close, () -> true);
                }

                @Override
                public long serverOps() {
                    return evalCalls(admin);
                }

                @Override
                public String opsName() {
                    return "EVAL";
                }

                @Override
                public long serverExpiryMillis(FencingLease dead) {
                    return Long.parseLong(admin.hget(store.idKey(dead.machineId()), "expires"));
                }
            }, LeaseFleet.Settings.forTtl(Duration.ofSeconds(10)));
            System.out.println(r);
            assertTrue(r.minServerMarginMillis() > 0, r.toString());
        }
    }

    private static long evalCalls(RedisCommands<String, String> admin) {
        for (String line : admin.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_eval:")) {
                String v = line.substring(line.indexOf("calls=") + "calls=".length());
                return Long.parseLong(v.substring(0, v.indexOf(',')));
            }
        }
        return 0;
    }
}
