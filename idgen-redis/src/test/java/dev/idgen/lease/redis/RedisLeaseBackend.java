package dev.idgen.lease.redis;

import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseBackend;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.InstantSource;

/** The shared lease scenarios under one key prefix whose id space is the single id 0. */
final class RedisLeaseBackend implements LeaseBackend {

    /** ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms: headroom 1100 ms (as the JDBC tests). */
    static RedisMachineIdLease.Builder timings(RedisMachineIdLease.Builder b) {
        return b.ttl(Duration.ofMillis(3000)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400));
    }

    private final TestRedis redis;

    RedisLeaseBackend(TestRedis redis) {
        this.redis = redis;
    }

    @Override
    public Claimer claimer(String name, InstantSource clock) {
        StatefulRedisConnection<String, String> connection = redis.connect(); // its own, as a process has
        RedisMachineIdLease.Builder b = timings(RedisMachineIdLease.builder(connection)).keyPrefix(redis.prefix)
                .maxMachineId(0).owner(name + "/" + System.nanoTime()).clock(clock);
        return new Claimer() {
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
                connection.close(); // never reopened: renewals and the release fail from now on
            }

            @Override
            public void close() {
                if (lease != null) {
                    lease.close();
                }
                connection.close();
            }
        };
    }
}
