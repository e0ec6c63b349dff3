package dev.idgen.lease.etcd;

import dev.idgen.testkit.lease.BlackholeProxy;
import dev.idgen.testkit.lease.LeaseFleet;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testkit's {@link LeaseFleet} on an etcd server of its own on loopback ({@link EtcdCluster}).
 * Members share a jetcd client in groups of {@value #GROUP} (a jetcd client brings its own gRPC
 * channel and executors; 1,000 of them would crowd the two cores this runs on), each group behind
 * its own {@link BlackholeProxy}; each member still has its own record and renewal thread. A death
 * silences the group's proxy: no renewal reaches etcd, and the records expire by their own expiry;
 * nothing is released. The 100 deaths are ten whole groups. The renewal load is etcd's own count of
 * puts, each renewal one ({@code /metrics}). 200 claimers by default; {@code -Didgen.test.fleet.claimers=1000}
 * for the large setting.
 */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class EtcdFleetTest {

    private static final int GROUP = 10;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * ttl 10 s, renew 2 s, margin 1 s, skew 500 ms (counted twice: etcd shows no clock): headroom 3 s,
     * as the other fleets (see RedisFleetTest).
     */
    private static EtcdMachineIdLease.Builder timings(EtcdMachineIdLease.Builder b) {
        return b.ttl(Duration.ofSeconds(10)).renewEvery(Duration.ofSeconds(2)).safetyMargin(Duration.ofSeconds(1))
                .maxClockSkew(Duration.ofMillis(500));
    }

    /** One client behind one proxy. */
    private static final class Group {
        final BlackholeProxy proxy;
        final Client client;
        volatile boolean dead;

        Group(int port) {
            try {
                proxy = new BlackholeProxy(port);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            client = Client.builder().endpoints("http://127.0.0.1:" + proxy.port()).build();
        }

        void close() {
            try {
                if (dead) {
                    proxy.close();
                }
                client.close();
                proxy.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Test
    void aFleetClaimsDistinctIdsAndIdsOfHoldersThatDieAreReclaimedOnlyAfterTheirLeasesExpire() throws Exception {
        Map<Integer, Group> groups = new ConcurrentHashMap<>();
        String ns = "/idgen-etcd-fleet/" + System.nanoTime();
        try (EtcdCluster etcd = EtcdCluster.start(1);
                Client admin = Client.builder().endpoints(etcd.endpoint(0)).build()) {
            EtcdMachineIdLease.builder(admin).namespace(ns).initializeNewNamespace();
            int port = etcd.clientPort(0);
            try {
                LeaseFleet.Result r = LeaseFleet.run("etcd", new LeaseFleet.Backend() {
                    @Override
                    public LeaseFleet.Member member(int index, long maxMachineId) {
                        Group g = groups.computeIfAbsent(index / GROUP, k -> new Group(port));
                        EtcdMachineIdLease.Builder b = timings(EtcdMachineIdLease.builder(g.client)).namespace(ns)
                                .maxMachineId(maxMachineId).owner("fleet-" + index);
                        return LeaseFleet.member(b::acquire, () -> {
                            g.dead = true;
                            g.proxy.partition(true); // the whole group goes silent
                        }, () -> !g.dead);
                    }

                    @Override
                    public long serverOps() {
                        String m = metrics(etcd.endpoint(0));
                        long puts = metric(m, "etcd_mvcc_put_total");
                        return puts >= 0 ? puts : metric(m, "etcd_debugging_mvcc_put_total");
                    }

                    @Override
                    public String opsName() {
                        return "puts";
                    }
                }, LeaseFleet.Settings.forTtl(Duration.ofSeconds(10)));
                System.out.println(r + " (" + GROUP + " members per client)");
            } finally {
                List<Group> all = new ArrayList<>(groups.values());
                all.parallelStream().forEach(Group::close);
            }
        }
    }

    private static String metrics(String endpoint) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(endpoint + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The value of a metric without labels, or -1 if etcd does not export it. */
    private static long metric(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        return -1;
    }
}
