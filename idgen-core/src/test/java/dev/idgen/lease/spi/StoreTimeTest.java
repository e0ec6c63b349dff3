package dev.idgen.lease.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** How far a store's clock is from the local one, and how well that is known, from one bracketed reading. */
class StoreTimeTest {

    @Test
    void theSkewIsTakenAtTheMiddleOfTheRequestAndKnownWithinHalfItsLength() {
        StoreTime t = StoreTime.of(1_000, 900, 961); // 61 ms round trip, its middle at 930
        assertEquals(70, t.skewMillis());
        assertEquals(31, t.uncertaintyMillis(), "half of 61, rounded up");
        assertEquals(Long.MIN_VALUE, t.restartedAtMillis());
        StoreTime instant = StoreTime.of(1_000, 1_010, 1_010);
        assertEquals(-10, instant.skewMillis());
        assertEquals(0, instant.uncertaintyMillis());
        StoreTime backwards = StoreTime.of(1_000, 1_010, 1_000); // the local clock stepped back meanwhile
        assertEquals(-10, backwards.skewMillis());
        assertEquals(0, backwards.uncertaintyMillis());
    }

    @Test
    void aStoreWithNoClockAnswersTheLocalOne() {
        StoreTime t = StoreTime.local(5_000);
        assertEquals(new StoreTime(5_000, 5_000, 5_000, Long.MIN_VALUE, false), t);
        assertFalse(t.hasClock());
        assertEquals(0, t.skewMillis());
    }
}
