package dev.idgen.lease.redis;

import dev.idgen.testkit.lease.BlackholeProxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.machine.MachineIdLostException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeGenerator;
import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.testkit.lease.LeaseBackend;
import dev.idgen.testkit.lease.LeaseScenarios;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Faults on a private {@code redis-server} of the test's own (stopping it disturbs nobody): the
 * server stopped and restarted without its data, and a silent partition through a proxy that stops
 * forwarding. Real time, bounded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisLeaseFaultTest {

    private static final Duration TTL = Duration.ofMillis(3000);

    @Test
    void aStoppedServerFencesWithinTheBoundAndARestartedOneResumesAboveTheLastId() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisMachineIdLease lease = RedisLeaseBackend.timings(RedisMachineIdLease.builder(redis.connect()))
                    .keyPrefix(redis.prefix).maxMachineId(0).acquire(); // waits out the fresh server's first ttl
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
            // Every acknowledged expiry was written before the stop: E <= stop + ttl, so the fence (from
            // the older of the last two) is at most ttl - skew - margin after the stop; no returned ID
            // reaches it, and no call begun at or past it returned an ID. These bounds are on the IDs'
            // own times and the fence's value, so a loaded machine that runs this loop late cannot break
            // them; how long after the stop the first refusal came depends on scheduling and is reported.
            assertTrue(fence <= stopWall + TTL.toMillis() - offset, "fence " + fence + " is more than"
                    + " ttl - skew - margin after the stop at " + stopWall);
            assertTrue(lastMillis < fence, "the last ID (" + lastMillis + ") is below the fence " + fence);
            assertTrue(lastCallWithAnId < fence, "a call begun at " + lastCallWithAnId + ", at or past the fence "
                    + fence + ", returned an ID");
            await("isHeld() reports the loss", Duration.ofSeconds(1), () -> !lease.isHeld());

            // Redis counts its uptime from its process start, which comes after this and before
            // start() returns (by as much as a loaded machine makes it): so measure from here
            long restart = System.nanoTime();
            server.start();
            long next;
            while (true) {
                try {
                    next = ids.nextLong();
                    break;
                } catch (MachineIdLostException e) {
                    if (System.nanoTime() - restart > TimeUnit.SECONDS.toNanos(20)) {
                        fail("no new ID within 20 s of the restart: " + lease);
                    }
                    LockSupport.parkNanos(1_000_000);
                }
            }
            long recoveredAfter = (System.nanoTime() - restart) / 1_000_000;
            assertTrue(next > last, "the first ID after the restart is above the last before it");
            assertTrue(recoveredAfter >= TTL.toMillis(),
                    "a Redis that lost its data is not trusted before it has been up a ttl: " + recoveredAfter + " ms");
            System.out.printf("Redis stopped -> refusing after %d ms (ttl %d ms, fence offset %d ms); restarted without"
                    + " data -> first new ID after %d ms (the restart wait is one ttl)%n", refusedAfter, TTL.toMillis(),
                    offset, recoveredAfter);
            lease.close();
        }
    }

    /**
     * A Redis restarted without its data has forgotten A's key while A's fence is still open; a claim
     * made at once would hand B the id under A's IDs. The claim waits until Redis has been up longer
     * than the ttl, and so past A's fence (lease-redis.md, "Restarts: the uptime wait").
     */
    @Test
    void aClaimOnARedisRestartedWithoutItsDataWaitsUntilTheLastHoldersFenceHasPassed() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis redis = server.redis()) {
            RedisMachineIdLease a = RedisLeaseBackend.timings(RedisMachineIdLease.builder(redis.connect()))
                    .keyPrefix(redis.prefix).maxMachineId(0).owner("A").background(false).acquire();
            SnowflakeGenerator aIds = SnowflakeGenerator.builder().machineId(a).build();
            List<Long> aMade = new ArrayList<>(List.of(aIds.nextLong()));
            assertTrue(a.renewNow());
            long aFence = a.fence().toEpochMilli();

            server.stop();
            long restarted = System.currentTimeMillis(); // before the new process starts: see above
            server.start(); // no persistence: A's key, token and mark are gone, A's fence is open
            assertTrue(restarted < aFence, "restarted within A's lease: " + restarted + " vs fence " + aFence);
            RedisMachineIdLease b = RedisLeaseBackend.timings(RedisMachineIdLease.builder(redis.connect()))
                    .keyPrefix(redis.prefix).maxMachineId(0).owner("B").background(false).acquire();
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
            assertTrue(claimed - restarted >= TTL.toMillis(), "the claim waited a ttl: " + (claimed - restarted) + " ms");
            Set<Long> common = new HashSet<>(aMade);
            common.retainAll(new HashSet<>(bMade));
            assertEquals(0, common.size(), "IDs A and B have in common");
            System.out.printf("Redis restarted without data %d ms before A's fence: B's claim came %d ms after the"
                    + " restart, its first ID %d ms above A's fence%n", aFence - restarted, claimed - restarted,
                    millisOf(bMade.get(0)) - aFence);
            a.close();
            b.close();
        }
    }

    @Test
    void aSilentPartitionFencesTheHolderBeforeAnotherClaimerGetsItsId() throws Exception {
        try (TestRedis.Server server = new TestRedis.Server(); TestRedis direct = server.redis()) {
            // every claimer reaches the server through a proxy of its own; cutting it off stops the
            // proxy forwarding, with both sockets left open: no error, no answer
            LeaseBackend backend = (name, clock) -> {
                BlackholeProxy proxy;
                try {
                    proxy = new BlackholeProxy(server.port);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                TestRedis viaProxy = TestRedis.Server.redis(proxy.port());
                StatefulRedisConnection<String, String> c = viaProxy.connect();
                RedisMachineIdLease.Builder b = RedisLeaseBackend.timings(RedisMachineIdLease.builder(c))
                        .keyPrefix(direct.prefix).maxMachineId(0).owner(name).clock(clock);
                return new LeaseBackend.Claimer() {
                    RedisMachineIdLease lease;

                    @Override
                    public FencingLease tryAcquire() {
                        try {
                            lease = b.acquire();
                            return lease;
                        } catch (MachineIdLeaseException e) {
                            if (e.getMessage().startsWith("Every machine id")) {
                                return null;
                            }
                            throw e;
                        }
                    }

                    @Override
                    public void release() {
                        lease.close();
                    }

                    @Override
                    public void cutOff() {
                        proxy.partition(true);
                    }

                    @Override
                    public void close() {
                        if (lease != null) {
                            lease.close();
                        }
                        viaProxy.close();
                        try {
                            proxy.close();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                };
            };
            LeaseScenarios.Loss loss = LeaseScenarios.fencingOnLoss(backend, Duration.ofSeconds(20));
            assertTrue(loss.refusedAfterMillis() < loss.takenAfterMillis(), loss.toString());
            assertTrue(loss.oldLastMillis() < loss.newStartMillis(), loss.toString());
            assertEquals(0, direct.connect().sync().exists(direct.prefix + "{1}"), "one id only");
            assertFalse(loss.oldRefusals() == 0);
            System.out.printf("Redis silent partition: holder refusing after %d ms, another claimer given the id after"
                    + " %d ms (ttl %d ms); %s%n", loss.refusedAfterMillis(), loss.takenAfterMillis(), TTL.toMillis(),
                    loss);
        }
    }

    private static void await(String what, Duration limit, BooleanSupplier condition) {
        RedisMachineIdLeaseTest.await(what, limit, condition);
    }

    /** The Unix millisecond of an ID of the default (Twitter) layout. */
    private static long millisOf(long id) {
        return SnowflakeLayout.TWITTER.decode(id).timestamp().toEpochMilli();
    }

}
