package dev.idgen.ulid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UlidsTest {

    @Test
    void seedTimeExampleOfTheReferenceImplementation() {
        // github.com/ulid/javascript README, "Seed Time": ulid(1469918176385) -> 01ARYZ6S41TSV4RRFFQ69G5FAV
        UUID ulid = Ulids.parse("01ARYZ6S41TSV4RRFFQ69G5FAV");
        assertEquals(1469918176385L, Ulids.timestamp(ulid));
        assertEquals(Instant.ofEpochMilli(1469918176385L), Ulids.time(ulid));
        assertEquals("01ARYZ6S41TSV4RRFFQ69G5FAV", Ulids.toString(ulid));
        assertEquals(ulid, Ulids.parse("01aryz6s41tsv4rrffq69g5fav"));
    }

    @Test
    void largestUlidIsTheLastMillisecondOf48Bits() {
        // github.com/ulid/spec: 7ZZZZZZZZZZZZZZZZZZZZZZZZZ is the largest, time 2^48 - 1
        assertEquals((1L << 48) - 1, Ulids.timestamp(Ulids.parse(Ulids.MAX_TEXT)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ulids.parse("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"));
        assertTrue(e.getMessage().startsWith("not a ULID: '8ZZZZZZZZZZZZZZZZZZZZZZZZZ' (first character '8' is above 7"),
                e.getMessage());
    }

    @Test
    void aUlidAndAUuidV7OfTheSameMillisecondShareTheTimeBitsAndSortByTime() {
        UUID v7 = Uuids.parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");   // RFC 9562 A.6, 2022-02-22T19:22:22Z
        UUID ulid = Ulids.parse(Ulids.toString(v7));
        assertEquals(Instant.parse("2022-02-22T19:22:22Z"), Ulids.time(ulid));
        UUID laterUlid = new UUID((Ulids.timestamp(ulid) + 1) << 16, 0);
        assertTrue(Uuids.unsignedOrder().compare(v7, laterUlid) < 0);
        assertTrue(Ulids.toString(v7).compareTo(Ulids.toString(laterUlid)) < 0);
    }

    @Test
    void badTextNamesWhatIsExpected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ulids.parse("01ARYZ6S41TSV4RRFFQ69G5FAU"));
        assertEquals("not a ULID: '01ARYZ6S41TSV4RRFFQ69G5FAU' ('U' at index 25 is not a Crockford base32 digit);"
                + " expected 26 Crockford base32 characters (0-9, A-Z without U; I and L read as 1, O as 0; any case),"
                + " at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Ulids.parse("01ARYZ6S41\u001b"));
        assertTrue(e.getMessage().startsWith("not a ULID: '01ARYZ6S41\\u001b' (11 characters)"), e.getMessage());
    }
}
