package dev.idgen.lease.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.machine.MachineIdLeaseException;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code machineId(long)} on etcd: a configured id claimed exactly, a second claimer refused by name. */
class ExactMachineIdTest {

    private static EtcdCluster etcd;
    private static Client client;

    @BeforeAll
    static void startEtcd() {
        etcd = EtcdCluster.start(1);
        client = Client.builder().endpoints(etcd.endpoint(0)).build();
    }

    @AfterAll
    static void stopEtcd() {
        if (client != null) {
            client.close();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void aSecondClaimerOfTheSameIdFailsNamingTheFirst() {
        String ns = "/idgen-etcd-exact-test/" + System.nanoTime();
        EtcdMachineIdLease.builder(client).namespace(ns).initializeNewNamespace();
        long claimed = System.currentTimeMillis();
        EtcdMachineIdLease first = EtcdMachineIdLease.builder(client).namespace(ns).maxMachineId(9).machineId(5)
                .owner("first-instance").background(false).acquire();
        try {
            assertEquals(5, first.machineId(), "the exact id, not the lowest free one (0)");
            long before = System.currentTimeMillis();
            MachineIdLeaseException e = assertThrows(MachineIdLeaseException.class, () -> EtcdMachineIdLease
                    .builder(client).namespace(ns).maxMachineId(9).machineId(5).owner("second-instance")
                    .background(false).acquire());
            String m = e.getMessage();
            assertTrue(m.startsWith("Machine id 5 under etcd namespace " + ns + " is held by a live lease of owner"
                    + " 'first-instance' (token 1) until "), m);
            assertTrue(m.contains("another process runs with this id"), m);
            Matcher until = Pattern.compile("until (\\S+) by the store's clock \\((\\d+) ms from now\\)").matcher(m);
            assertTrue(until.find(), m);
            long after = System.currentTimeMillis();
            // bounds from the times measured around the calls, however long they took; 1 s for the
            // reading of etcd's clock (on this host) against ours
            long left = Long.parseLong(until.group(2));
            long expires = Instant.parse(until.group(1)).toEpochMilli();
            assertTrue(expires >= claimed + 29_000 && expires <= before + 31_000,
                    "the 30 s ttl from the first claim: " + m);
            assertTrue(left <= 30_000 && left >= expires - after - 1_000 && left <= expires - before + 1_000,
                    "what is left of the ttl when refused: " + m);
            assertTrue(first.isHeld(), "the first holder keeps its id");

            EtcdMachineIdLease other = EtcdMachineIdLease.builder(client).namespace(ns).maxMachineId(9)
                    .background(false).acquire();
            assertEquals(0, other.machineId(), "a lease with no exact id still claims the lowest free id");
            other.close();
            IllegalArgumentException above = assertThrows(IllegalArgumentException.class, () -> EtcdMachineIdLease
                    .builder(client).namespace(ns).maxMachineId(9).machineId(10).acquire());
            assertEquals("machineId = 10 is outside the allowed range 0..9 (raise maxMachineId up to the layout's"
                    + " maxMachineId() for a wider id)", above.getMessage());
        } finally {
            first.close();
        }
        assertFalse(first.isHeld());
    }

    @Test
    void aNamespaceIsPrintableAsciiWithoutSpacesAndDoesNotEndWithASlash() {
        for (String bad : new String[] {"", "/a/", "/a b", "/a\u0001"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EtcdMachineIdLease.builder(client).namespace(bad));
            assertTrue(e.getMessage().endsWith("must be printable ASCII without spaces, not empty, and not end with /"),
                    e.getMessage());
        }
    }
}
