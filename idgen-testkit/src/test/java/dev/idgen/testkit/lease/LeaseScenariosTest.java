package dev.idgen.testkit.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.InMemoryLeaseStore;
import dev.idgen.lease.LeaseBuilder;
import dev.idgen.lease.StoreLease;
import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.LeaseStore;
import dev.idgen.lease.spi.NamespaceRecord;
import dev.idgen.lease.spi.StoreTime;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The conformance suite against the in-memory store (real time, ttl 1 s): the store passes every
 * scenario; a store that ignores the nonce it is to compare, and one that claims to be new after it
 * was emptied, each fail the scenario that exists for that fault. So the suite can fail, for the
 * reason each scenario exists.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeaseScenariosTest {

    /** How a store is broken on purpose. */
    private enum Fault { NONE, IGNORES_NONCE, FORGETS_SILENTLY }

    /** In-memory namespaces; a connection can be cut off (every call then fails as a timeout would). */
    private record InMemoryBackend(Fault fault) implements LeaseBackend {

        @Override
        public Namespace namespace(String scenario) {
            InMemoryLeaseStore store = new InMemoryLeaseStore(InstantSource.system(), "in memory " + scenario);
            return new Namespace() {
                @Override
                public Connection connect(String name) {
                    CutOffStore mine = new CutOffStore(store, fault);
                    return new Connection() {
                        @Override
                        public LeaseBuilder<?, ?> builder() {
                            return StoreLease.builder(mine).owner(name).background(false).ttl(Duration.ofSeconds(1))
                                    .renewEvery(Duration.ofMillis(150)).safetyMargin(Duration.ofMillis(100))
                                    .maxClockSkew(Duration.ofMillis(150));
                        }

                        @Override
                        public LeaseStore store() {
                            return mine;
                        }

                        @Override
                        public void cutOff() {
                            mine.cut = true;
                        }

                        @Override
                        public void close() {
                        }
                    };
                }

                @Override
                public void forgetRecord(long machineId) {
                    store.forget(machineId);
                }

                @Override
                public void forgetAll() {
                    store.forgetAll();
                    if (fault == Fault.FORGETS_SILENTLY) {
                        // a store that shows itself new after it was emptied: claims open at once
                        store.createNamespace(new NamespaceRecord("", -1, 7, Long.MIN_VALUE));
                    }
                }

                @Override
                public void close() {
                }
            };
        }
    }

    /** The in-memory store behind one connection, which a partition can cut. */
    private static final class CutOffStore implements LeaseStore {
        private final InMemoryLeaseStore store;
        private final Fault fault;
        volatile boolean cut;

        CutOffStore(InMemoryLeaseStore store, Fault fault) {
            this.store = store;
            this.fault = fault;
        }

        private void reach() throws IOException {
            if (cut) {
                throw new IOException("cut off: the call timed out");
            }
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public StoreTime time() throws IOException {
            reach();
            return store.time();
        }

        @Override
        public NamespaceRecord readNamespace() throws IOException {
            reach();
            return store.readNamespace();
        }

        @Override
        public boolean createNamespace(NamespaceRecord namespace) throws IOException {
            reach();
            return store.createNamespace(namespace);
        }

        @Override
        public boolean extend(long expectedNonce, NamespaceRecord next, long fromId, long toId, LeaseRecord initial)
                throws IOException {
            reach();
            return store.extend(expectedNonce, next, fromId, toId, initial);
        }

        @Override
        public SortedMap<Long, LeaseRecord> read(long fromId, long toId) throws IOException {
            reach();
            return store.read(fromId, toId);
        }

        @Override
        public boolean replace(long id, long expectedNonce, LeaseRecord next) throws IOException {
            reach();
            if (fault == Fault.IGNORES_NONCE) {
                LeaseRecord now = store.read(id, id).get(id);
                return now != null && store.replace(id, now.nonce(), next);
            }
            return store.replace(id, expectedNonce, next);
        }
    }

    @TestFactory
    Stream<DynamicTest> aCorrectStorePassesEveryScenario() {
        LeaseBackend backend = new InMemoryBackend(Fault.NONE);
        return LeaseScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            LeaseScenarios.Result r = s.runOn(backend);
            System.out.println(r);
            if (!s.name().equals("copy without signal") && !s.name().equals("copy whose renewals fail")) {
                assertEquals(0, r.identical(), r.toString());
            }
        }));
    }

    @Test
    void aStoreThatIgnoresTheNonceLetsTwoCopiesShareAnIdAndTheSuiteSaysSo() {
        LeaseBackend broken = new InMemoryBackend(Fault.IGNORES_NONCE);
        AssertionError e = assertThrows(AssertionError.class, () -> run(broken, "copy without signal"));
        assertTrue(e.getMessage().contains("both on id") || e.getMessage().contains("in common"), e.getMessage());
    }

    @Test
    void aStoreThatShowsItselfNewAfterItWasEmptiedRepeatsIdsAndTheSuiteSaysSo() {
        LeaseBackend broken = new InMemoryBackend(Fault.FORGETS_SILENTLY);
        AssertionError e = assertThrows(AssertionError.class, () -> run(broken, "store emptied"));
        assertTrue(e.getMessage().contains("IDs made by both") || e.getMessage().contains("after B started"),
                e.getMessage());
    }

    @Test
    void everyScenarioHasADistinctName() {
        List<String> names = LeaseScenarios.all().stream().map(LeaseScenarios.Scenario::name).toList();
        assertEquals(names.size(), names.stream().distinct().count(), names.toString());
    }

    private static void run(LeaseBackend backend, String name) {
        LeaseScenarios.all().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().runOn(backend);
    }
}
