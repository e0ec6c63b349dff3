package dev.idgen.segment.redis;

import dev.idgen.segment.spi.SegmentSource;
import dev.idgen.testkit.segment.SegmentStoreOpener;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.List;

/**
 * The children of {@link RedisSegmentTwoProcessTest} reach Redis with this: arguments URI, key
 * prefix. The client reconnects every 100 ms (Lettuce's default backs off to 30 s), so a restarted
 * server is found at once.
 */
public final class RedisStoreOpener implements SegmentStoreOpener {

    /** For the child, which makes it by reflection. */
    public RedisStoreOpener() {
    }

    @Override
    public SegmentSource open(List<String> args) {
        ClientResources resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(100)))
                .build();
        RedisURI uri = RedisURI.create(args.get(0));
        // the connection's own timeout covers its handshake, which a loaded machine can make slow; each
        // grant is bounded by the source's 2 s below, which the test's outage relies on
        uri.setTimeout(Duration.ofSeconds(10));
        RedisClient client = RedisClient.create(resources, uri);
        return RedisSegmentSource.builder(client.connect()).keyPrefix(args.get(1)).timeout(Duration.ofSeconds(2))
                .build();
    }
}
