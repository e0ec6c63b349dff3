package dev.idgen.ulid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link Ulids#min(Instant)} and {@link Ulids#max(Instant)}. */
class UlidsRangeTest {

    @Test
    void theJavascriptReadmeExampleLiesBetweenTheBoundsOfItsMillisecond() {
        // github.com/ulid/javascript README, "Seed Time": ulid(1469918176385) -> 01ARYZ6S41TSV4RRFFQ69G5FAV
        Instant t = Instant.ofEpochMilli(1469918176385L);
        UUID example = Ulids.parse("01ARYZ6S41TSV4RRFFQ69G5FAV");
        assertEquals("01ARYZ6S410000000000000000", Ulids.toString(Ulids.min(t)));
        assertEquals("01ARYZ6S41ZZZZZZZZZZZZZZZZ", Ulids.toString(Ulids.max(t)));
        assertTrue(Uuids.unsignedOrder().compare(Ulids.min(t), example) < 0);
        assertTrue(Uuids.unsignedOrder().compare(example, Ulids.max(t)) < 0);
        assertEquals(Ulids.min(t), Ulids.min(t.plusNanos(999_999)));
        assertTrue(Uuids.unsignedOrder().compare(Ulids.max(t.minusMillis(1)), Ulids.min(t)) < 0);
    }

    @Test
    void theEndsOfTheTimestampAreAllowedAndBeyondThemIsRefused() {
        assertEquals("00000000000000000000000000", Ulids.toString(Ulids.min(Instant.EPOCH)));
        Instant last = Instant.ofEpochMilli((1L << 48) - 1);
        assertEquals(Ulids.MAX_TEXT, Ulids.toString(Ulids.max(last)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ulids.max(last.plusMillis(1)));
        assertTrue(e.getMessage().contains(last.plusMillis(1).toString()) && e.getMessage().contains("ULID"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Ulids.min(Instant.EPOCH.minusMillis(1)));
    }
}
