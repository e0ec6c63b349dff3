package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link RedisMachineIdLease} on the machine's Redis, under a prefix of the test's own: the builder,
 * claims and releases as Redis shows them, the exact id of a second instance, and claimers racing on
 * connections of their own. The life itself is core's, and the conformance suite's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisMachineIdLeaseTest {

    private final List<Runnable> cleanup = new ArrayList<>();
    private TestRedis redis;
    private RedisCommands<String, String> sync;

    @BeforeEach
    void connect() throws Exception {
        redis = TestRedis.shared("lease");
        sync = redis.connect().sync();
        redis.newStore(redis.connect());
    }

    @AfterEach
    void cleanUp() {
        Collections.reverse(cleanup);
        cleanup.forEach(Runnable::run);
        redis.close();
    }

    private RedisMachineIdLease track(RedisMachineIdLease lease) {
        cleanup.add(lease::close);
        return lease;
    }

    /**
     * The default timings (ttl 30 s: no test here waits one out, and each call may take 3 s on a
     * loaded machine), under this test's prefix, on a connection of its own, renewed by the test.
     */
    private RedisMachineIdLease.Builder builder() {
        return RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix).background(false);
    }

    /**
     * ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms: headroom 1,100 ms, each call 200 ms at most;
     * for the tests that wait out a ttl.
     */
    static RedisMachineIdLease.Builder timings(RedisMachineIdLease.Builder b) {
        return b.ttl(Duration.ofMillis(3000)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400));
    }

    @Test
    void claimsTheLowestFreeIdsRecordsThemInRedisAndReusesAReleasedOneAboveItsMark() {
        RedisMachineIdLease.Builder b = builder().maxMachineId(2);
        RedisMachineIdLease a = track(TestRedis.acquire(b.owner("a")));
        RedisMachineIdLease c = track(TestRedis.acquire(b.owner("c")));
        RedisMachineIdLease d = track(TestRedis.acquire(b.owner("d")));
        assertEquals(List.of(0L, 1L, 2L), List.of(a.machineId(), c.machineId(), d.machineId()));
        assertTrue(a.isHeld() && c.isHeld() && d.isHeld());
        assertEquals("{" + redis.prefix + "}1", c.key());
        Map<String, String> record = sync.hgetall(c.key());
        assertEquals("c", record.get("owner"));
        assertEquals(Long.toString(c.token()), record.get("token"));
        assertEquals(Long.toString(c.timings().fenceOffsetMillis()), record.get("fenceOffset"));
        assertEquals(-1, sync.pttl(c.key()), "a record Redis keeps until the lease writes it");
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertTrue(full.getMessage().startsWith("Every machine id 0..2 under Redis key prefix " + redis.prefix
                + " is held by a live lease"), full.getMessage());

        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(c).build();
        long last = ids.nextLong();
        long token = c.token();
        c.close();
        assertFalse(c.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong);
        assertEquals(1, sync.exists(c.key()), "a release writes the record, never deletes it");
        RedisMachineIdLease again = track(TestRedis.acquire(b.owner("e")));
        assertEquals(1, again.machineId());
        assertEquals(token + 1, again.token());
        long next = SnowflakeGenerator.builder().machineId(again).build().nextLong();
        assertTrue(next > last, "the next holder starts above the released holder's last ID");
    }

    @Test
    void theBuilderRefusesABlankPrefixOrOneWithABrace() {
        StatefulRedisConnection<String, String> c = redis.connect();
        for (String bad : List.of(" ", "", "a{b}:", "a}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RedisMachineIdLease.builder(c).keyPrefix(bad));
            assertTrue(e.getMessage().startsWith("keyPrefix '" + bad + "' is blank or holds a brace; give the"
                    + " service's own prefix without braces, e.g. \"idgen:orders:\""), e.getMessage());
        }
    }

    @Test
    void aSecondInstanceGivenTheSameIdFailsNamingTheFirst() {
        RedisMachineIdLease first = track(TestRedis.acquire(builder().maxMachineId(9).machineId(5).owner("first-instance")));
        assertEquals(5, first.machineId(), "the exact id, not the lowest free one");
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class,
                () -> builder().maxMachineId(9).machineId(5).owner("second-instance").acquire());
        assertTrue(e.getMessage().startsWith("Machine id 5 under Redis key prefix " + redis.prefix + " is held by a live"
                + " lease of owner 'first-instance'"), e.getMessage());
        assertEquals(0, track(TestRedis.acquire(builder().maxMachineId(9))).machineId(), "others still claim the lowest");
    }

    @Test
    void claimersRacingOnConnectionsOfTheirOwnNeverShareAnId() throws InterruptedException {
        int threads = 8;
        int rounds = 8;
        ConcurrentMap<Long, String> holders = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger claims = new AtomicInteger();
        AtomicInteger full = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "claimer-" + t;
            RedisMachineIdLease.Builder b = builder().maxMachineId(3).owner(name);
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        RedisMachineIdLease lease;
                        try {
                            lease = TestRedis.acquire(b);
                        } catch (MachineIdLeaseException e) {
                            if (!e.getMessage().startsWith("Every machine id")) {
                                failures.add(name + ": " + e.getMessage());
                            }
                            full.incrementAndGet();
                            continue;
                        }
                        claims.incrementAndGet();
                        String other = holders.putIfAbsent(lease.machineId(), name);
                        if (other != null) {
                            failures.add(name + " and " + other + " both hold machine id " + lease.machineId());
                        }
                        if (!lease.renewNow()) {
                            failures.add(name + " could not renew its fresh lease on " + lease.machineId());
                        }
                        holders.remove(lease.machineId(), name); // before the release frees it
                        lease.close();
                    }
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(name + ": " + e);
                }
            }, name);
            workers.add(w);
            w.start();
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(threads * rounds, claims.get() + full.get());
        assertTrue(claims.get() >= 4, "at least the four ids were claimed: " + claims.get());
        System.out.printf("Redis: %d claims, %d refusals (all four ids held) from %d threads%n", claims.get(),
                full.get(), threads);
    }
}
