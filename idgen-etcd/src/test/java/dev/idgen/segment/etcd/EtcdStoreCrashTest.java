package dev.idgen.segment.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.idgen.lease.etcd.EtcdCluster;
import dev.idgen.testkit.segment.CrashRestartRun;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A one-member etcd killed ({@code SIGKILL}) right after a grant and started again on the same
 * ports and data dir, five times: every grant is kept (etcd syncs its write-ahead log before it
 * acknowledges a write, unless started with {@code --unsafe-no-fsync}).
 */
@Tag("slow")
class EtcdStoreCrashTest {

    private static final int KILLS = 5;
    private final List<Client> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(Client::close);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyGrantSurvivesAKillRightAfterIt() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.start(1)) {
            CrashRestartRun.Report r = CrashRestartRun.run(round -> {
                Client c = Client.builder().endpoints(etcd.endpoints()).build();
                clients.add(c);
                return EtcdSegmentSource.builder(c).namespace("/idgen/crash").timeout(Duration.ofSeconds(10)).build();
            }, EtcdStoreOpener.killAndRestart(etcd), "orders", 100, KILLS, 3, Duration.ofSeconds(60));
            System.out.println("etcd (SIGKILL): " + r.summary());
            assertNull(r.refusal());
            assertEquals(KILLS, r.rounds());
            assertEquals(0, r.repeats(), r.summary());
            assertEquals((KILLS * 3 + 1) * 100L, r.numbers());
        }
    }
}
