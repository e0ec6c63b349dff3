package dev.idgen.lease.redis;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseBackend;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.InstantSource;

/**
 * The conformance suite's namespaces on a private {@code redis-server} (so a scenario may flush or
 * restart it): a fresh key prefix per scenario, written as new; each connection through a
 * {@link BlackholeProxy} of its own, which a partition silences; forgetting is {@code DEL} of one
 * record, {@code FLUSHDB}, or the server stopped and started again without persistence.
 */
final class RedisLeaseBackend implements LeaseBackend {

    private final TestRedis.Server server;

    RedisLeaseBackend(TestRedis.Server server) {
        this.server = server;
    }

    @Override
    public Namespace namespace(String scenario) {
        TestRedis admin = TestRedis.Server.redis(server.port,
                "suite:" + scenario.replaceAll("[^A-Za-z0-9-]+", "-"));
        RedisLeaseStore adminStore;
        try {
            adminStore = admin.newStore(admin.connect());
        } catch (Exception e) {
            admin.close();
            throw new IllegalStateException("could not write the namespace record of " + admin.prefix, e);
        }
        return new Namespace() {
            @Override
            public Connection connect(String name) {
                BlackholeProxy proxy;
                try {
                    proxy = new BlackholeProxy(server.port);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                TestRedis viaProxy = TestRedis.Server.redis(proxy.port());
                StatefulRedisConnection<String, String> c = viaProxy.connect();
                return new Connection() {
                    @Override
                    public LeaseBuilder<?, ?> builder() {
                        return RedisMachineIdLeaseTest.timings(RedisMachineIdLease.builder(c)).keyPrefix(admin.prefix)
                                .owner(name).background(false);
                    }

                    @Override
                    public LeaseStore store() {
                        return new RedisLeaseStore(c, admin.prefix, InstantSource.system(),
                                builder().timings(true).callTimeout());
                    }

                    @Override
                    public void cutOff() {
                        proxy.partition(true);
                    }

                    @Override
                    public void close() {
                        viaProxy.close();
                        try {
                            proxy.close();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                };
            }

            @Override
            public void forgetRecord(long machineId) {
                admin.connect().sync().del(adminStore.idKey(machineId));
            }

            @Override
            public void forgetAll() {
                admin.connect().sync().flushdb();
            }

            @Override
            public void restartEmpty() {
                try {
                    server.stop();
                    server.start();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public void close() {
                admin.close();
            }
        };
    }
}
