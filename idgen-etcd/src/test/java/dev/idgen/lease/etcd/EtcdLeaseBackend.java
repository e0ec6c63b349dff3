package dev.idgen.lease.etcd;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseBackend;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * The conformance suite's view of etcd: each scenario's namespace is a fresh key prefix on one real
 * etcd member; each connection is a client of its own behind a {@link BlackholeProxy}, so cutting it
 * off is a silent partition. Forgetting deletes keys; restarting empty kills the member, wipes its
 * data and starts it again.
 */
final class EtcdLeaseBackend implements LeaseBackend {

    /**
     * ttl 3 s, renewal every 400 ms, margin 300 ms, skew bound 200 ms (counted twice: etcd shows no
     * clock): headroom 1,100 ms, a renewal may take 367 ms.
     */
    static <B extends LeaseBuilder<B, ?>> B timings(B b) {
        return b.ttl(Duration.ofSeconds(3)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(200));
    }

    private final EtcdCluster etcd;
    private final Client admin;

    EtcdLeaseBackend(EtcdCluster etcd, Client admin) {
        this.etcd = etcd;
        this.admin = admin;
    }

    @Override
    public Namespace namespace(String scenario) {
        String ns = "/idgen-conformance/" + scenario.replaceAll("[^A-Za-z0-9-]", "-") + "-" + System.nanoTime();
        timings(EtcdMachineIdLease.builder(admin).namespace(ns)).initializeNewNamespace();
        return new Namespace() {
            @Override
            public Connection connect(String name) {
                BlackholeProxy proxy;
                try {
                    proxy = new BlackholeProxy(etcd.clientPort(0));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                Client client = Client.builder().endpoints("http://127.0.0.1:" + proxy.port()).build();
                return new Connection() {
                    @Override
                    public LeaseBuilder<?, ?> builder() {
                        return timings(EtcdMachineIdLease.builder(client)).namespace(ns).owner(name).background(false);
                    }

                    @Override
                    public LeaseStore store() {
                        return new EtcdLeaseStore(client, ns, InstantSource.system(), Duration.ofMillis(367));
                    }

                    @Override
                    public void cutOff() {
                        proxy.partition(true);
                    }

                    @Override
                    public void close() {
                        client.close();
                        try {
                            proxy.close();
                        } catch (IOException e) {
                            // closing anyway
                        }
                    }
                };
            }

            @Override
            public void forgetRecord(long machineId) {
                delete(String.format("%s/ids/%010d", ns, machineId), false);
            }

            @Override
            public void forgetAll() {
                delete(ns + "/", true);
            }

            @Override
            public void restartEmpty() {
                etcd.kill(0);
                etcd.wipe(0);
                etcd.restart(0);
            }

            @Override
            public void close() {
                forgetAll();
            }
        };
    }

    private void delete(String key, boolean prefix) {
        ByteSequence k = ByteSequence.from(key, StandardCharsets.UTF_8);
        try {
            admin.getKVClient().delete(k, prefix ? DeleteOption.builder().isPrefix(true).build() : DeleteOption.DEFAULT)
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not delete " + key + " in etcd: " + e, e);
        }
    }
}
