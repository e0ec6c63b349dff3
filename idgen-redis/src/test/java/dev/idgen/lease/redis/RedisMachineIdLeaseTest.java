package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.clock.ClockBackwardsPolicy;
import dev.idgen.clock.ClockMovedBackwardsException;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.clock.ManualClock;
import dev.idgen.testkit.lease.LeaseScenarios;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Leases on the machine's Redis: claims, races, takeover above the mark, the skew, the expiry in Redis time. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisMachineIdLeaseTest {

    private final List<Runnable> cleanup = new ArrayList<>();
    private TestRedis redis;

    @BeforeEach
    void connect() {
        redis = TestRedis.shared();
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

    private RedisMachineIdLease.Builder builder() {
        return RedisMachineIdLease.builder(redis.connect()).keyPrefix(redis.prefix);
    }

    static void await(String what, Duration limit, BooleanSupplier condition) {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + limit.toMillis() + " ms: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** A clock that reads real time plus an offset the test sets. */
    static final class OffsetClock implements InstantSource {
        final AtomicLong offset = new AtomicLong();

        @Override
        public long millis() {
            return System.currentTimeMillis() + offset.get();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    @Test
    void claimsTheLowestFreeIdsReusesFreedOnesAndNamesTheSpaceWhenAllAreTaken() {
        RedisMachineIdLease.Builder b = builder().maxMachineId(2).background(false);
        RedisMachineIdLease a = track(b.acquire());
        RedisMachineIdLease c = track(b.acquire());
        RedisMachineIdLease d = track(b.acquire());
        assertEquals(List.of(0L, 1L, 2L), List.of(a.machineId(), c.machineId(), d.machineId()));
        assertTrue(a.isHeld() && c.isHeld() && d.isHeld());
        assertEquals(redis.prefix + "{1}", c.key());
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertEquals("Every machine id of the machine-id space 0..2 under Redis key prefix " + redis.prefix
                + " is held by a live lease; free one, or widen the space: a layout with more machine bits (e.g."
                + " SnowflakeLayout.SONYFLAKE, 0..65535, or a custom layout) and builder.layout(it)", full.getMessage());
        c.close();
        assertFalse(c.isHeld());
        RedisMachineIdLease again = track(b.acquire());
        assertEquals(1, again.machineId());
        assertEquals(c.token() + 1, again.token(), "a new claim of an id takes the next fencing token from INCR");
    }

    @Test
    void pastTheLayoutsSpaceTheErrorNamesTheLayoutAndItsBits() {
        SnowflakeLayout tiny = SnowflakeLayout.custom("tiny").timestampBits(41).machineBits(1).sequenceBits(21)
                .epoch(SnowflakeLayout.TWITTER.epoch()).tick(Duration.ofMillis(1)).build();
        RedisMachineIdLease.Builder b = builder().layout(tiny).background(false);
        track(b.acquire());
        track(b.acquire());
        MachineIdLeaseException full = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertTrue(full.getMessage().startsWith("Every machine id of the machine-id space 0..1 of layout tiny (1 machine"
                + " bits) under Redis key prefix "), full.getMessage());
        assertTrue(full.getMessage().contains("widen the space"), full.getMessage());
    }

    @Test
    void theBuilderRefusesABlankPrefixABraceAndTimingsThatDoNotFit() {
        StatefulRedisConnection<String, String> c = redis.connect();
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> RedisMachineIdLease.builder(c).keyPrefix(" "));
        assertEquals("keyPrefix \" \" is blank; give the service's own prefix, e.g. \"idgen:orders:\"", blank.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RedisMachineIdLease.builder(c).keyPrefix(""));
        assertThrows(IllegalArgumentException.class, () -> RedisMachineIdLease.builder(c).keyPrefix("a{b}:"));
        IllegalArgumentException timings = assertThrows(IllegalArgumentException.class,
                () -> RedisMachineIdLease.builder(c).keyPrefix(redis.prefix).ttl(Duration.ofSeconds(3)).acquire());
        assertTrue(timings.getMessage().startsWith("Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery"
                + " (600 ms) + 2 x maxClockSkew (1000 ms) + safetyMargin (300 ms) = 3500 ms"), timings.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RedisMachineIdLease.builder(c).maxMachineId(-1));
    }

    @Test
    void theFenceTrailsTheOlderOfTheLastTwoExpiriesThatRedisKeeps() {
        RedisMachineIdLease lease = track(RedisLeaseBackend.timings(builder()).maxMachineId(0).background(false)
                .acquire());
        var sync = redis.connect().sync();
        long offset = lease.timings().fenceOffsetMillis();
        long expiry1 = sync.pexpiretime(lease.key());
        assertTrue(lease.renewNow());
        long expiry2 = sync.pexpiretime(lease.key());
        assertTrue(expiry2 >= expiry1, expiry1 + " then " + expiry2);
        assertEquals(expiry1 - offset, lease.fence().toEpochMilli(),
                "the fence is the older of the last two expiries Redis keeps, minus skew and margin");
        assertTrue(lease.renewNow());
        assertEquals(expiry2 - offset, lease.fence().toEpochMilli());
        long ttlLeft = sync.pttl(lease.key());
        assertTrue(ttlLeft > 2000 && ttlLeft <= 3000, "PXAT now + ttl: " + ttlLeft + " ms left");
        assertTrue(sync.get(lease.key()).startsWith(lease.token() + "/"), sync.get(lease.key()));
    }

    @Test
    void concurrentClaimersOnTheirOwnConnectionsNeverShareAnId() throws InterruptedException {
        int threads = 12;
        int rounds = 12;
        ConcurrentMap<Long, String> holders = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger claims = new AtomicInteger();
        AtomicInteger full = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "claimer-" + t;
            RedisMachineIdLease.Builder b = builder().maxMachineId(3).owner(name).background(false);
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int r = 0; r < rounds; r++) {
                        RedisMachineIdLease lease;
                        try {
                            lease = b.acquire();
                        } catch (MachineIdLeaseException e) {
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

    @Test
    void theSharedLeaseScenariosPass() {
        LeaseScenarios.Report r = LeaseScenarios.check(new RedisLeaseBackend(redis), Duration.ofSeconds(20));
        assertEquals(0, r.handOver().secondFirstId() >>> 63, "a positive ID");
        assertTrue(r.loss().oldRefusals() > 0);
        assertTrue(r.loss().refusedAfterMillis() < r.loss().takenAfterMillis(), r.toString());
        System.out.printf("Redis: %s%n", r);
    }

    @Test
    void anExpiredLeaseIsTakenOverAboveTheMarkOfAHolderWhoseClockRanAhead() {
        OffsetClock aheadClock = new OffsetClock();
        // A's clock runs 200 ms ahead, within its skew bound of 400 ms, with 200 ms left for the
        // measurement's uncertainty (half a script's round trip; at 300 ms ahead a 108 ms round trip
        // on a loaded 2-core machine failed the claim)
        aheadClock.offset.set(200);
        RedisMachineIdLease a = track(RedisLeaseBackend.timings(builder()).maxMachineId(0).clock(aheadClock)
                .background(false).acquire());
        SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).clock(aheadClock).build();
        long aLast = 0;
        for (int i = 0; i < 1000; i++) {
            aLast = aIds.nextLong();
        }
        assertTrue(a.renewNow());
        long aMark = aIds.highWaterMark();

        ManualClock bClock = ManualClock.at(Instant.now());
        RedisMachineIdLease.Builder bBuilder = RedisLeaseBackend.timings(builder()).maxMachineId(0)
                .background(false);
        assertThrows(MachineIdLeaseException.class, bBuilder::acquire, "A's lease is live");
        long asked = System.nanoTime();
        RedisMachineIdLease[] b = new RedisMachineIdLease[1];
        await("B takes over the expired id", Duration.ofSeconds(10), () -> {
            try {
                b[0] = bBuilder.acquire();
                return true;
            } catch (MachineIdLeaseException e) {
                return false;
            }
        });
        track(b[0]);
        System.out.printf("Redis: takeover %d ms after A's last renewal (ttl 3000 ms)%n",
                (System.nanoTime() - asked) / 1_000_000);
        assertEquals(0, b[0].machineId());
        assertTrue(b[0].highWaterMark() >= aMark, "B reads the mark A recorded: " + b[0].highWaterMark());
        long aFence = a.fence().toEpochMilli();
        assertTrue(b[0].highWaterMark() >= aFence - 1,
                "the claim raised the mark to A's fence or above: " + b[0].highWaterMark() + " vs " + aFence);
        assertEquals(a.token() + 1, b[0].token());

        long bMark = b[0].highWaterMark();
        bClock.set(Instant.ofEpochMilli(bMark - 200)); // B's clock is behind the mark
        SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b[0]).clock(bClock)
                .onClockBackwards(ClockBackwardsPolicy.waitUpTo(Duration.ofMillis(5))).build();
        ClockMovedBackwardsException behind = assertThrows(ClockMovedBackwardsException.class, bIds::nextLong);
        assertEquals(200, behind.millisBehind());
        bClock.set(Instant.ofEpochMilli(bMark + 1));
        long bFirst = bIds.nextLong();
        assertTrue(bFirst > aLast, "B's first ID " + bFirst + " is above A's last " + aLast);

        assertFalse(a.renewNow(), "A finds its key taken");
        assertThrows(MachineIdLostException.class, aIds::nextLong);
        assertTrue(a.toString().contains("expired or was taken by another holder"), a.toString());
    }

    @Test
    void aClockTooFarFromRedisIsRefusedOnClaimAndFencedOnRenewal() {
        OffsetClock clock = new OffsetClock();
        clock.offset.set(-5000);
        RedisMachineIdLease.Builder b = builder().maxMachineId(0).maxClockSkew(Duration.ofSeconds(1)).clock(clock)
                .background(false);
        MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, b::acquire);
        assertTrue(e.getMessage().startsWith("Could not hold machine id 0 at Redis key " + redis.prefix
                + "{0}: fenced: the local clock is "), e.getMessage());
        assertTrue(e.getMessage().contains("beyond the allowed maxClockSkew of 1000 ms"), e.getMessage());

        clock.offset.set(0);
        RedisMachineIdLease lease = track(b.acquire());
        assertEquals(0, lease.machineId(), "the refused claim left the id free");
        assertTrue(Math.abs(lease.clockSkew().toMillis()) < 1000, lease.clockSkew().toString());
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).clock(clock).build();
        ids.nextLong();
        clock.offset.set(3000); // ahead, yet still below the fence (ttl 30 s): only the skew check refuses
        assertFalse(lease.renewNow());
        assertFalse(lease.isHeld());
        assertThrows(MachineIdLostException.class, ids::nextLong, "fenced at once, not at the fence's time");
        assertTrue(lease.clockSkew().toMillis() <= -2000, lease.clockSkew().toString());
        assertEquals(1, lease.losses());
        clock.offset.set(0);
        assertFalse(lease.renewNow(), "the first write after a loss opens nothing");
        assertTrue(lease.renewNow(), "held again after two acknowledged writes with the clocks agreeing");
    }

    @Test
    void oneGeneratorPerLease() {
        RedisMachineIdLease lease = track(builder().background(false).acquire());
        SnowflakeGenerator.builder().machineId(lease).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SnowflakeGenerator.builder().machineId(lease).build());
        assertTrue(e.getMessage().contains("already serves another generator"), e.getMessage());
    }

    @Test
    void releaseRecordsTheMarkAndLeavesNoLeaseKey() {
        RedisMachineIdLease lease = builder().maxMachineId(0).background(false).acquire();
        SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
        ids.nextLong();
        long mark = ids.highWaterMark();
        lease.close();
        var sync = redis.connect().sync();
        assertEquals(0, sync.exists(lease.key()));
        assertEquals(Long.toString(mark), sync.hget(lease.key() + ":mark", "m"));
        assertThrows(MachineIdLostException.class, ids::nextLong);
        RedisMachineIdLease next = track(builder().maxMachineId(0).background(false).acquire());
        assertEquals(mark, next.highWaterMark(), "the next holder reads the mark the release recorded");
    }
}
