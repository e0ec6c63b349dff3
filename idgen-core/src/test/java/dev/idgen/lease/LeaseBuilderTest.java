package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Duration;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** Every builder setting is checked at once, or with the others when the builder acquires, naming the value. */
class LeaseBuilderTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore(InstantSource.system());

    private StoreLease.Builder builder() {
        return StoreLease.builder(store).background(false);
    }

    @Test
    void idsAreZeroToIntMaxAndTheRangeMustFitTheLayout() {
        assertEquals("maxMachineId = -1 is outside the allowed range 0..2147483647",
                assertThrows(IllegalArgumentException.class, () -> builder().maxMachineId(-1)).getMessage());
        assertEquals("minMachineId = 2147483648 is outside the allowed range 0..2147483647",
                assertThrows(IllegalArgumentException.class, () -> builder().minMachineId(1L << 31)).getMessage());
        assertEquals("machineId = -3 is outside the allowed range 0..2147483647",
                assertThrows(IllegalArgumentException.class, () -> builder().machineId(-3)).getMessage());
        assertEquals("maxMachineId = 1024 is above layout twitter's maxMachineId() = 1023; allowed: 0..1023",
                assertThrows(IllegalArgumentException.class, () -> builder().maxMachineId(1024).acquire()).getMessage());
        assertEquals("minMachineId = 5 is above maxMachineId = 4; the range must hold at least one id",
                assertThrows(IllegalArgumentException.class, () -> builder().minMachineId(5).maxMachineId(4).acquire())
                        .getMessage());
        assertEquals("machineId = 9 is outside the allowed range 2..8 (raise maxMachineId up to the layout's"
                + " maxMachineId() for a wider id)", assertThrows(IllegalArgumentException.class,
                        () -> builder().minMachineId(2).maxMachineId(8).machineId(9).acquire()).getMessage());
    }

    @Test
    void theDefaultsAreTwitterWithItsWholeRangeAThirtySecondTtlAndAnyFreeIdAfterALoss() {
        StoreLease l = builder().acquire();
        assertEquals(Duration.ofSeconds(30), l.timings().ttl());
        assertEquals(Duration.ofSeconds(6), l.timings().renewEvery());
        assertTrue(l.reclaimsAnyId());
        assertEquals(SnowflakeLayout.TWITTER.signature(), store.readNamespace().layout());
        StoreLease sony = StoreLease.builder(new InMemoryLeaseStore(InstantSource.system())).background(false)
                .layout(SnowflakeLayout.SONYFLAKE).machineId(65_535).acquire();
        assertEquals(65_535, sony.machineId(), "the layout's whole range is allowed");
        l.close();
        sony.close();
    }

    @Test
    void anOwnerIsOneTo255CharactersNotBlankAndEachDefaultOneIsNew() {
        assertEquals("owner ' ' (1 characters) must be 1 to 255 characters, not blank",
                assertThrows(IllegalArgumentException.class, () -> builder().owner(" ")).getMessage());
        builder().owner("x".repeat(255));
        assertThrows(IllegalArgumentException.class, () -> builder().owner("x".repeat(256)));
        assertThrows(NullPointerException.class, () -> builder().owner(null));
        assertNotEquals(LeaseBuilder.defaultOwner(), LeaseBuilder.defaultOwner());
        assertTrue(LeaseBuilder.defaultOwner().matches(".+/" + ProcessHandle.current().pid() + "/[0-9a-f]+"));
    }

    @Test
    void timingsThatDoNotFitAreRefusedWhenTheLeaseIsAcquired() {
        StoreLease.Builder b = builder().ttl(Duration.ofSeconds(3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::acquire);
        assertTrue(e.getMessage().startsWith("Lease timings do not fit: ttl 3000 ms"), e.getMessage());
        assertThrows(NullPointerException.class, () -> builder().layout(null));
        assertThrows(NullPointerException.class, () -> builder().clock(null));
        assertThrows(NullPointerException.class, () -> builder().renewEvery(null));
    }

    @Test
    void aNamespaceInitialisedAsNewOpensItsFirstClaimAtOnceAndOnlyOnce() {
        InMemoryLeaseStore emptied = new InMemoryLeaseStore(InstantSource.system());
        emptied.forgetAll();
        StoreLease.Builder b = StoreLease.builder(emptied).background(false);
        assertTrue(b.initializeNewNamespace());
        assertEquals(Long.MIN_VALUE, emptied.readNamespace().trustedFromMillis());
        assertTrue(!b.initializeNewNamespace(), "a namespace that has its record is left alone");
        assertTrue(b.acquire().isHeld());
    }

    @Test
    void machineIdZeroIsAnIdAndMustLieInTheRangeAsAnyOther() {
        assertEquals("machineId = 0 is outside the allowed range 1..1023 (raise maxMachineId up to the layout's"
                + " maxMachineId() for a wider id)", assertThrows(IllegalArgumentException.class,
                        () -> builder().minMachineId(1).machineId(0).acquire()).getMessage());
        builder().minMachineId(LeaseBuilder.MAX_MACHINE_ID).maxMachineId(LeaseBuilder.MAX_MACHINE_ID)
                .machineId(LeaseBuilder.MAX_MACHINE_ID); // the largest id is allowed, as the message says
        StoreLease zero = builder().machineId(0).acquire();
        assertEquals(0, zero.machineId());
        zero.close();
    }

    @Test
    void aStoreModulesBuilderReadsTheClockItWasGiven() {
        InstantSource fixed = InstantSource.fixed(java.time.Instant.ofEpochMilli(1_800_000_000_000L));
        class Custom extends LeaseBuilder<Custom, StoreLease> {
            InstantSource seen;

            @Override
            protected StoreLease newLease() {
                seen = clock();
                return new StoreLease(this, new InMemoryLeaseStore(fixed));
            }
        }
        Custom b = new Custom().clock(fixed).background(false);
        b.acquire();
        assertEquals(fixed, b.seen);
    }

    @Test
    void aNewNamespaceIsMarkedWithARandomNonce() {
        java.util.Set<Long> nonces = new java.util.HashSet<>();
        for (int i = 0; i < 32; i++) {
            InMemoryLeaseStore fresh = new InMemoryLeaseStore(InstantSource.system());
            fresh.forgetAll(); // no namespace record: a store that was never used
            assertTrue(StoreLease.builder(fresh).background(false).initializeNewNamespace());
            long nonce = fresh.readNamespace().nonce();
            assertNotEquals(0, nonce, "0 is no nonce any write draws");
            nonces.add(nonce);
        }
        assertEquals(32, nonces.size(), "32 fresh namespaces, 32 random nonces: " + nonces);
    }

    @Test
    void theDefaultOwnerNamesTheHostOrSaysHostWhenItIsUnsetOrBlank() {
        String pid = "/" + ProcessHandle.current().pid() + "/";
        assertTrue(LeaseBuilder.defaultOwner("api-7").startsWith("api-7" + pid));
        assertTrue(LeaseBuilder.defaultOwner(null).startsWith("host" + pid));
        assertTrue(LeaseBuilder.defaultOwner(" ").startsWith("host" + pid));
        for (int i = 0; i < 20; i++) {
            assertTrue(LeaseBuilder.defaultOwner("h").matches("h" + pid + "[0-9a-f]{1,12}"), "48 random bits in hex");
        }
    }
}
