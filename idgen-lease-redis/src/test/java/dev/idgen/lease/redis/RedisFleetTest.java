package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fleet of claimers in one JVM on a private {@code redis-server}, each with its own connection
 * and renewal thread, as separate processes would be: all get distinct ids, one more is refused
 * naming the space, the renewal load is measured, and 100 holders that die at once have their ids
 * claimed again only after Redis expired them. 200 claimers by default; {@code
 * -Didgen.test.fleet.claimers=1000} for the large setting.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RedisFleetTest {

    private static final int CLAIMERS = Integer.getInteger("idgen.test.fleet.claimers", 200);
    private static final int DIE = Math.min(100, CLAIMERS / 2);

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
            long max = CLAIMERS - 1;
            // the fresh server's first ttl passes once, here, not in every claimer
            timings(RedisMachineIdLease.builder(redis.connect())).keyPrefix(redis.prefix + "warm:")
                    .acquire().close();
            List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
            for (int i = 0; i < CLAIMERS; i++) {
                connections.add(redis.connect());
            }
            ExecutorService pool = Executors.newFixedThreadPool(8);
            long start = System.nanoTime();
            List<Future<RedisMachineIdLease>> claims = new ArrayList<>();
            for (int i = 0; i < CLAIMERS; i++) {
                StatefulRedisConnection<String, String> c = connections.get(i);
                claims.add(pool.submit(() -> timings(RedisMachineIdLease.builder(c))
                        .keyPrefix(redis.prefix).maxMachineId(max).acquire()));
            }
            List<RedisMachineIdLease> leases = new ArrayList<>();
            for (Future<RedisMachineIdLease> f : claims) {
                leases.add(f.get());
            }
            long allClaimedMillis = (System.nanoTime() - start) / 1_000_000;
            Set<Long> ids = new TreeSet<>();
            leases.forEach(l -> ids.add(l.machineId()));
            assertEquals(CLAIMERS, ids.size(), "every claimer has an id of its own");
            assertEquals(max, ((TreeSet<Long>) ids).last());

            MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class,
                    () -> timings(RedisMachineIdLease.builder(redis.connect())).keyPrefix(redis.prefix)
                            .maxMachineId(max).acquire());
            assertTrue(full.getMessage().startsWith("Every machine id of the machine-id space 0.." + max), full.getMessage());
            assertTrue(full.getMessage().contains("widen the space"), full.getMessage());

            // steady renewal load: every holder renews every 2 s
            long evals0 = evalCalls(admin);
            long t0 = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(6));
            double evalsPerSecond = (evalCalls(admin) - evals0) * 1e9 / (System.nanoTime() - t0);
            double usecPerCall = evalUsecPerCall(admin);
            long lost = leases.stream().filter(l -> !l.isHeld()).count();
            assertEquals(0, lost, "no healthy holder was fenced under the fleet's load");

            // DIE holders die at once: their connections close, no release
            Map<Long, RedisMachineIdLease> dead = new HashMap<>();
            for (int i = 0; i < DIE; i++) {
                dead.put(leases.get(i).machineId(), leases.get(i));
                connections.get(i).close();
            }
            long died = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // in-flight renewals land or fail
            Map<Long, Long> expiry = new HashMap<>();
            for (long id : dead.keySet()) {
                expiry.put(id, admin.pexpiretime(redis.prefix + "{" + id + "}"));
            }
            Map<Long, Long> reclaimedAt = new ConcurrentHashMap<>();
            List<String> early = Collections.synchronizedList(new ArrayList<>());
            List<Future<RedisMachineIdLease>> again = new ArrayList<>();
            ExecutorService claimers = Executors.newFixedThreadPool(DIE);
            for (int i = 0; i < DIE; i++) {
                StatefulRedisConnection<String, String> c = redis.connect();
                again.add(claimers.submit(() -> {
                    while (true) {
                        try {
                            RedisMachineIdLease l = timings(RedisMachineIdLease.builder(c))
                                    .keyPrefix(redis.prefix).maxMachineId(max).acquire();
                            long now = System.currentTimeMillis();
                            reclaimedAt.put(l.machineId(), now);
                            Long e = expiry.get(l.machineId());
                            if (e == null || now <= e || now < dead.get(l.machineId()).fence().toEpochMilli()) {
                                early.add("id " + l.machineId() + " claimed at " + now + ", its key expired at " + e);
                            }
                            return l;
                        } catch (MachineIdLeaseException e) {
                            if (!e.getMessage().startsWith("Every machine id")) {
                                throw e;
                            }
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                        }
                    }
                }));
            }
            List<RedisMachineIdLease> second = new ArrayList<>();
            for (Future<RedisMachineIdLease> f : again) {
                second.add(f.get());
            }
            long allReclaimedMillis = (System.nanoTime() - died) / 1_000_000;
            assertEquals(List.of(), early);
            assertEquals(dead.keySet(), reclaimedAt.keySet(), "exactly the dead holders' ids were claimed again");
            long firstReclaim = reclaimedAt.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            long firstExpiry = expiry.values().stream().mapToLong(Long::longValue).min().orElseThrow();
            System.out.printf("Redis fleet of %d: all claimed in %d ms; renew load %.0f EVAL/s at %.1f us each (%d"
                    + " holders / 2 s); %d die at once -> all reclaimed %d ms later, first reclaim %d ms after the first"
                    + " expiry, none before its key expired%n", CLAIMERS, allClaimedMillis, evalsPerSecond, usecPerCall,
                    CLAIMERS, DIE, allReclaimedMillis, firstReclaim - firstExpiry);
            second.forEach(RedisMachineIdLease::close);
            leases.subList(DIE, leases.size()).forEach(RedisMachineIdLease::close);
            dead.values().forEach(RedisMachineIdLease::close);
            claimers.shutdownNow();
            pool.shutdownNow();
        }
    }

    private static long evalCalls(RedisCommands<String, String> admin) {
        return stat(admin, "calls=");
    }

    private static double evalUsecPerCall(RedisCommands<String, String> admin) {
        String line = evalLine(admin);
        String v = line.substring(line.indexOf("usec_per_call=") + "usec_per_call=".length());
        return Double.parseDouble(v.substring(0, v.indexOf(',')));
    }

    private static long stat(RedisCommands<String, String> admin, String field) {
        String line = evalLine(admin);
        String v = line.substring(line.indexOf(field) + field.length());
        return Long.parseLong(v.substring(0, v.indexOf(',')));
    }

    private static String evalLine(RedisCommands<String, String> admin) {
        for (String line : admin.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_eval:")) {
                return line;
            }
        }
        return "cmdstat_eval:calls=0,usec=0,usec_per_call=0.0,";
    }
}
