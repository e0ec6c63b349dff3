package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Decoding checked against the examples of RFC 9562 Appendix A. */
class UuidInfoTest {

    /** 2022-02-22T19:22:22Z, the time of every Appendix A example. */
    private static final Instant RFC_TIME = Instant.parse("2022-02-22T19:22:22Z");

    private static List<String> fieldText(UuidInfo info) {
        return info.fields().stream().map(UuidInfo.Field::toString).toList();
    }

    @Test
    void v7ExampleOfAppendixA6() {
        UuidInfo info = Uuids.decode(Uuids.parse("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"));
        assertEquals(UuidVariant.RFC_9562, info.variant());
        assertEquals(7, info.version());
        assertEquals(OptionalLong.of(0x017F22E279B0L), info.field("unix_ts_ms"));
        assertEquals(Optional.of(RFC_TIME), info.time());
        assertEquals(List.of("unix_ts_ms=0x017f22e279b0", "rand_a=0xcc3", "rand_b=0x18c4dc0c0c07398f"), fieldText(info));
        assertEquals("017f22e2-79b0-7cc3-98c4-dc0c0c07398f: RFC 9562 version 7, Unix Epoch time-based; "
                + "time 2022-02-22T19:22:22Z; unix_ts_ms=0x017f22e279b0 rand_a=0xcc3 rand_b=0x18c4dc0c0c07398f",
                info.toString());
    }

    @Test
    void v4ExampleOfAppendixA3HasNoTime() {
        UuidInfo info = Uuids.decode(Uuids.parse("919108f7-52d1-4320-9bac-f847db4148a8"));
        assertEquals(UuidVariant.RFC_9562, info.variant());
        assertEquals(4, info.version());
        assertEquals(Optional.empty(), info.time());
        assertEquals(List.of("random_a=0x919108f752d1", "random_b=0x320", "random_c=0x1bacf847db4148a8"),
                fieldText(info));
        assertTrue(info.toString().contains("version 4, random; no embedded time;"), info.toString());
    }

    @Test
    void v1ExampleOfAppendixA1() {
        UuidInfo info = Uuids.decode(Uuids.parse("C232AB00-9414-11EC-B3C8-9F6BDECED846"));
        assertEquals(1, info.version());
        assertEquals(UuidVariant.RFC_9562, info.variant());
        assertEquals(List.of("time_low=0xc232ab00", "time_mid=0x9414", "time_high=0x1ec", "clock_seq=0x33c8",
                "node=0x9f6bdeced846"), fieldText(info));
        assertEquals(Optional.of(RFC_TIME), info.time());
        long gregorian = info.field("time_high").getAsLong() << 48 | info.field("time_mid").getAsLong() << 32
                | info.field("time_low").getAsLong();
        assertEquals(0x1EC9414C232AB00L, gregorian);
    }

    @Test
    void v6ExampleOfAppendixB1CarriesTheSameTimeAsV1() {
        UuidInfo info = Uuids.decode(Uuids.parse("1EC9414C-232A-6B00-B3C8-9F6BDECED846"));
        assertEquals(6, info.version());
        assertEquals(List.of("time_high=0x1ec9414c", "time_mid=0x232a", "time_low=0xb00", "clock_seq=0x33c8",
                "node=0x9f6bdeced846"), fieldText(info));
        assertEquals(Optional.of(RFC_TIME), info.time());
        assertEquals(OptionalLong.of(0x33C8), info.field("clock_seq"));
        assertEquals(OptionalLong.of(0x9F6BDECED846L), info.field("node"));
    }

    @Test
    void gregorianTimeKeepsHundredNanosecondTicks() {
        // one tick after the Unix epoch, and one before it
        long epoch = UuidInfo.GREGORIAN_TO_UNIX_100NS;
        assertEquals(Optional.of(Instant.ofEpochSecond(0, 100)), Uuids.decode(v1(epoch + 1)).time());
        assertEquals(Optional.of(Instant.ofEpochSecond(-1, 999_999_900)), Uuids.decode(v1(epoch - 1)).time());
        assertEquals(Optional.of(Instant.parse("1582-10-15T00:00:00Z")), Uuids.decode(v1(0)).time());
    }

    private static UUID v1(long ticks) {
        long msb = (ticks & 0xFFFF_FFFFL) << 32 | (ticks >>> 32 & 0xFFFF) << 16 | 0x1000 | ticks >>> 48;
        return new UUID(msb, 0x8000_0000_0000_0000L);
    }

    @Test
    void nilAndMaxAreRecognised() {
        UuidInfo nil = Uuids.decode(Uuids.NIL);
        assertTrue(nil.isNil());
        assertFalse(nil.isMax());
        assertEquals("Nil UUID", nil.kind());
        assertEquals(List.of(), nil.fields());
        assertEquals("00000000-0000-0000-0000-000000000000: Nil UUID; no embedded time", nil.toString());
        UuidInfo max = Uuids.decode(Uuids.MAX);
        assertTrue(max.isMax());
        assertEquals(15, max.version());
        assertEquals(UuidVariant.FUTURE, max.variant());
        assertEquals("ffffffff-ffff-ffff-ffff-ffffffffffff: Max UUID; no embedded time", max.toString());
    }

    @Test
    void nameBasedAndCustomVersionsNameTheirFields() {
        // RFC 9562 Appendix A.2 (v3) and A.4 (v5), A.7 and A.8 (v8)
        assertEquals(List.of("md5_high=0x5df418813aed", "md5_mid=0x515", "md5_low=0x08a72f4a814cf09e"),
                fieldText(Uuids.decode(Uuids.parse("5df41881-3aed-3515-88a7-2f4a814cf09e"))));
        assertEquals(List.of("sha1_high=0x2ed6657de927", "sha1_mid=0x68b", "sha1_low=0x15e12665a8aea6a2"),
                fieldText(Uuids.decode(Uuids.parse("2ed6657d-e927-568b-95e1-2665a8aea6a2"))));
        UuidInfo v8 = Uuids.decode(Uuids.parse("2489e9ad-2ee2-8e00-8ec9-32d5f69181c0"));
        assertEquals("version 8, custom", v8.kind());
        assertEquals(List.of("custom_a=0x2489e9ad2ee2", "custom_b=0xe00", "custom_c=0x0ec932d5f69181c0"), fieldText(v8));
    }

    @Test
    void variantsAreReadFromTheTopBitsOfOctetEight() {
        assertEquals(UuidVariant.NCS, UuidVariant.of(0x7FFF_FFFF_FFFF_FFFFL));
        assertEquals(UuidVariant.RFC_9562, UuidVariant.of(0x8000_0000_0000_0000L));
        assertEquals(UuidVariant.RFC_9562, UuidVariant.of(0xBFFF_FFFF_FFFF_FFFFL));
        assertEquals(UuidVariant.MICROSOFT, UuidVariant.of(0xC000_0000_0000_0000L));
        assertEquals(UuidVariant.MICROSOFT, UuidVariant.of(0xDFFF_FFFF_FFFF_FFFFL));
        assertEquals(UuidVariant.FUTURE, UuidVariant.of(0xE000_0000_0000_0000L));
        UuidInfo microsoft = Uuids.decode(new UUID(0x0123_4567_89AB_4DEFL, 0xC000_0000_0000_0001L));
        assertEquals("MICROSOFT variant", microsoft.kind());
        assertEquals(List.of("high=0x0123456789ab4def", "low=0xc000000000000001"), fieldText(microsoft));
        assertEquals(Optional.empty(), microsoft.time());
    }

    @Test
    void aFieldThatIsNotThereIsEmpty() {
        assertEquals(OptionalLong.empty(),
                Uuids.decode(Uuids.parse("919108f7-52d1-4320-9bac-f847db4148a8")).field("unix_ts_ms"));
    }
}
