package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import dev.idgen.lease.spi.NamespaceRecord;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The in-memory store keeps the SPI's compare-and-set promises, as a real store does. */
class InMemoryLeaseStoreTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore(new LeaseClock(1_800_000_000_000L));
    private final LeaseRecord free = LeaseRecord.unclaimed(3, LeaseRecord.NEVER);

    @Test
    void anExtendWithAStaleNamespaceNonceChangesNothing() {
        NamespaceRecord born = store.readNamespace();
        NamespaceRecord next = new NamespaceRecord("twitter", 1, 42, Long.MIN_VALUE);
        assertFalse(store.extend(born.nonce() + 1, next, 0, 1, free));
        assertEquals(born, store.readNamespace());
        assertTrue(store.records().isEmpty());
        assertTrue(store.extend(born.nonce(), next, 0, 1, free));
        assertEquals(next, store.readNamespace());
        assertEquals(Set.of(0L, 1L), store.records().keySet());
    }

    @Test
    void anEmptiedStoreHasNoNamespaceToExtendUntilOneIsCreated() {
        store.forgetAll();
        assertFalse(store.extend(1, new NamespaceRecord("twitter", 0, 2, Long.MIN_VALUE), 0, 0, free));
        assertTrue(store.records().isEmpty());
        assertTrue(store.createNamespace(new NamespaceRecord("twitter", -1, 7, 5)));
        assertFalse(store.createNamespace(new NamespaceRecord("other", -1, 8, 5)), "one namespace record, written once");
        assertEquals("twitter", store.readNamespace().layout());
    }
}
