package dev.idgen.segment.etcd;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.testkit.segment.SegmentStoreOpener;
import dev.idgen.testkit.segment.StoreOutage;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.List;

/** The children of {@link EtcdSegmentTwoProcessTest} reach etcd with this: arguments endpoint, namespace. */
public final class EtcdStoreOpener implements SegmentStoreOpener {

    /** For the child, which makes it by reflection. */
    public EtcdStoreOpener() {
    }

    /**
     * @param etcd a one-member cluster
     * @return an outage that kills the member ({@code SIGKILL}) and starts it again on its ports and data
     */
    static StoreOutage killAndRestart(EtcdCluster etcd) {
        return new StoreOutage() {
            @Override
            public void stop() {
                etcd.kill(0);
            }

            @Override
            public void start() {
                etcd.restart(0);
            }
        };
    }

    @Override
    public SegmentSource open(List<String> args) {
        Client client = Client.builder().endpoints(args.get(0)).build();
        return EtcdSegmentSource.builder(client).namespace(args.get(1)).timeout(Duration.ofSeconds(2)).build();
    }
}
