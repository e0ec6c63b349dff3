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
            long fenceAtStop = lease.fence().toEpochMilli();
            while (true) {
                try {
                    last = ids.nextLong();
                } catch (MachineIdLostException e) {
                    break;
                }
                if (System.nanoTime() - stop > TTL.toNanos() * 2) {
                    fail("still making IDs " + 2 * TTL.toMillis() + " ms after the server stopped");
                }
            }
            long refusedAfter = (System.nanoTime() - stop) / 1_000_000;
            long lastMillis = millisOf(last);
            // every acknowledged expiry was written before the stop: E <= stop + ttl, so the fence (from
            // the older of the last two) comes at most ttl - skew - margin after the stop
            assertTrue(refusedAfter <= TTL.toMillis() - offset + 50, "refused " + refusedAfter + " ms after the stop");
            assertTrue(lastMillis < fenceAtStop, "the last ID (" + lastMillis + ") is below the fence " + fenceAtStop);
            assertTrue(fenceAtStop <= stopWall + TTL.toMillis() - offset, "fence " + fenceAtStop);
            await("isHeld() reports the loss", Duration.ofSeconds(1), () -> !lease.isHeld());

            server.start();
            long restart = System.nanoTime();
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
