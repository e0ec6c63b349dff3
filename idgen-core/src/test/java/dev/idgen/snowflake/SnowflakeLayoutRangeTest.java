package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link SnowflakeLayout#firstIdAt(Instant)} and {@link SnowflakeLayout#lastIdAt(Instant)}. */
class SnowflakeLayoutRangeTest {

    /** Discord's documented example (DESIGN.md): 175928847299117063 at 2016-04-30T11:18:25.796Z. */
    private static final long DISCORD_ID = 175928847299117063L;
    private static final Instant DISCORD_TIME = Instant.parse("2016-04-30T11:18:25.796Z");

    @Test
    void discordsExampleLiesInsideTheRangeOfItsMillisecond() {
        long first = SnowflakeLayout.DISCORD.firstIdAt(DISCORD_TIME);
        long last = SnowflakeLayout.DISCORD.lastIdAt(DISCORD_TIME);
        long millisSinceEpoch = 1462015105796L - 1420070400000L; // 2016-04-30T11:18:25.796Z - Discord's epoch
        assertEquals(millisSinceEpoch << 22, first);
        assertEquals((millisSinceEpoch + 1 << 22) - 1, last);
        assertTrue(first <= DISCORD_ID && DISCORD_ID <= last);
        assertTrue(SnowflakeLayout.DISCORD.lastIdAt(DISCORD_TIME.minusMillis(1)) < DISCORD_ID);
        assertTrue(SnowflakeLayout.DISCORD.firstIdAt(DISCORD_TIME.plusMillis(1)) > DISCORD_ID);
    }

    @Test
    void consecutiveMillisecondsMeetWithoutGapOrOverlap() {
        Instant t = Instant.parse("2026-12-03T10:00:00Z");
        for (SnowflakeLayout layout : new SnowflakeLayout[] {SnowflakeLayout.TWITTER, SnowflakeLayout.INSTAGRAM}) {
            assertEquals(layout.lastIdAt(t) + 1, layout.firstIdAt(t.plusMillis(1)), layout.name());
            assertEquals(layout.firstIdAt(t), layout.firstIdAt(t.plusNanos(999_999)), "sub-ms is dropped");
        }
    }

    @Test
    void aTenMillisecondTickCoversEveryIdOfEveryMachineInTimeSequenceMachineOrder() {
        SnowflakeLayout sony = SnowflakeLayout.SONYFLAKE;
        Instant t = Instant.parse("2024-01-01T00:00:00.123Z");
        long ticks = (t.toEpochMilli() - Instant.parse("2014-09-01T00:00:00Z").toEpochMilli()) / 10;
        assertEquals(ticks << 24, sony.firstIdAt(t), "8 sequence + 16 machine bits below the time");
        assertEquals((ticks << 24) | 0xFF_FFFFL, sony.lastIdAt(t));
        // every instant of the same 10 ms tick has the same bounds
        assertEquals(sony.firstIdAt(t), sony.firstIdAt(Instant.parse("2024-01-01T00:00:00.120Z")));
        assertEquals(sony.lastIdAt(t), sony.lastIdAt(Instant.parse("2024-01-01T00:00:00.129Z")));
        assertEquals(sony.lastIdAt(t) + 1, sony.firstIdAt(Instant.parse("2024-01-01T00:00:00.130Z")));
        long extreme = (ticks << 24) | (255L << 16) | 65535L; // sequence 255, machine 65535
        assertTrue(extreme <= sony.lastIdAt(t));
    }

    @Test
    void theEndsOfALayoutAreItsFirstAndLargestId() {
        for (SnowflakeLayout layout : SnowflakeLayout.presets()) {
            assertEquals(0, layout.firstIdAt(layout.epoch()), layout.name());
            assertEquals(layout.maxId(), layout.lastIdAt(layout.lastInstant()), layout.name());
            assertTrue(layout.lastIdAt(layout.lastInstant()) > 0, layout.name() + ": never negative");
        }
        assertTrue(SnowflakeLayout.JS_SAFE.lastIdAt(SnowflakeLayout.JS_SAFE.lastInstant()) <= (1L << 53) - 1);
    }

    @Test
    void anInstantOutsideTheLayoutIsRefusedByName() {
        SnowflakeLayout twitter = SnowflakeLayout.TWITTER;
        Instant before = twitter.epoch().minusMillis(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> twitter.firstIdAt(before));
        assertTrue(e.getMessage().contains(before.toString()) && e.getMessage().contains(twitter.epoch().toString()),
                e.getMessage());
        Instant after = twitter.lastInstant().plusMillis(1);
        e = assertThrows(IllegalArgumentException.class, () -> twitter.lastIdAt(after));
        assertTrue(e.getMessage().contains(after.toString()), e.getMessage());
    }
}
