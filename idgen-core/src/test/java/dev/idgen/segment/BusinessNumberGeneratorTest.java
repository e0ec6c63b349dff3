package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.segment.SegmentGeneratorTest.HandClock;
import dev.idgen.segment.spi.SegmentGrant;
import dev.idgen.segment.spi.SegmentSource;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** When a business number generator reads the store's clock, when it takes a range, and its bounds. */
class BusinessNumberGeneratorTest {

    private static final BusinessNumberFormat INV = BusinessNumberFormat.builder().prefix("INV").width(6).build();

    /** An in-memory store on a hand-moved clock that counts its clock readings and grants. */
    static final class CountingStore implements SegmentSource {
        final HandClock clock = new HandClock();
        final InMemorySegmentSource memory = new InMemorySegmentSource(clock);
        final AtomicInteger readings = new AtomicInteger();
        final AtomicInteger grants = new AtomicInteger();
        /** Rewrites each grant before it is returned. */
        volatile UnaryOperator<SegmentGrant> rewrite = UnaryOperator.identity();
        /** When set, the store's clock cannot be read. */
        volatile boolean clockDown;

        CountingStore(String at) {
            clock.millis.set(Instant.parse(at).toEpochMilli());
        }

        @Override
        public SegmentGrant grant(String name, long step) {
            grants.incrementAndGet();
            return rewrite.apply(memory.grant(name, step));
        }

        @Override
        public Instant now() {
            readings.incrementAndGet();
            if (clockDown) {
                throw new IllegalStateException("connection reset (scripted)");
            }
            return clock.instant();
        }

        @Override
        public String recordPattern(String name, String pattern) {
            return memory.recordPattern(name, pattern);
        }

        @Override
        public String describe() {
            return "counting-store";
        }
    }

    private static BusinessNumberGenerator.Builder on(CountingStore store, HandClock local) {
        return BusinessNumberGenerator.builder().source(store).name("invoice").format(INV).clock(local);
    }

    @Test
    void theStoresClockIsReadOncePerRangeWhileTheEstimateStaysInTheGroup() {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        HandClock local = new HandClock();
        BusinessNumberGenerator g = on(store, local).step(3).build();
        for (int i = 1; i <= 6; i++) {
            local.advance(1000);
            store.clock.advance(1000);
            assertEquals(INV.format(java.time.LocalDate.of(2026, 12, 3), i), g.next());
        }
        assertEquals(2, store.grants.get());
        assertEquals(2, store.readings.get(), "one reading before each grant, none in between");
        assertSame(INV, g.format());
    }

    @Test
    void theLastNumberOfARangeIsCheckedAgainstTheStoresDateToo() {
        CountingStore store = new CountingStore("2026-12-03T23:59:59Z");
        HandClock local = new HandClock();
        BusinessNumberGenerator g = on(store, local).step(2).build();
        assertEquals("INV-20261203-000001", g.next());
        store.clock.advance(2000);
        local.advance(2000);
        assertEquals("INV-20261204-000001", g.next(), "the range's last number belongs to the old day: dropped");
    }

    @Test
    void aStoreReadingThatKeepsTheGroupResetsTheEstimate() {
        CountingStore store = new CountingStore("2026-12-03T23:59:58Z");
        HandClock local = new HandClock();
        BusinessNumberGenerator g = on(store, local).step(10).build();
        g.next();
        local.advance(5000); // the local estimate passes midnight, the store's clock stands
        g.next();
        g.next();
        g.next();
        assertEquals(2, store.readings.get(), "one reading for the estimate; the estimate starts again from it");
    }

    @Test
    void theEstimateStartsFromTheGrantsOwnTime() {
        CountingStore store = new CountingStore("2026-12-03T23:00:00Z");
        // the grant is stamped later than the reading before it, 1 s before midnight
        store.rewrite = grant -> new SegmentGrant(grant.first(), grant.last(), Instant.parse("2026-12-03T23:59:59Z"));
        HandClock local = new HandClock();
        BusinessNumberGenerator g = on(store, local).step(10).build();
        g.next();
        local.advance(2000);
        g.next();
        assertEquals(2, store.readings.get(), "2 s after a grant stamped 23:59:59 the store is asked for its date");
    }

    @Test
    void aGroupUsesEveryCounterItsWidthAllowsThenSaysSo() {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        BusinessNumberFormat one = BusinessNumberFormat.builder().prefix("T").width(1).build();
        BusinessNumberGenerator g = BusinessNumberGenerator.builder().source(store).name("t").format(one).step(5)
                .build();
        for (int i = 1; i <= 9; i++) {
            assertEquals("T-20261203-" + i, g.next());
        }
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertEquals("business numbers 't:20261203' have used every counter of pattern T-yyyyMMdd-N (up to 9);"
                + " widen the pattern", e.getMessage());
    }

    @Test
    void aRangeOverlappingTheLastOneIsRefused() {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        BusinessNumberGenerator g = on(store, new HandClock()).step(2).build();
        g.next();
        g.next();
        // the next grant starts on the last number already used
        store.rewrite = grant -> new SegmentGrant(grant.first() - 1, grant.last(), grant.storeTime());
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertTrue(e.getMessage().startsWith("counting-store granted [2, 4] for 'invoice:20261203', not above the last"
                + " range held (up to 2); refused"), e.getMessage());
    }

    @Test
    void threeGrantsStampedInALaterGroupInARowAreAnError() {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        // every grant says the store's day is already over, however often it is asked
        store.rewrite = grant -> new SegmentGrant(grant.first(), grant.last(),
                store.clock.instant().plusSeconds(86_400L * store.grants.get()));
        BusinessNumberGenerator g = on(store, new HandClock()).build();
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertEquals("no business number for 'invoice' from counting-store: three grants in a row came back stamped in a"
                + " later date group than asked for", e.getMessage());
        assertEquals(3, store.grants.get());
    }

    @Test
    void countsWhatItHandsOutAndReportsAFailingStoreUntilItAnswers() {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        HandClock local = new HandClock();
        BusinessNumberGenerator g = on(store, local).step(2).build();
        assertEquals("invoice", g.name());
        g.next();
        g.next();
        assertEquals(2, g.issued());
        assertEquals(1, g.grants());
        assertEquals(0, g.storeFailures());
        assertEquals(null, g.lastError());
        store.clockDown = true;
        Instant firstFailure = local.instant();
        assertThrows(SegmentUnavailableException.class, g::next);
        local.advance(1000);
        SegmentUnavailableException e = assertThrows(SegmentUnavailableException.class, g::next);
        assertTrue(g.storeFailing());
        assertEquals(firstFailure, g.failingSince(), "since the first failure of the run");
        assertSame(e, g.lastError());
        assertEquals(2, g.storeFailures());
        assertEquals(2, g.issued());
        store.clockDown = false;
        assertEquals("INV-20261203-000003", g.next());
        assertTrue(!g.storeFailing());
        assertEquals(null, g.failingSince());
        assertEquals(3, g.issued());
        assertEquals(2, g.grants());
    }

    @Test
    void aCallOnAnotherThreadProceedsAfterOneThatReturned() throws Exception {
        CountingStore store = new CountingStore("2026-12-03T10:00:00Z");
        BusinessNumberGenerator g = on(store, new HandClock()).build();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertEquals("INV-20261203-000001", other.submit(g::next).get(30, TimeUnit.SECONDS));
            // the first thread is alive and idle: had it kept the lock, this call would never return
            assertEquals("INV-20261203-000002", CompletableFuture.supplyAsync(g::next).get(30, TimeUnit.SECONDS));
        } finally {
            other.shutdownNow();
        }
    }
}
