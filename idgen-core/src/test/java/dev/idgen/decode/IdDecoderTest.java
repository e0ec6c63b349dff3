package dev.idgen.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.snowflake.SnowflakeLayout;
import dev.idgen.uuid.Uuids;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoder's table: for every format, a vector published by the format's specification or
 * reference implementation (named at each test), and hostile input.
 */
class IdDecoderTest {

    private static final String RFC_V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");

    static Map<String, String> fields(DecodedId id) {
        Map<String, String> out = new LinkedHashMap<>();
        for (IdField f : id.fields()) {
            out.put(f.name(), f.value());
        }
        return out;
    }

    @Test
    void discordsDocumentedIdWithDiscordsFieldNames() {
        // Discord developer documentation, "Snowflakes": 175928847299117063
        DecodedId d = IdDecoder.decode("175928847299117063", SnowflakeLayout.DISCORD);
        DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class, d);
        assertEquals("Snowflake", d.kind());
        assertEquals("decimal, layout discord", d.readAs());
        assertEquals(Optional.of(Instant.parse("2016-04-30T11:18:25.796Z")), d.time());
        Map<String, String> f = fields(d);
        assertEquals(List.of("id", "layout", "order", "ticks", "machine", "worker", "process", "increment"), List.copyOf(f.keySet()));
        assertEquals("1", f.get("worker"));
        assertEquals("0", f.get("process"));
        assertEquals("7", f.get("increment"));
        assertEquals("32", f.get("machine"));
        assertEquals(1, s.id().machinePart("worker"));
        assertEquals("Snowflake 175928847299117063 (layout discord): time 2016-04-30T11:18:25.796Z, "
                + "machine 32 (worker 1, process 0), increment 7", d.toString());
    }

    @Test
    void anIdPastedWithItsJsonSqlOrMarkdownQuotesIsReadAsTheIdInside() {
        // Discord's documented example (epoch 1420070400000): 2016-04-30T11:18:25.796Z, increment 7
        for (String pasted : List.of("\"175928847299117063\"", "'175928847299117063'", "`175928847299117063`",
                " \" 175928847299117063 \" ")) {
            DecodedId id = IdDecoder.decode(pasted, SnowflakeLayout.DISCORD);
            DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class, id, pasted);
            assertEquals(175928847299117063L, s.id().id(), pasted);
            assertEquals(Instant.parse("2016-04-30T11:18:25.796Z"), s.id().timestamp(), pasted);
        }
        // RFC 9562 Appendix A.6, quoted as JSON sends it
        DecodedUuid v7 = assertInstanceOf(DecodedUuid.class,
                IdDecoder.decode("\"017f22e2-79b0-7cc3-98c4-dc0c0c07398f\""));
        assertEquals(Instant.parse("2022-02-22T19:22:22Z"), v7.info().time().orElseThrow());
        for (String unmatched : List.of("\"175928847299117063", "\"175928847299117063'", "\"\"")) {
            assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(unmatched, SnowflakeLayout.DISCORD),
                    unmatched);
        }
    }

    @Test
    void eachPresetNamesItsOwnFields() {
        long twitter = SnowflakeLayout.TWITTER.encode(1000, (3 << 5) | 17, 9);
        Map<String, String> f = fields(IdDecoder.decode(Long.toString(twitter)));
        assertEquals(List.of("id", "layout", "order", "ticks", "machine", "datacenter", "worker", "sequence"), List.copyOf(f.keySet()));
        assertEquals("3", f.get("datacenter"));
        assertEquals("17", f.get("worker"));
        long instagram = SnowflakeLayout.INSTAGRAM.encode(1000, 4321, 5);
        f = fields(IdDecoder.decode(Long.toString(instagram), SnowflakeLayout.INSTAGRAM));
        assertEquals(List.of("id", "layout", "order", "ticks", "shard", "sequence"), List.copyOf(f.keySet()));
        assertEquals("4321", f.get("shard"));
        long sonyflake = SnowflakeLayout.SONYFLAKE.encode(100, 300, 2);
        DecodedId d = IdDecoder.decode(Long.toString(sonyflake), SnowflakeLayout.SONYFLAKE);
        assertEquals("300", fields(d).get("machine"));
        assertEquals("Snowflake " + sonyflake + " (layout sonyflake): time 2014-09-01T00:00:01Z, machine 300, sequence 2",
                d.toString());
    }

    @Test
    void aCustomLayoutsNamesComeThroughUnchanged() {
        SnowflakeLayout mine = SnowflakeLayout.custom("mine").epoch(Instant.parse("2024-01-01T00:00:00Z"))
                .timestampBits(41).machine("region", 3).machine("node", 7).sequence("counter", 12).build();
        long id = mine.encode(5, (6 << 7) | 99, 4000);
        Map<String, String> f = fields(IdDecoder.decode(Long.toString(id), mine));
        assertEquals(List.of("id", "layout", "order", "ticks", "machine", "region", "node", "counter"), List.copyOf(f.keySet()));
        assertEquals("6", f.get("region"));
        assertEquals("99", f.get("node"));
        assertEquals("4000", f.get("counter"));
    }

    @Test
    void aMachineFirstSnowflakeIsReadWithItsFieldOrder() {
        SnowflakeLayout machineFirst = SnowflakeLayout.TWITTER.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE);
        // datacenter 2, worker 9 (machine 73) on top, then 1,000,000 ms after twepoch, sequence 5
        long id = 73L << 53 | 1_000_000L << 12 | 5;
        DecodedId d = IdDecoder.decode(Long.toString(id), machineFirst);
        Map<String, String> f = fields(d);
        assertEquals(List.of("id", "layout", "order", "ticks", "machine", "datacenter", "worker", "sequence"),
                List.copyOf(f.keySet()));
        assertEquals("machine-time-sequence", f.get("order"));
        assertEquals("1000000", f.get("ticks"));
        assertEquals("73", f.get("machine"));
        assertEquals("2", f.get("datacenter"));
        assertEquals("9", f.get("worker"));
        assertEquals("5", f.get("sequence"));
        assertEquals(Optional.of(Instant.ofEpochMilli(1288834974657L + 1_000_000L)), d.time());
        assertTrue(f.get("layout").startsWith("twitter (10 machine bits"), f.get("layout"));
        assertEquals("decimal, layout twitter, order machine-time-sequence", d.readAs());
        assertEquals("Snowflake " + id + " (layout twitter, order machine-time-sequence): time "
                + Instant.ofEpochMilli(1288834974657L + 1_000_000L) + ", machine 73 (datacenter 2, worker 9),"
                + " sequence 5", d.toString());
        assertEquals("time-machine-sequence", fields(IdDecoder.decode(Long.toString(id))).get("order"));
    }

    @Test
    void aMachineFirstSnowflakeReadAsTimeFirstSuggestsTheMachineFirstReading() {
        // machine 1000 on top reads, time first, as about 1000 << 31 ms (68 years) after twepoch: 2078
        long id = 1000L << 53 | 1_000_000L << 12 | 5;
        Reading r = IdDecoder.readings(Long.toString(id), SnowflakeLayout.TWITTER, NOW).get(0);
        assertFalse(r.plausible());
        DecodedId first = r.alternatives().get(0);
        assertEquals("decimal, layout twitter, order machine-time-sequence", first.readAs());
        assertEquals(Optional.of(Instant.ofEpochMilli(1288834974657L + 1_000_000L)), first.time());
        assertEquals("1000", fields(first).get("machine"));
        assertEquals(1, r.alternatives().stream().filter(a -> a.readAs().contains("order")).count());
    }

    @Test
    void layoutsThatCannotPutTheMachineOnTopOfferNoMachineFirstReading() {
        // 64 bits (Discord) and no machine bits: no machine-first reading, and no failure either
        Reading discord = IdDecoder.readings(Long.toString(Long.MAX_VALUE), SnowflakeLayout.DISCORD, NOW).get(0);
        assertFalse(discord.plausible());
        assertTrue(discord.alternatives().stream().noneMatch(a -> a.readAs().contains("order")),
                discord.alternatives().toString());
        SnowflakeLayout solo = SnowflakeLayout.custom("solo").epoch(Instant.parse("2020-01-01T00:00:00Z"))
                .timestampBits(51).machineBits(0).sequenceBits(12).build();
        Reading r = IdDecoder.readings(Long.toString(Long.MAX_VALUE), solo, NOW).get(0);
        assertFalse(r.plausible());
        assertTrue(r.alternatives().stream().noneMatch(a -> a.readAs().contains("order")), r.alternatives().toString());
        // read machine-first already, the same layout is not offered again
        SnowflakeLayout machineFirst = SnowflakeLayout.TWITTER.withFieldOrder(SnowflakeLayout.FieldOrder.MACHINE_TIME_SEQUENCE);
        Reading mf = IdDecoder.readings(Long.toString(Long.MAX_VALUE), machineFirst, NOW).get(0);
        assertFalse(mf.plausible());
        assertTrue(mf.alternatives().stream().noneMatch(a -> a.readAs().contains("order")), mf.alternatives().toString());
    }

    @Test
    void snowflakeInHexWithOrWithoutPrefix() {
        String hex = Long.toHexString(175928847299117063L);   // Discord's documented ID again
        for (String input : List.of("0x" + hex, "0X" + hex.toUpperCase(), "0" + hex)) {
            List<DecodedId> hexReadings = IdDecoder.readings(input, SnowflakeLayout.DISCORD, NOW).stream()
                    .map(Reading::id).filter(d -> d.readAs().startsWith("hex")).toList();
            assertEquals(1, hexReadings.size(), input);
            assertEquals(Optional.of(Instant.parse("2016-04-30T11:18:25.796Z")), hexReadings.get(0).time(), input);
            assertEquals("7", fields(hexReadings.get(0)).get("increment"));
        }
    }

    @Test
    void unsignedSixtyFourBitIdsFitOnlyLayoutsUsingTheSignBit() {
        DecodedSnowflake s = assertInstanceOf(DecodedSnowflake.class,
                IdDecoder.decode("18446744073709551614", SnowflakeLayout.DISCORD));
        assertEquals(-2L, s.id().id());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdDecoder.decode("18446744073709551614"));
        assertEquals("'18446744073709551614' (20 characters) is not an ID: as a decimal Snowflake (0 to "
                + "18446744073709551615): 18446744073709551614 is larger than 9223372036854775807, the largest ID of"
                + " layout twitter; preset layouts that reach it: discord, instagram; as an xid (20 base32hex characters"
                + " 0-9a-v, lower case): last character '4' sets padding bits; an xid ends in 0 or g", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode("18446744073709551616"));
        assertTrue(e.getMessage().contains("larger than 18446744073709551615, the largest 64-bit number"), e.getMessage());
    }

    @Test
    void aJavaScriptSafeLayoutRefusesIdsAbove53Bits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdDecoder.decode("9007199254740992", SnowflakeLayout.JS_SAFE));
        assertTrue(e.getMessage().contains("9007199254740992 is larger than 9007199254740991, the largest ID of layout"
                + " js-safe; preset layouts that reach it: twitter, discord, instagram, sonyflake"), e.getMessage());
        DecodedId d = IdDecoder.decode("9007199254740991", SnowflakeLayout.JS_SAFE);
        assertEquals(SnowflakeLayout.JS_SAFE.lastInstant().minusMillis(9), d.time().orElseThrow());
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
        // RFC 9562 Appendix A.6
        DecodedUuid u = assertInstanceOf(DecodedUuid.class, IdDecoder.decode("\t" + input + " "));
        assertEquals(form, u.form());
        assertEquals(Uuids.parse(RFC_V7), u.info().uuid());
        assertEquals(Optional.of(Instant.parse("2022-02-22T19:22:22Z")), u.time());
        assertEquals("0x017f22e279b0", fields(u).get("unix_ts_ms"));
        assertEquals("UUID " + RFC_V7 + ": RFC 9562 version 7, Unix Epoch time-based; time 2022-02-22T19:22:22Z; "
                + "unix_ts_ms=0x017f22e279b0 rand_a=0xcc3 rand_b=0x18c4dc0c0c07398f", u.toString());
    }

    @ParameterizedTest
    @CsvSource({
        // RFC 9562 Appendix A.1 (v1), A.3 (v4), A.5 (v6), and the Nil and Max UUIDs of §5.9 and §5.10
        "c232ab00-9414-11ec-b3c8-9f6bdeced846, 1, 2022-02-22T19:22:22Z",
        "919108f7-52d1-4320-9bac-f847db4148a8, 4, ",
        "1ec9414c-232a-6b00-b3c8-9f6bdeced846, 6, 2022-02-22T19:22:22Z",
        "00000000-0000-0000-0000-000000000000, 0, ",
        "ffffffff-ffff-ffff-ffff-ffffffffffff, 15, ",
    })
    void rfc9562Examples(String input, int version, String time) {
        DecodedId d = IdDecoder.decode(input);
        assertEquals("UUID", d.kind());
        assertEquals(String.valueOf(version), fields(d).get("version"));
        assertEquals(Optional.ofNullable(time).map(Instant::parse), d.time());
    }

    @Test
    void ulid() {
        // github.com/ulid/javascript README, "Seed Time": ulid(1469918176385) = 01ARYZ6S41TSV4RRFFQ69G5FAV
        DecodedId d = IdDecoder.decode("01ARYZ6S41TSV4RRFFQ69G5FAV");
        assertEquals("ULID", d.kind());
        assertEquals(Optional.of(Instant.ofEpochMilli(1469918176385L)), d.time());
        assertEquals("1469918176385", fields(d).get("timestamp"));
        assertEquals("01ARYZ6S41TSV4RRFFQ69G5FAV", fields(d).get("ulid"));
    }

    @Test
    void ksuid() {
        // github.com/segmentio/ksuid README, "Inspect the components of a KSUID"
        DecodedId d = IdDecoder.decode("0ujtsYcgvSTl8PAuAdqWYSMnLOv");
        assertEquals("KSUID", d.kind());
        Map<String, String> f = fields(d);
        assertEquals("107608047", f.get("timestamp"));
        assertEquals("0x0669f7efb5a1cd34b5f99d1154fb6853345c9735", f.get("raw"));
        assertEquals("0xb5a1cd34b5f99d1154fb6853345c9735", f.get("payload"));
        assertEquals(Optional.of(Instant.parse("2017-10-10T04:00:47Z")), d.time(), "2017-10-09 21:00:47 -0700 PDT");
        // the README's second example
        assertEquals(Optional.of(Instant.parse("2017-10-10T04:46:20Z")), IdDecoder.decode("0ujzPyRiIAffKhBux4PvQdDqMHY").time());
        assertEquals("0x066a029c73fc1aa3b2446246d6e89fcd909e8fe8", fields(IdDecoder.decode("0ujzPyRiIAffKhBux4PvQdDqMHY")).get("raw"));
    }

    @Test
    void tsid() {
        // github.com/f4b6a3/tsid-creator TsidTest.testGetInstantMaximum: time 2^42 - 1 is
        // 2159-05-15T07:35:11.103Z; that time with the random bits 0 is FZZZZZZZW0000
        DecodedId d = IdDecoder.decode("FZZZZZZZW0000");
        assertEquals("TSID", d.kind());
        Map<String, String> f = fields(d);
        assertEquals(Long.toUnsignedString(((1L << 42) - 1) << 22), f.get("number"));
        assertEquals(Long.toString((1L << 42) - 1), f.get("timestamp"));
        assertEquals(Optional.of(Instant.parse("2159-05-15T07:35:11.103Z")), d.time());
        assertEquals("0", f.get("random"));
        // the README's own example: Tsid.from("0123456789ABC") has getTime() 9153062458,
        // getRandom() 305516 and getInstant() 2020-04-15T22:31:02.458Z
        DecodedId readme = IdDecoder.decode("0123456789ABC");
        assertEquals("9153062458", fields(readme).get("timestamp"));
        assertEquals("305516", fields(readme).get("random"));
        assertEquals(Optional.of(Instant.parse("2020-04-15T22:31:02.458Z")), readme.time());
        // ... and time 0 is the epoch, 2020-01-01T00:00:00Z (testGetInstantMinimum)
        assertEquals(Optional.of(Instant.parse("2020-01-01T00:00:00Z")),
                IdDecoder.readings("0000000000001", SnowflakeLayout.TWITTER, NOW).stream()
                        .filter(r -> r.id().kind().equals("TSID")).findFirst().orElseThrow().id().time());
    }

    @Test
    void mongoObjectId() {
        // MongoDB manual, ObjectId.getTimestamp(): 507c7f79bcf86cd7994f6c0e -> ISODate("2012-10-15T21:26:17Z")
        DecodedId d = IdDecoder.decode("507c7f79bcf86cd7994f6c0e");
        assertEquals("ObjectId", d.kind());
        assertEquals(Optional.of(Instant.parse("2012-10-15T21:26:17Z")), d.time());
        Map<String, String> f = fields(d);
        assertEquals("0xbcf86cd799", f.get("random"));
        assertEquals(Long.toString(0x4f6c0e), f.get("counter"));
        assertEquals(d.time(), IdDecoder.decode("507C7F79BCF86CD7994F6C0E").time(), "any case");
    }

    @Test
    void xid() {
        // github.com/rs/xid id_test.go: 9m4e2mr0ui3e8a215n4g is 4d88e15b60f486e428412dc9,
        // time 1300816219, machine 60f486, pid 0xe428, counter 4271561
        DecodedId d = IdDecoder.decode("9m4e2mr0ui3e8a215n4g");
        assertEquals("xid", d.kind());
        Map<String, String> f = fields(d);
        assertEquals("0x4d88e15b60f486e428412dc9", f.get("raw"));
        assertEquals(Optional.of(Instant.ofEpochSecond(1300816219)), d.time());
        assertEquals("0x60f486", f.get("machine"));
        assertEquals(Integer.toString(0xe428), f.get("pid"));
        assertEquals("4271561", f.get("counter"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // rs/xid id_test.go: padding bits set, and upper case, are invalid
        "c6e52g2mrqcjl44hf179|as an xid (20 base32hex characters 0-9a-v, lower case): last character '9' sets padding bits; an xid ends in 0 or g",
        "9M4E2MR0UI3E8A215N4G|as an xid (20 base32hex characters 0-9a-v, lower case): 'M' at index 1 is not a base32hex digit (0-9, a-v, lower case)",
        // ulid/spec: no U, and nothing above 7ZZZZZZZZZZZZZZZZZZZZZZZZZ
        "01ARYZ6S41TSV4RRFFQ69G5FAU|as a ULID (26 Crockford base32 characters): 'U' at index 25 is not a Crockford base32 digit",
        "80000000000000000000000000|as a ULID (26 Crockford base32 characters): first character '8' is above 7: the value would need more than 128 bits",
        // segmentio/ksuid: the largest KSUID is aWgEPTl1tmebfsQzFP4bxwgy80V
        "aWgEPTl1tmebfsQzFP4bxwgy80W|as a KSUID (27 base62 characters 0-9A-Za-z, at most aWgEPTl1tmebfsQzFP4bxwgy80V): the value needs more than 160 bits",
        "0ujtsYcgvSTl8PAuAdqWYSMnLO-|as a KSUID (27 base62 characters 0-9A-Za-z, at most aWgEPTl1tmebfsQzFP4bxwgy80V): '-' at index 26 is not a base62 digit",
        "G1226N0640J7Q|as a TSID (13 Crockford base32 characters, the first at most F): first character 'G' is above F: the value would need more than 64 bits",
        "507c7f79bcf86cd7994f6c0g|as a MongoDB ObjectId (24 hex digits): 'g' at index 23 is not a hex digit",
        "0x12345678901234567|as a hex Snowflake (0x and 1 to 16 hex digits, or exactly 16 hex digits): 17 hex digits; a Snowflake has 1 to 16",
        "0x|as a hex Snowflake (0x and 1 to 16 hex digits, or exactly 16 hex digits): 0 hex digits; a Snowflake has 1 to 16",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398g|as a UUID (8-4-4-4-12 hex digits, 32 hex digits, {braces} or urn:uuid:): 'g' at index 35 is not a hex digit",
        "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f|as a UUID (8-4-4-4-12 hex digits, 32 hex digits, {braces} or urn:uuid:): unbalanced braces",
        "urn:uuid:017f22e279b07cc398c4dc0c0c07398f|as a UUID (8-4-4-4-12 hex digits, 32 hex digits, {braces} or urn:uuid:): 32 characters after urn:uuid:; expected 36 (8-4-4-4-12)",
    })
    void aStringOfSomeFormatsShapeSaysWhatIsWrongWithIt(String input, String problem) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(input));
        assertEquals("'" + input + "' (" + input.length() + " characters) is not an ID: " + problem, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "not-an-id", "12x4", "-5", "+5", "1-1-1-1-1", "1.5", "0b101"})
    void anythingElseIsRefusedNamingEveryShapeAccepted(String input) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(input));
        assertEquals("'" + input + "' (" + input.length() + " characters) is not an ID: " + IdDecoder.EXPECTED,
                e.getMessage());
        assertTrue(e.getMessage().contains("ULID") && e.getMessage().contains("KSUID") && e.getMessage().contains("xid"));
    }

    @Test
    void controlCharactersAreEscapedAndLongInputCut() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdDecoder.decode("\u001b]0;pwned\u0007"));
        assertEquals("'\\u001b]0;pwned\\u0007' (10 characters) is not an ID: " + IdDecoder.EXPECTED, e.getMessage());
        assertFalse(e.getMessage().chars().anyMatch(c -> c < 0x20), e.getMessage());
        assertEquals("'\\u0661\\u0662\\u0663' (3 characters) is not an ID: " + IdDecoder.EXPECTED,
                assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode("١٢٣")).getMessage());
        String input = "z".repeat(200);
        e = assertThrows(IllegalArgumentException.class, () -> IdDecoder.decode(input));
        assertEquals("'" + "z".repeat(60) + "...' (200 characters) is not an ID: " + IdDecoder.EXPECTED, e.getMessage());
    }

    @Test
    void thirtyTwoDecimalDigitsAreAUuid() {
        DecodedUuid u = assertInstanceOf(DecodedUuid.class, IdDecoder.decode("12345678901234567890123456789012"));
        assertEquals(UuidForm.HEX, u.form());
        assertEquals(Uuids.parseHex("12345678901234567890123456789012"), u.info().uuid());
    }

    @Test
    void thirteenDigitsAreASnowflakeAndATsidAndBothAreListedWithTheirTimes() {
        List<Reading> r = IdDecoder.readings("0123456789012", SnowflakeLayout.TWITTER, NOW);
        assertEquals(List.of("Snowflake", "TSID"), r.stream().map(x -> x.id().kind()).toList());
        assertTrue(r.stream().allMatch(Reading::plausible));
        assertEquals(Optional.of(SnowflakeLayout.TWITTER.decode(123456789012L).timestamp()), r.get(0).id().time());
        assertEquals(Optional.of(Instant.parse("2020-01-01T00:00:00Z").plusMillis(
                dev.idgen.text.Crockford.parseLong("0123456789012") >>> 22)), r.get(1).id().time());
    }

    @Test
    void sixteenDigitsAreADecimalAndAHexSnowflakeThePlausibleOneFirst() {
        // as decimal under Twitter: 2010 + 70 hours; as hex 0x1541815603606036: 2020 (plausible too)
        List<Reading> r = IdDecoder.readings("1541815603606036", SnowflakeLayout.TWITTER, NOW);
        assertEquals(List.of("decimal, layout twitter", "hex, layout twitter"),
                r.stream().map(x -> x.id().readAs()).toList());
        // under Sonyflake, the hex reading is far in the future: the decimal one comes first, the hex
        // one says why it is implausible and which presets read it plausibly
        r = IdDecoder.readings("7541815603606036", SnowflakeLayout.SONYFLAKE, NOW);
        Reading hex = r.stream().filter(x -> x.id().readAs().startsWith("hex")).findFirst().orElseThrow();
        assertFalse(hex.plausible());
        assertEquals(r.get(r.size() - 1), hex);
        assertTrue(hex.warning().startsWith("time " + hex.id().time().orElseThrow() + " is in the future"), hex.warning());
        for (DecodedId alt : hex.alternatives()) {
            assertTrue(Reading.plausible(alt, NOW), alt.toString());
            assertTrue(alt.readAs().startsWith("hex, layout "), alt.readAs());
        }
    }

    @Test
    void twentyDigitsEndingInZeroAreASnowflakeAndAnXid() {
        List<Reading> r = IdDecoder.readings("12345678901234567890", SnowflakeLayout.DISCORD, NOW);
        assertEquals(List.of("Snowflake", "xid"), r.stream().map(x -> x.id().kind()).sorted().toList());
        // under Twitter the number is too large for a Snowflake: only the xid reading is left
        assertEquals("xid", IdDecoder.decode("12345678901234567890").kind());
    }

    @Test
    void aSnowflakeReadWithTheWrongLayoutIsImplausibleAndNamesTheLayoutsThatFit() {
        long id = 1541815603606036480L;   // a Twitter (X) post ID from 2022
        Reading r = IdDecoder.readings(Long.toString(id), SnowflakeLayout.SONYFLAKE, NOW).get(0);
        assertFalse(r.plausible());
        assertTrue(r.warning().contains("in the future: probably not a Snowflake read as decimal, layout sonyflake"),
                r.warning());
        List<String> names = r.alternatives().stream().map(DecodedId::readAs).toList();
        assertTrue(names.contains("decimal, layout twitter"), names.toString());
        for (SnowflakeLayout layout : SnowflakeLayout.presets()) {
            if (layout.maxId() < id) {
                assertFalse(names.contains("decimal, layout " + layout.name()), layout.name());
                continue;
            }
            boolean plausible = layout != SnowflakeLayout.SONYFLAKE
                    && !layout.decode(id).timestamp().isAfter(NOW.plus(Reading.FUTURE_SLACK));
            assertEquals(plausible, names.contains("decimal, layout " + layout.name()), layout.name());
        }
    }
}
