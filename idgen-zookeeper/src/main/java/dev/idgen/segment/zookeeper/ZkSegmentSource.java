package dev.idgen.segment.zookeeper;

import dev.idgen.segment.SegmentGenerator;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Segment ranges from ZooKeeper: one persistent znode per name, {@code <path>/<name>}, holding the
 * last number granted as decimal text.
 *
 * <pre>{@code
 * ZkSegmentSource source = ZkSegmentSource.builder(curator).path("/idgen/segments").build();
 * SegmentGenerator orders = SegmentGenerator.builder().source(source).name("orders").step(1000).build();
 * }</pre>
 *
 * <p><b>Why no range is granted twice.</b> A grant reads the node and its version {@code v}, then
 * writes {@code last + step} with {@code setData(..., v)}. ZooKeeper applies writes to a node in
 * one total order and refuses a write whose expected version is not the node's current one, so of
 * two clients that read the same {@code v} exactly one write succeeds; the other reads again. A
 * write ZooKeeper acknowledged is on a quorum's disk, so a server restart or a leader change keeps
 * it; a write whose answer was lost (a connection dropped after the quorum applied it) is never
 * reused either: the client gives up on that range (a gap of one step) and its next attempt reads
 * the new version. The session plays no part: the node is persistent.
 *
 * <p>The store's time for business numbers is the leader's clock: the {@code mtime} ZooKeeper
 * stamps on each write, taken from the grant's own write, and for {@link #now()} from a write to
 * {@code <path>/.clock} (one write per call).
 */
public final class ZkSegmentSource implements SegmentSource {

    /** Attempts of one grant lost to other clients' writes before it gives up. */
    static final int MAX_ATTEMPTS = 64;

    private final CuratorFramework client;
    private final String path;

    private ZkSegmentSource(Builder b) {
        this.client = b.client;
        this.path = b.path;
    }

    /**
     * @param client a started Curator client (the source does not close it)
     * @return a builder, path {@code /idgen/segments}
     */
    public static Builder builder(CuratorFramework client) {
        return new Builder(client);
    }

    @Override
    public SegmentGrant grant(String name, long step) {
        SegmentGenerator.checkName(name);
        SegmentGenerator.checkStep(step);
        String node = nodeOf(name);
        try {
            for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
                Stat read = new Stat();
                byte[] data;
                try {
                    data = client.getData().storingStatIn(read).forPath(node);
                } catch (KeeperException.NoNodeException e) {
                    try {
                        client.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                                .forPath(node, "0".getBytes(StandardCharsets.US_ASCII));
                    } catch (KeeperException.NodeExistsException raced) {
                        // another client made it first: read it again
                    }
                    continue;
                }
                long last = parse(node, data);
                if (last > SegmentGrant.MAX_LAST - step) {
                    throw new IllegalStateException("counter '" + name + "' at " + node + " is at " + last
                            + "; a step of " + step + " would pass " + SegmentGrant.MAX_LAST);
                }
                long next = last + step;
                try {
                    // the version check is the whole mutual exclusion: see the class comment
                    Stat written = client.setData().withVersion(read.getVersion())
                            .forPath(node, Long.toString(next).getBytes(StandardCharsets.US_ASCII));
                    return new SegmentGrant(last + 1, next, Instant.ofEpochMilli(written.getMtime()));
                } catch (KeeperException.BadVersionException lost) {
                    // another client granted a range meanwhile: wait a random while, then read again
                    SegmentSource.backOffAfterLostWrite(attempt + 1);
                }
            }
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("could not grant " + step + " numbers of '" + name + "' on "
                    + describe() + ": " + e, e);
        }
        throw new IllegalStateException("could not grant " + step + " numbers of '" + name + "' on " + describe()
                + ": lost " + MAX_ATTEMPTS + " version-checked writes in a row to other clients (a larger step"
                + " makes fewer grants)");
    }

    /**
     * Records the pattern as the child {@code pattern} of the name's node ({@code <path>/<name>},
     * made at 0 if the name has no counter yet), unless the child is there, and reads it back.
     */
    @Override
    public String recordPattern(String name, String pattern) {
        SegmentGenerator.checkName(name);
        Objects.requireNonNull(pattern, "pattern");
        String node = nodeOf(name);
        String child = node + "/pattern";
        try {
            try {
                client.create().creatingParentContainersIfNeeded().withMode(CreateMode.PERSISTENT)
                        .forPath(node, "0".getBytes(StandardCharsets.US_ASCII));
            } catch (KeeperException.NodeExistsException counted) {
                // the name has a counter already: the pattern goes below it
            }
            try {
                client.create().withMode(CreateMode.PERSISTENT).forPath(child, pattern.getBytes(StandardCharsets.UTF_8));
                return pattern;
            } catch (KeeperException.NodeExistsException recorded) {
                return new String(client.getData().forPath(child), StandardCharsets.UTF_8);
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("could not record pattern " + pattern + " of '" + name + "' at " + child
                    + " on " + describe() + ": " + e, e);
        }
    }

    @Override
    public Instant now() {
        String clock = path + "/.clock";
        try {
            Stat written;
            try {
                written = client.setData().forPath(clock, new byte[0]);
            } catch (KeeperException.NoNodeException e) {
                try {
                    client.create().creatingParentContainersIfNeeded().forPath(clock, new byte[0]);
                } catch (KeeperException.NodeExistsException raced) {
                    // made meanwhile
                }
                written = client.setData().forPath(clock, new byte[0]);
            }
            return Instant.ofEpochMilli(written.getMtime());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("could not read the time of " + describe() + " (a write to " + clock
                    + "): " + e, e);
        }
    }

    @Override
    public String describe() {
        return "zookeeper path " + path;
    }

    private String nodeOf(String name) {
        // a name is one znode below the path: '/' would make it several, and '.' / '..' are refused
        String encoded = java.net.URLEncoder.encode(name, StandardCharsets.UTF_8);
        if (encoded.equals(".") || encoded.equals("..") || encoded.startsWith(".clock")) {
            encoded = "%" + encoded;
        }
        return path + "/" + encoded;
    }

    private static long parse(String node, byte[] data) {
        String text = new String(data, StandardCharsets.US_ASCII).trim();
        try {
            long v = Long.parseLong(text);
            if (v < 0) {
                throw new NumberFormatException("negative");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalStateException("znode " + node + " holds '" + text + "', not a segment counter (the last"
                    + " number granted, 0 or more); is another program using this path?");
        }
    }

    /** Configures a {@link ZkSegmentSource}. */
    public static final class Builder {
        private final CuratorFramework client;
        private String path = "/idgen/segments";

        private Builder(CuratorFramework client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * @param path the parent znode of the counters, an absolute ZooKeeper path; default
         *     {@code /idgen/segments}
         * @return this
         * @throws IllegalArgumentException if it is not a valid absolute path
         */
        public Builder path(String path) {
            Objects.requireNonNull(path, "path");
            try {
                PathUtils.validatePath(path);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("path '" + path + "' is not a ZooKeeper path: " + e.getMessage()
                        + "; allowed: an absolute path such as /idgen/segments", e);
            }
            if (path.equals("/")) {
                throw new IllegalArgumentException("path '/' is the root; give a node of its own, e.g. /idgen/segments");
            }
            this.path = path;
            return this;
        }

        /** {@return the source; it does not contact ZooKeeper until the first grant} */
        public ZkSegmentSource build() {
            return new ZkSegmentSource(this);
        }
    }
}
