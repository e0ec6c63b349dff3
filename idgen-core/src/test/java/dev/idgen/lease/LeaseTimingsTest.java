package dev.idgen.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.lease.spi.LeaseRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The timings' inequalities and the arithmetic of every fence and floor, with the numbers worked by hand. */
class LeaseTimingsTest {

    private static Duration ms(long n) {
        return Duration.ofMillis(n);
    }

    /** ttl 3 s, renewal every 400 ms, margin 300 ms, skew bound 400 ms: the tests' timings. */
    private static final LeaseTimings TEST = new LeaseTimings(ms(3_000), ms(400), ms(300), ms(400), true);

    @Test
    void defaultsAreAFifthAndATenthOfTheTtlAndOneSecondOfSkew() {
        LeaseTimings t = LeaseTimings.of(Duration.ofSeconds(30), null, null, null, true);
        assertEquals(ms(6_000), t.renewEvery());
        assertEquals(ms(3_000), t.safetyMargin());
        assertEquals(ms(1_000), t.maxClockSkew());
        assertEquals(ms(30_000 - 12_000 - 2_000 - 3_000), t.headroom());
        assertEquals(4_000, t.fenceOffsetMillis());
        // 13 s of headroom, a third of it per renewal: 4.333 s; silence 6 + 1 + 8.667 = 15.667 s
        assertEquals(ms(4_333).plusNanos(333_333), t.callTimeout());
        assertEquals(ms(15_666).plusNanos(666_666), t.silence());
    }

    @Test
    void aStoreWithNoClockDoublesTheSkewBoundEverywhere() {
        LeaseTimings t = LeaseTimings.of(Duration.ofSeconds(30), null, null, null, false);
        assertEquals(2_000, t.skewMillis());
        assertEquals(5_000, t.fenceOffsetMillis());
        assertEquals(ms(30_000 - 12_000 - 4_000 - 3_000), t.headroom());
        new LeaseTimings(ms(3_000), ms(400), ms(300), ms(500), true); // fits with a clock
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(3_000), ms(400), ms(300), ms(500), false));
        assertEquals("Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery (400 ms) + 2 x the skew bound"
                + " (1000 ms: twice maxClockSkew, for a store with no clock) + safetyMargin (300 ms) = 3100 ms, or a"
                + " healthy holder is fenced before its next renewal; lengthen the ttl or shorten the others",
                e.getMessage());
    }

    @Test
    void aShortTtlWithTheDefaultSkewIsRefusedNamingEveryNumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LeaseTimings.of(Duration.ofSeconds(3), null, null, null, true));
        assertEquals("Lease timings do not fit: ttl 3000 ms must exceed 2 x renewEvery (600 ms) + 2 x the skew bound"
                + " (1000 ms) + safetyMargin (300 ms) = 3500 ms, or a healthy holder is fenced before its next"
                + " renewal; lengthen the ttl or shorten the others", e.getMessage());
    }

    @Test
    void theHeadroomMustBePositiveNotMerelyZero() {
        // 2 x 400 + 2 x 300 + 600 = 2000: exactly the ttl leaves no time for a round trip
        assertThrows(IllegalArgumentException.class, () -> new LeaseTimings(ms(2_000), ms(400), ms(600), ms(300), true));
        assertEquals(ms(1), new LeaseTimings(ms(2_001), ms(400), ms(600), ms(300), true).headroom());
        assertEquals(Duration.ofNanos(333_333), new LeaseTimings(ms(2_001), ms(400), ms(600), ms(300), true)
                .callTimeout(), "a third of 1 ms, not rounded to a whole millisecond");
    }

    @Test
    void outOfRangeValuesAreRefusedOneByOne() {
        assertEquals("Lease ttl 99 ms is too short; at least 100 ms", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(99), ms(1), ms(0), ms(0), true)).getMessage());
        assertEquals("Lease renewEvery 0 ms must be at least 1 ms", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(0), ms(0), ms(0), true)).getMessage());
        assertEquals("Lease safetyMargin -1 ms is negative; zero or more", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(1), ms(-1), ms(0), true)).getMessage());
        assertEquals("Lease maxClockSkew -5 ms is negative; zero or more", assertThrows(IllegalArgumentException.class,
                () -> new LeaseTimings(ms(1_000), ms(1), ms(0), ms(-5), true)).getMessage());
        assertThrows(NullPointerException.class, () -> new LeaseTimings(null, ms(1), ms(0), ms(0), true));
        assertThrows(NullPointerException.class, () -> LeaseTimings.of(null, null, null, null, true));
    }

    @Test
    void theFenceIsTheOlderExpiryLessSkewAndMarginOrTheSilenceBoundWhicheverComesFirst() {
        // headroom 3000 - 800 - 800 - 300 = 1100 ms; silence 400 + 400 + 2 x 366.667 = 1533 ms
        assertEquals(1_533, TEST.silence().toMillis());
        assertEquals(10_000 - 700, TEST.fence(10_000, 9_000), "expiry first: 9300 < 10533");
        assertEquals(5_000 + 1_533, TEST.fence(10_000, 5_000), "silence first: 6533 < 9300");
        assertEquals(Long.MIN_VALUE, TEST.fence(Long.MIN_VALUE + 5, 0), "saturates instead of wrapping");
        assertEquals(Long.MAX_VALUE - 700, TEST.fence(Long.MAX_VALUE, Long.MAX_VALUE - 5));
    }

    @Test
    void theFloorIsTheBelievedMarkOrTheLastWritersFenceWhicheverIsHigher() {
        long now = 100_000;
        // a mark beyond now + skew is believed only up to there
        assertEquals(now + 400, TEST.floor(new LeaseRecord("a", 1, 1, 50_000, now + 86_400_000, 700), now));
        // a mark below the old fence: the fence wins, with the smaller of the two offsets
        assertEquals(60_000 - 200 - 1, TEST.floor(new LeaseRecord("a", 1, 1, 60_000, 10, 200), now));
        assertEquals(60_000 - 700 - 1, TEST.floor(new LeaseRecord("a", 1, 1, 60_000, 10, 5_000), now));
        // an id no one held: nothing below it
        assertEquals(Long.MIN_VALUE, TEST.floor(LeaseRecord.unclaimed(3, LeaseRecord.NEVER), now));
        // an id that became free at a time: everything before it
        assertEquals(70_000 - 1, TEST.floor(LeaseRecord.unclaimed(3, 70_000), now));
    }

    @Test
    void aRecordedMarkNeverFallsAndIsBelievedOnlyUpToTheStoresClockPlusTheSkew() {
        assertEquals(5_000, TEST.markToRecord(5_000, 4_000, 10_000));
        assertEquals(8_000, TEST.markToRecord(5_000, 8_000, 10_000));
        assertEquals(10_400, TEST.markToRecord(5_000, 99_000, 10_000));
        assertEquals(99_999, TEST.markToRecord(99_999, 99_000, 10_000), "never below what the record holds");
    }

    @Test
    void aReleaseFreesAtOnceUnlessTheMarkIsAheadOfTheStoresClock() {
        assertEquals(9_999, TEST.releaseExpiry(10_000, 10_000, 13_000), "a mark at the store's now: free at once");
        assertEquals(10_001 + 700 + 1, TEST.releaseExpiry(10_001, 10_000, 13_000), "ahead: the next floor covers it");
        assertEquals(13_000, TEST.releaseExpiry(12_900, 10_000, 13_000), "never later than the claim's expiry");
        assertTrue(TEST.floor(new LeaseRecord("a", 1, 1, TEST.releaseExpiry(12_000, 10_000, 13_000), 10_400, 700),
                10_001) >= 12_000, "the next claim's floor covers a run-ahead mark");
    }

    @Test
    void aTtlOfOneHundredMillisecondsIsTheShortestAllowed() {
        assertEquals(ms(100), new LeaseTimings(ms(100), ms(10), ms(0), ms(0), true).ttl());
    }

    @Test
    void sumsAndDifferencesSaturateInsteadOfWrappingAndAreExactOtherwise() {
        assertEquals(0, LeaseTimings.plus(0, 0));
        assertEquals(-2, LeaseTimings.plus(-5, 3));
        assertEquals(2, LeaseTimings.plus(5, -3));
        assertEquals(Long.MAX_VALUE, LeaseTimings.plus(Long.MAX_VALUE, 1));
        assertEquals(Long.MIN_VALUE, LeaseTimings.plus(Long.MIN_VALUE, -1));
        assertEquals(0, LeaseTimings.minus(7, 7));
        assertEquals(-2, LeaseTimings.minus(5, 7));
        assertEquals(2, LeaseTimings.minus(-5, -7));
        assertEquals(Long.MIN_VALUE, LeaseTimings.minus(Long.MIN_VALUE, 1));
        assertEquals(Long.MAX_VALUE, LeaseTimings.minus(Long.MAX_VALUE, -1));
        // 0 - MIN_VALUE is 2^63, one past the largest long: it saturates up, though the first operand is not positive
        assertEquals(Long.MAX_VALUE, LeaseTimings.minus(0, Long.MIN_VALUE));
    }
}
