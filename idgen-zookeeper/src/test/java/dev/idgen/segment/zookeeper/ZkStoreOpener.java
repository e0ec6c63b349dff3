package dev.idgen.segment.zookeeper;

import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.testkit.segment.SegmentStoreOpener;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/** The children of {@link ZkSegmentTwoProcessTest} reach ZooKeeper with this: arguments connect string, path. */
public final class ZkStoreOpener implements SegmentStoreOpener {

    /** For the child, which makes it by reflection. */
    public ZkStoreOpener() {
    }

    @Override
    public SegmentSource open(List<String> args) throws Exception {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(args.get(0))
                .sessionTimeoutMs(10_000).connectionTimeoutMs(1000).retryPolicy(new RetryNTimes(3, 100)).build();
        client.start();
        if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no ZooKeeper at " + args.get(0));
        }
        return ZkSegmentSource.builder(client).path(args.get(1)).build();
    }
}
