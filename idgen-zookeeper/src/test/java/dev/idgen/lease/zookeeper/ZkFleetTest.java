package dev.idgen.lease.zookeeper;

import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseFleet;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's {@link LeaseFleet} on a real, in-process ZooKeeper server (Curator's {@code
 * TestingServer}). Members share a Curator client in groups of {@value #GROUP} (a client is three
 * threads and a session; 1,000 of them would crowd the two cores this runs on), each group behind
 * its own {@link BlackholeProxy}. A death silences the group's proxy: its renewals stop reaching the
 * server and nothing is released; the dead holders' records stay until their claims expire by the
 * leader's clock, and the new members claim them then. The 100 deaths are ten whole groups. The
 * renewal load is the server's count of packets received (the {@code srvr} command). 200 claimers
 * by default; {@code -Didgen.test.fleet.claimers=1000} for the large setting.
 */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ZkFleetTest {

    private static final int GROUP = 10;
    /** The server's tick: it grants sessions of 2 to 20 ticks, 1 to 10 s. */
    private static final int TICK_MS = 500;
    private static final int SESSION_MS = 10_000;
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Pattern RECEIVED = Pattern.compile("Received: (\\d+)");

    /**
     * Ttl 10 s, renewal every 2 s, margin 300 ms, skew 1 s: 10 s > 2 x 2 + 2 x 1 + 0.3; the same 10 s
     * and 2 s as the other fleets. The session timeout is the client's only.
     */
    private static ZkMachineIdLease.Builder timings(ZkMachineIdLease.Builder b) {
        return b.ttl(TTL).renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofMillis(300))
                .maxClockSkew(Duration.ofSeconds(1));
    }

    /** One client, one session, behind one proxy. */
    private static final class Group {
        final BlackholeProxy proxy;
        final CuratorFramework client;
        volatile boolean dead;

        Group(int serverPort) {
            try {
                proxy = new BlackholeProxy(serverPort);
                client = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + proxy.port())
                        .sessionTimeoutMs(SESSION_MS).connectionTimeoutMs(5000).retryPolicy(new RetryForever(200))
                        .build();
                client.start();
                if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("not connected to ZooKeeper in 30 s");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        void close() {
            try {
                if (dead) {
                    proxy.close(); // refused at once: the client's close does not wait on silence
                }
                client.close();
                proxy.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Test
    void aFleetClaimsDistinctIdsAndIdsOfHoldersThatDieAreReclaimedOnlyAfterTheirFences() throws Exception {
        System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
        Map<Integer, Group> groups = new ConcurrentHashMap<>();
        try (TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_MS, 0), true)) {
            int port = server.getPort();
            try (CuratorFramework admin = ZkTestServer.connect(server.getConnectString())) {
                // provisioned, as an operator would: the first claims do not wait a ttl
                timings(ZkMachineIdLease.builder(admin)).path("/fleet").initializeNewNamespace();
            }
            try {
                LeaseFleet.Result r = LeaseFleet.run("ZooKeeper", new LeaseFleet.Backend() {
                    @Override
                    public LeaseFleet.Member member(int index, long maxMachineId) {
                        Group g = groups.computeIfAbsent(index / GROUP, k -> new Group(port));
                        ZkMachineIdLease.Builder b = timings(ZkMachineIdLease.builder(g.client)).path("/fleet")
                                .maxMachineId(maxMachineId).owner("fleet-" + index);
                        return LeaseFleet.member(b::acquire, () -> {
                            g.dead = true;
                            g.proxy.partition(true); // the whole group's session goes silent
                        }, () -> !g.dead);
                    }

                    @Override
                    public long serverOps() {
                        String srvr = fourLetters(port, "srvr");
                        Matcher m = RECEIVED.matcher(srvr);
                        if (!m.find()) {
                            throw new IllegalStateException("no packet count in srvr's answer: " + srvr);
                        }
                        return Long.parseLong(m.group(1));
                    }

                    @Override
                    public String opsName() {
                        return "packets received";
                    }
                }, LeaseFleet.Settings.forTtl(TTL));
                System.out.println(r + " (" + GROUP + " members per client)");
            } finally {
                List<Group> all = new ArrayList<>(groups.values());
                all.parallelStream().forEach(Group::close);
            }
        }
    }

    private static String fourLetters(int port, String command) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = s.getOutputStream();
            out.write(command.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
