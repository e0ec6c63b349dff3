package dev.idgen.lease.etcd;

import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.machine.spi.FencingLease;
import dev.idgen.testkit.lease.LeaseBackend;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;

/**
 * The shared lease scenarios on one etcd namespace whose id space is the single id 0. Each claimer
 * has its own client, connected through a {@link BlackholeProxy}: cutting it off is a silent
 * partition (no reset, no FIN).
 */
final class EtcdLeaseBackend implements LeaseBackend {

    /** ttl 3 s, renew 400 ms, margin 300 ms, skew 400 ms: headroom 1100 ms, fence 1900 ms after a send. */
    static EtcdMachineIdLease.Builder timings(EtcdMachineIdLease.Builder b) {
        return b.ttl(Duration.ofSeconds(3)).renewEvery(Duration.ofMillis(400)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofMillis(400));
    }

    private final EtcdCluster etcd;
    private final String namespace;

    EtcdLeaseBackend(EtcdCluster etcd, String namespace) {
        this.etcd = etcd;
        this.namespace = namespace;
    }

    @Override
    public Claimer claimer(String name, InstantSource clock) {
        BlackholeProxy proxy;
        try {
            proxy = new BlackholeProxy(etcd.clientPort(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Client client = Client.builder().endpoints("http://127.0.0.1:" + proxy.port()).build();
        EtcdMachineIdLease.Builder b = timings(EtcdMachineIdLease.builder(client)).namespace(namespace).maxMachineId(0)
                .owner(name + "/" + System.nanoTime()).clock(clock);
        return new Claimer() {
            EtcdMachineIdLease lease;

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
                client.close();
                try {
                    proxy.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        };
    }
}
