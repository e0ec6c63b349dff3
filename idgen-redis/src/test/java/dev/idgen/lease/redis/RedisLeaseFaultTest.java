package dev.idgen.lease.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.MachineIdLostException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What Redis itself can do to the records, on a private {@code redis-server} of each test's own
 * (stopping or flushing it disturbs nobody): stopped, restarted without its data, restarted from an
 * older snapshot, flushed. Real time, bounded; ttl 3 s.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("slow")
class RedisLeaseFaultTest {

    private static final Duration TTL = Duration.ofMillis(3000);

    static RedisMachineIdLease.Builder builder(TestRedis redis, String owner) {
        return RedisMachineIdLeaseTest.timings(RedisMachineIdLease.builder(redis.connect())).keyPrefix(redis.prefix)
                .owner(owner);
    }

    @Test
    void aStoppedServerFencesWithinTheBoundAndAfterARestartWithoutDataTheHolderResumesATtlLaterAboveItsLastId()
            throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            redis.newStore(redis.connect());
            server.awaitUptimeAbove(TTL);
            RedisMachineIdLease lease = TestRedis.acquire(builder(redis, "A").maxMachineId(0));
            long offset = lease.timings().fenceOffsetMillis();
            SnowflakeGenerator ids = SnowflakeGenerator.builder().machineId(lease).build();
            long last = ids.nextLong();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500)); // a renewal or so in steady state

            server.stop();
            long stop = System.nanoTime();
            long stopWall = System.currentTimeMillis();
            long lastCallWithAnId = stopWall;
            while (true) {
                long callStarted = System.currentTimeMillis();
                try {
                    last = ids.nextLong();
                } catch (MachineIdLostException e) {
                    break;
                }
                lastCallWithAnId = callStarted;
                if (System.nanoTime() - stop > TTL.toNanos() * 2) {
                    fail("still making IDs " + 2 * TTL.toMillis() + " ms after the server stopped");
                }
            }
            long refusedAfter = (System.nanoTime() - stop) / 1_000_000;
            long lastMillis = millisOf(last);
            long fence = lease.fence().toEpochMilli(); // read after the loop: a reply in flight at the stop counts
            // every acknowledged expiry was written before the stop, so the fence is at most ttl - skew -
            // margin after it; no returned ID reaches the fence and no call begun at or past it returned one
            // (bounds on the IDs' own times: a loaded machine that runs this loop late cannot break them)
            if (fence != Long.MIN_VALUE) {
                assertTrue(fence <= stopWall + TTL.toMillis() - offset, "fence " + fence + " is more than ttl - skew -"
                        + " margin after the stop at " + stopWall);
                assertTrue(lastMillis < fence, "the last ID (" + lastMillis + ") is below the fence " + fence);
                assertTrue(lastCallWithAnId < fence, "a call begun at " + lastCallWithAnId + ", at or past the fence "
                        + fence + ", returned an ID");
            }

            long restart = System.currentTimeMillis(); // before the new process starts
            server.start(); // no persistence: the namespace and A's record are gone
            long next;
            while (true) {
                try {
                    next = ids.nextLong();
                    break;
                } catch (MachineIdLostException e) {
                    if (System.currentTimeMillis() - restart > 20_000) {
                        fail("no new ID within 20 s of the restart: " + lease);
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            }
            long recoveredAfter = System.currentTimeMillis() - restart;
            assertTrue(next > last, "the first ID after the restart is above the last before it");
            assertTrue(recoveredAfter >= TTL.toMillis(), "an emptied Redis is trusted only a ttl after it was found"
                    + " empty: " + recoveredAfter + " ms");
            System.out.printf("Redis stopped -> refusing after %d ms (ttl %d ms, fence offset %d ms); restarted without"
                    + " data -> first new ID after %d ms%n", refusedAfter, TTL.toMillis(), offset, recoveredAfter);
            lease.close();
        }
    }

    /**
     * A Redis restarted from a snapshot older than its last writes: the namespace is back, and A's
     * record with an expiry long past, while A's fence (from later renewals the snapshot lacks) is
     * still open. Only the restart's time, which the clock reading carries when there is no
     * append-only file, keeps B's claim above A's fence.
     */
    @Test
    void aClaimOnARedisRestartedFromAnOlderSnapshotStartsAboveTheLastHoldersFence() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisLeaseStore store = redis.newStore(redis.connect());
            server.awaitUptimeAbove(TTL);
            RedisMachineIdLease a = TestRedis.acquire(builder(redis, "A").maxMachineId(0).background(false));
            SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
            List<Long> aMade = new ArrayList<>(List.of(aIds.nextLong()));
            redis.connect().sync().save(); // the snapshot: A's record as claimed
            long snapshotExpiry = store.read(0, 0).get(0L).expiresMillis();
            long until = System.currentTimeMillis() + TTL.toMillis() + 500;
            while (System.currentTimeMillis() < until) { // A renews past the snapshot's expiry
                assertTrue(a.renewNow(), a.state());
                aMade.add(aIds.nextLong());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            }
            assertTrue(a.renewNow(), a.state());
            long aFence = a.fence().toEpochMilli();

            server.stop(); // A renews no more
            long restarted = System.currentTimeMillis();
            server.start(); // loads the snapshot
            RedisLeaseStore after = store.on(redis.connect());
            assertEquals(snapshotExpiry, after.read(0, 0).get(0L).expiresMillis(), "the snapshot's record is back");
            assertTrue(snapshotExpiry - a.timings().fenceOffsetMillis() < restarted && restarted < aFence,
                    "the record alone would let B start at once, below A's fence " + aFence);
            RedisMachineIdLease b = TestRedis.acquire(builder(redis, "B").maxMachineId(0).background(false));
            long claimed = System.currentTimeMillis();
            assertEquals(0, b.machineId());
            SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
            List<Long> bMade = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                bMade.add(bIds.nextLong());
            }
            try {
                while (true) { // A makes what its fence still allows
                    aMade.add(aIds.nextLong());
                }
            } catch (MachineIdLostException e) {
                // fenced
            }
            assertTrue(millisOf(bMade.get(0)) >= aFence, "B's first ID (" + millisOf(bMade.get(0)) + ") is at or"
                    + " above A's fence " + aFence + "; B claimed " + (claimed - restarted) + " ms after the restart");
            assertEquals(0, common(aMade, bMade), "IDs A and B have in common");
            System.out.printf("Redis restarted from an older snapshot %d ms before A's fence: B's claim came %d ms after"
                    + " the restart, its first ID %d ms above A's fence%n", aFence - restarted, claimed - restarted,
                    millisOf(bMade.get(0)) - aFence);
            b.close();
        }
    }

    /**
     * FLUSHALL while A holds id 0: A's next renewal finds its record gone and stops; the namespace
     * record is gone too, so no claim (A's own again, or B's) starts before a ttl has passed.
     */
    @Test
    void afterAFlushAllNoClaimStartsBeforeATtlAndNoIdRepeats() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisCommands<String, String> admin = redis.connect().sync();
            redis.newStore(redis.connect());
            server.awaitUptimeAbove(TTL);
            RedisMachineIdLease a = TestRedis.acquire(builder(redis, "A").maxMachineId(1)); // renewing in the background
            SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
            List<Long> aMade = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                aMade.add(aIds.nextLong());
            }
            long aFence = a.fence().toEpochMilli();
            admin.flushall();
            long flushed = System.currentTimeMillis();
            long refusedAfter = -1;
            List<Long> aAfter = new ArrayList<>();
            while (System.currentTimeMillis() - flushed < 3 * TTL.toMillis() && aAfter.size() < 1_000) {
                try {
                    long id = aIds.nextLong();
                    (refusedAfter < 0 ? aMade : aAfter).add(id);
                } catch (MachineIdLostException e) {
                    if (refusedAfter < 0) {
                        refusedAfter = System.currentTimeMillis() - flushed;
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            }
            long aBack = System.currentTimeMillis() - flushed;
            assertTrue(refusedAfter >= 0 && refusedAfter < aFence - flushed, "A stopped before its fence: "
                    + refusedAfter + " ms after the flush");
            assertEquals(1_000, aAfter.size(), "A claimed again: " + a);
            assertTrue(millisOf(aAfter.get(0)) >= flushed + TTL.toMillis(), "A's claim after the flush started a ttl"
                    + " after it: " + (millisOf(aAfter.get(0)) - flushed) + " ms");

            RedisMachineIdLease b = TestRedis.acquire(builder(redis, "B").maxMachineId(1).background(false));
            SnowflakeGenerator bIds = SnowflakeGenerator.builder().machineId(b).build();
            List<Long> bMade = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                bMade.add(bIds.nextLong());
            }
            aMade.addAll(aAfter);
            assertEquals(0, common(aMade, bMade), "IDs A and B have in common");
            System.out.printf("Redis FLUSHALL: the holder refusing after %d ms, making IDs again after %d ms (machine id"
                    + " %d; ttl %d ms); the next claimer got machine id %d%n", refusedAfter, aBack, a.machineId(),
                    TTL.toMillis(), b.machineId());
            a.close();
            b.close();
        }
    }

    static int common(List<Long> a, List<Long> b) {
        Set<Long> s = new HashSet<>(a);
        s.retainAll(new HashSet<>(b));
        return s.size();
    }

    /** The Unix millisecond of an ID of the default (Twitter) layout. */
    static long millisOf(long id) {
        return SnowflakeLayout.TWITTER.decode(id).timestamp().toEpochMilli();
    }

    /** Acquires once a claim is allowed, within {@code limit}: while every id is held, or the namespace is new. */
    static RedisMachineIdLease acquireWhenFree(RedisMachineIdLease.Builder b, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                return TestRedis.acquire(b);
            } catch (MachineIdLeaseException e) {
                if (!e.getMessage().startsWith("Every machine id") || System.nanoTime() - end > 0) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }
}
