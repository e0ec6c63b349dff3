package dev.idgen.index.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeLayout;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The many-writer Snowflake keys come from core's generators, bit for bit as the layouts say. */
class RealKeyTest {

    private static final Instant AT = Instant.parse("2026-12-03T06:00:00.123Z");
    private static final long TICKS = AT.toEpochMilli() - 1288834974657L;   // since Twitter's epoch

    private static long[] keys(RealKey kind, int writer, int n) {
        RealKey.Maker maker = kind.maker(writer, InstantSource.fixed(AT), new AtomicLong(), 1L);
        long[] out = new long[n];
        long[] key = new long[2];
        for (int i = 0; i < n; i++) {
            maker.next(key);
            out[i] = key[0];
        }
        return out;
    }

    @Test
    void machineFirstKeysAreMachineThenTimeThenSequence() {
        long[] ids = keys(RealKey.SNOWFLAKE_MACHINE_FIRST, 2, 100);   // writer 2: machine id 3
        for (int i = 0; i < ids.length; i++) {
            assertEquals(3L << 53 | TICKS << 12 | i, ids[i], "key " + i);
        }
        assertEquals(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE,
                RealKey.SNOWFLAKE_MACHINE_FIRST.snowflakeLayout().fieldOrder());
    }

    @Test
    void sequenceFirstKeysAreTimeThenSequenceThenMachine() {
        long[] ids = keys(RealKey.SNOWFLAKE_SEQ_MACHINE, 4, 100);   // machine id 5
        for (int i = 0; i < ids.length; i++) {
            assertEquals(TICKS << 22 | (long) i << 10 | 5, ids[i], "key " + i);
        }
    }

    @Test
    void plainSnowflakeKeysKeepTwittersOrder() {
        long[] ids = keys(RealKey.SNOWFLAKE, 0, 10);
        for (int i = 0; i < ids.length; i++) {
            assertEquals(TICKS << 22 | 1L << 12 | i, ids[i], "key " + i);
        }
        assertTrue(SnowflakeLayout.TWITTER == RealKey.SNOWFLAKE.snowflakeLayout());
        assertNull(RealKey.UUID_V7.snowflakeLayout());
    }

    @Test
    void segmentKeysCountInsideEachWritersOwnRangeTakenFromTheSharedCounter() {
        AtomicLong store = new AtomicLong();
        RealKey.Maker a = RealKey.SEGMENT_100.maker(0, InstantSource.fixed(AT), store, 1L);
        RealKey.Maker b = RealKey.SEGMENT_100.maker(1, InstantSource.fixed(AT), store, 2L);
        long[] key = new long[2];
        a.next(key);
        assertEquals(1, key[0], "writer 0 takes 1..100");
        b.next(key);
        assertEquals(101, key[0], "writer 1 takes 101..200");
        for (long n = 2; n <= 100; n++) {
            a.next(key);
            assertEquals(n, key[0], "writer 0 counts up inside its range");
        }
        a.next(key);
        assertEquals(201, key[0], "a spent range takes the next one off the counter, above every range granted");
        b.next(key);
        assertEquals(102, key[0]);
        assertEquals(300, store.get(), "three ranges of 100 granted");
        assertEquals(100, RealKey.SEGMENT_100.segmentStep());
        assertEquals(100_000, RealKey.SEGMENT_100000.segmentStep());
        assertEquals(0, RealKey.BLOCKS.segmentStep());
        assertEquals(RealKey.SEGMENT_10000, RealKey.parse("segment-10000"));
    }
}
