package dev.idgen.lease.zookeeper;

import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The conformance suite's view of ZooKeeper: one private in-process server, a path of its own per
 * scenario (made as a provisioning step would, so its first claim does not wait), and per
 * connection a Curator client behind its own {@link BlackholeProxy}, which a partition silences.
 * The store forgets as ZooKeeper can: a record's znode deleted, the path deleted, the server stopped
 * and started again with its data directory wiped.
 */
final class ZkLeaseBackend implements LeaseBackend {

    private final ZkTestServer zk;
    private final CuratorFramework admin;

    /** @param zk the server; its clients close with it */
    ZkLeaseBackend(ZkTestServer zk) {
        this.zk = zk;
        this.admin = zk.admin();
    }

    @Override
    public Namespace namespace(String scenario) {
        String path = zk.freshPath("suite-" + scenario);
        List<Conn> open = new CopyOnWriteArrayList<>();
        return new Namespace() {
            @Override
            public Connection connect(String name) {
                Conn c = new Conn(path, name);
                open.add(c);
                return c;
            }

            @Override
            public void forgetRecord(long machineId) {
                admin(() -> admin.delete().forPath(path + "/ids/" + machineId));
            }

            @Override
            public void forgetAll() {
                admin(() -> admin.delete().deletingChildrenIfNeeded().forPath(path));
            }

            @Override
            public void restartEmpty() {
                admin(() -> {
                    zk.server().stop();
                    wipe(zk.server().getTempDirectory().toPath());
                    zk.server().restart();
                });
            }

            @Override
            public void close() {
                open.forEach(Conn::close);
                admin(() -> {
                    try {
                        admin.delete().deletingChildrenIfNeeded().forPath(path);
                    } catch (KeeperException.NoNodeException gone) {
                        // emptied by the scenario
                    }
                });
            }
        };
    }

    /** One claimer's Curator client, through a proxy of its own. */
    private final class Conn implements Connection {
        private final String path;
        private final String name;
        private final BlackholeProxy proxy;
        private final CuratorFramework client;
        private volatile boolean cut;

        Conn(String path, String name) {
            this.path = path;
            this.name = name;
            try {
                this.proxy = new BlackholeProxy(zk.server().getPort());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // a short session: a call on a cut connection fails after 0.67 s instead of 2 s; the
            // lease does not depend on the session
            this.client = ZkTestServer.connect("127.0.0.1:" + proxy.port(), 1000);
        }

        @Override
        public LeaseBuilder<?, ?> builder() {
            return ZkTestServer.lease(client, path).owner(name).background(false);
        }

        @Override
        public LeaseStore store() {
            return new ZkLeaseStore(client, path, InstantSource.system());
        }

        @Override
        public void cutOff() {
            cut = true;
            proxy.partition(true);
        }

        @Override
        public void close() {
            try {
                if (cut) {
                    proxy.close(); // refused at once: the client's close does not wait on the silence
                }
                client.close();
                proxy.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @FunctionalInterface
    private interface AdminStep {
        void run() throws Exception;
    }

    private static void admin(AdminStep step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("ZooKeeper test administration failed: " + e, e);
        }
    }

    /** Deletes what the stopped server kept (its snapshots and logs), keeping the directory. */
    private static void wipe(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        }
    }
}
