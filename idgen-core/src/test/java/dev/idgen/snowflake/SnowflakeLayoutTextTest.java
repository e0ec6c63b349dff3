package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How a layout describes itself (its Javadoc's format), and hashing consistent with equality. */
class SnowflakeLayoutTextTest {

    @Test
    void toStringNamesEveryFieldInItsOrder() {
        assertEquals("twitter (41 bits of 1 ms ticks since 2010-11-04T01:42:54.657Z | 10 machine bits: datacenter 5,"
                + " worker 5 | 12 sequence bits)", SnowflakeLayout.TWITTER.toString());
        // time, sequence, machine; one unnamed machine part is not listed
        assertEquals("sonyflake (39 bits of 10 ms ticks since 2014-09-01T00:00:00Z | 8 sequence bits | 16 machine bits)",
                SnowflakeLayout.SONYFLAKE.toString());
        assertEquals("js-safe (38 bits of 10 ms ticks since 2025-01-01T00:00:00Z | 7 machine bits | 8 sequence bits"
                + " | JavaScript-safe)", SnowflakeLayout.JS_SAFE.toString());
        assertEquals("discord (42 bits of 1 ms ticks since 2015-01-01T00:00:00Z | 10 machine bits: worker 5, process 5"
                + " | 12 increment bits)", SnowflakeLayout.DISCORD.toString());
        assertEquals("instagram (41 bits of 1 ms ticks since 2011-08-24T21:07:01.721Z | 13 machine bits: shard 13"
                + " | 10 sequence bits)", SnowflakeLayout.INSTAGRAM.toString());
    }

    @Test
    void equalLayoutsHashAlike() {
        SnowflakeLayout again = SnowflakeLayout.custom("twitter").epoch(Instant.ofEpochMilli(1288834974657L))
                .timestampBits(41).machine("datacenter", 5).machine("worker", 5).sequenceBits(12).build();
        assertEquals(SnowflakeLayout.TWITTER, again);
        assertEquals(SnowflakeLayout.TWITTER.hashCode(), again.hashCode());
        assertNotEquals(SnowflakeLayout.TWITTER.hashCode(), SnowflakeLayout.DISCORD.hashCode());
        assertNotEquals(SnowflakeLayout.SONYFLAKE.hashCode(), SnowflakeLayout.JS_SAFE.hashCode());
    }
}
