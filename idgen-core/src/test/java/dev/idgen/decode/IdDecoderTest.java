package dev.idgen.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class IdDecoderTest {

    private static final String RFC_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";

    @Test
    void discordsDocumentedId() {
        DecodedId d = IdDecoder.decode("175928847299117063", SnowflakeLayout.DISCORD);
        DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class, d);
        assertEquals(Instant.parse("2016-04-30T11:18:25.796Z"), s.id().timestamp());
        assertEquals(1, s.id().datacenterId());
        assertEquals(0, s.id().workerId());
        assertEquals(7, s.id().sequence());
        assertEquals(Optional.of(Instant.parse("2016-04-30T11:18:25.796Z")), d.time());
        assertEquals("Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z, "
                + "machine 32 (worker 1, process 0), sequence 7", d.toString());
    }

    @Test
    void twitterNamesTheMachineHalvesDatacenterAndWorker() {
        long id = SnowflakeLayout.TWITTER.encode(1000, (3 << 5) | 17, 0);
        assertTrue(IdDecoder.decode(Long.toString(id)).toString()
                .contains("machine 113 (datacenter 3, worker 17)"), () -> IdDecoder.decode(Long.toString(id)).toString());
    }

    @Test
    void decimalWithoutLayoutIsReadAsTwitter() {
        long id = SnowflakeLayout.TWITTER.encode(1000, 5, 9);
        DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class, IdDecoder.decode(" " + id + "\n"));
        assertEquals(SnowflakeLayout.TWITTER, s.id().layout());
        assertEquals(5, s.id().machineId());
        assertEquals(9, s.id().sequence());
        assertEquals(" " + id + "\n", s.input());
    }

    @Test
    void sonyflakeHasNoDatacenterSplit() {
        long id = SnowflakeLayout.SONYFLAKE.encode(100, 300, 2);
        assertEquals("Snowflake " + id + " (layout sonyflake): time 2014-09-01T00:00:01Z, machine 300, sequence 2",
                IdDecoder.decode(Long.toString(id), SnowflakeLayout.SONYFLAKE).toString());
    }

    @Test
    void unsignedSixtyFourBitIdsFitOnlyLayoutsUsingTheSignBit() {
        DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class,
                IdDecoder.decode("18446744073709551615", SnowflakeLayout.DISCORD));
        assertEquals(-1L, s.id().id());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdDecoder.decode("18446744073709551615"));
        assertEquals("'18446744073709551615' is larger than 9223372036854775807, the largest ID of layout twitter; "
                + "layouts that use all 64 bits: discord, instagram", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode("18446744073709551616"));
        assertEquals("'18446744073709551616' is larger than 18446744073709551615, the largest 64-bit ID; "
                + IdDecoder.EXPECTED, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f, CANONICAL",
        "017F22E2-79B0-7CC3-98C4-DC0C0C07398F, CANONICAL",
        "017f22e279b07cc398c4dc0c0c07398f, HEX",
        "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}, BRACED",
        "{017F22E279B07CC398C4DC0C0C07398F}, BRACED",
        "urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f, URN",
        "URN:UUID:017F22E2-79B0-7CC3-98C4-DC0C0C07398F, URN",
    })
    void everyCommonUuidFormIsRecognised(String input, UuidForm form) {
        DecodedUuid u = assertInstanceOf(DecodedUuid.class, IdDecoder.decode("\t" + input + " "));
        assertEquals(form, u.form());
        assertEquals(Uuids.parse(RFC_V7), u.info().uuid());
        assertEquals(Optional.of(Instant.parse("2022-02-22T19:22:22Z")), u.time());
        assertEquals("UUID " + RFC_V7 + ": RFC 9562 version 7, Unix Epoch time-based; time 2022-02-22T19:22:22Z; "
                + "unix_ts_ms=0x017f22e279b0 rand_a=0xcc3 rand_b=0x18c4dc0c0c07398f", u.toString());
    }

    @Test
    void thirtyTwoDecimalDigitsAreAUuid() {
        DecodedUuid u = assertInstanceOf(DecodedUuid.class, IdDecoder.decode("12345678901234567890123456789012"));
        assertEquals(UuidForm.HEX, u.form());
        assertEquals(Uuids.parseHex("12345678901234567890123456789012"), u.info().uuid());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "not-an-id", "12x4", "-5", "+5", "1-1-1-1-1", "0x1f",
        "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
        "urn:uuid:017f22e279b07cc398c4dc0c0c07398f", "urn:uuid:{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398g", "017f22e2_79b0_7cc3_98c4_dc0c0c07398f", "{}",
        "1.5", "١٢٣"})
    void anythingElseIsRefusedNamingTheInputAndTheFormsAccepted(String input) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(input));
        assertEquals("'" + input + "' is not an ID: " + IdDecoder.EXPECTED, e.getMessage());
    }

    @Test
    void longInputIsCutInTheMessage() {
        String input = "z".repeat(200);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(input));
        assertEquals("'" + "z".repeat(60) + "...' (200 characters) is not an ID: " + IdDecoder.EXPECTED, e.getMessage());
    }
}
