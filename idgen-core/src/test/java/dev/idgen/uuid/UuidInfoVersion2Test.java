package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The DCE Security (version 2) fields, each placed by hand at its RFC 9562 / DCE 1.1 position. */
class UuidInfoVersion2Test {

    @Test
    void version2FieldsAreReadFromTheirBits() {
        // local_id 12345678 | time_mid 9abc | version 2, time_high def
        long msb = 0x12345678_9ABC_2DEFL;
        // variant 10 + clock_seq_high 100101 (0x25) | local_domain c3 | node 0123456789ab
        long lsb = 0xA5C3_0123_4567_89ABL;
        UuidInfo info = UuidInfo.of(new UUID(msb, lsb));
        assertEquals(2, info.version());
        assertEquals(OptionalLong.of(0x12345678L), info.field("local_id"));
        assertEquals(OptionalLong.of(0x9ABCL), info.field("time_mid"));
        assertEquals(OptionalLong.of(0xDEFL), info.field("time_high"));
        assertEquals(OptionalLong.of(0x25L), info.field("clock_seq_high"));
        assertEquals(OptionalLong.of(0xC3L), info.field("local_domain"));
        assertEquals(OptionalLong.of(0x0123_4567_89ABL), info.field("node"));
    }
}
