package dev.idgen.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.uuid.Uuids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrockfordTest {

    @Test
    void tsidCreatorsOwnVectors() {
        // github.com/f4b6a3/tsid-creator TsidTest: testFromString2 / testToString2 / testIsValid
        assertEquals("FZZZZZZZZZZZZ", Crockford.toString(0xffffffffffffffffL));
        assertEquals(0xffffffffffffffffL, Crockford.parseLong("FZZZZZZZZZZZZ"));
        assertEquals("000000000000A", Crockford.toString(10L));
        assertEquals(10L, Crockford.parseLong("000000000000a"));
        assertThrows(IllegalArgumentException.class, () -> Crockford.parseLong("G000000000000"));
        assertEquals(Crockford.parseLong("0123456789ABC"), Crockford.parseLong("0123456789AbC"));
        assertEquals(Crockford.parseLong("0123456789AB1"), Crockford.parseLong("0123456789ABi"));
        assertEquals(Crockford.parseLong("0123456789AB1"), Crockford.parseLong("0123456789ABl"));
        assertEquals(Crockford.parseLong("0123456789AB0"), Crockford.parseLong("0123456789ABo"));
        assertThrows(IllegalArgumentException.class, () -> Crockford.parseLong("0123456789ABu"));
        assertThrows(IllegalArgumentException.class, () -> Crockford.parseLong("0123456789AB#"));
    }

    @Test
    void ulidSpecMonotonicExampleIsOneApart() {
        // github.com/ulid/spec, "Monotonicity": two ULIDs of one millisecond, the second one more
        UUID a = Crockford.parseUuid("01BX5ZZKBKACTAV9WEVGEMMVRZ");
        UUID b = Crockford.parseUuid("01BX5ZZKBKACTAV9WEVGEMMVS0");
        assertEquals(a.getMostSignificantBits(), b.getMostSignificantBits());
        assertEquals(a.getLeastSignificantBits() + 1, b.getLeastSignificantBits());
        assertEquals("01BX5ZZKBKACTAV9WEVGEMMVS0", Crockford.toString(b));
    }

    @Test
    void edgesOfBothWidths() {
        assertEquals("0000000000000", Crockford.toString(0L));
        assertEquals("7ZZZZZZZZZZZZ", Crockford.toString(Long.MAX_VALUE));
        assertEquals("FZZZZZZZZZZZZ", Crockford.toString(-1L));
        assertEquals(-1L, Crockford.parseLong("FZZZZZZZZZZZZ"));
        assertEquals("00000000000000000000000000", Crockford.toString(Uuids.NIL));
        assertEquals("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", Crockford.toString(Uuids.MAX));
        assertEquals(Uuids.MAX, Crockford.parseUuid("7zzzzzzzzzzzzzzzzzzzzzzzzz"));
    }

    @Test
    void lookAlikesReadAsTheSpecAllows() {
        // crockford.com/base32.html: decoding reads I and L as 1 and O as 0, in either case
        assertEquals(Crockford.parseLong("0111111111000"), Crockford.parseLong("0IiLl11111Oo0"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "01226N0640J7|12 characters",
        "01226N0640J7QQ|14 characters",
        "01226N0640J7U|'U' at index 12 is not a Crockford base32 digit",
        "01226N0640-7Q|'-' at index 10 is not a Crockford base32 digit",
        "G1226N0640J7Q|first character 'G' is above F: the value would need more than 64 bits",
        "01226N0640J7\u00e9|'\\u00e9' at index 12 is not a Crockford base32 digit",
    })
    void longInputIsStrict(String input, String problem) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Crockford.parseLong(input));
        assertEquals("not a 13-character Crockford base32 value: " + Quote.of(input) + " (" + problem
                + "); expected " + Crockford.LONG_FORM, e.getMessage());
    }

    @Test
    void uuidInputRefusesOverflowInsteadOfWrapping() {
        // github.com/ulid/spec, "Overflow Errors when Parsing Base32 Strings": above 7ZZZ... is refused
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Crockford.parseUuid("80000000000000000000000000"));
        assertTrue(e.getMessage().contains("first character '8' is above 7: the value would need more than 128 bits"),
                e.getMessage());
    }

    @Test
    void textSortsAsTheIdsDo() {
        SplittableRandom random = new SplittableRandom(20261203L);
        List<Long> longs = new ArrayList<>(List.of(0L, 1L, 31L, 32L, Long.MAX_VALUE, Long.MIN_VALUE, -1L));
        List<UUID> uuids = new ArrayList<>(List.of(Uuids.NIL, Uuids.MAX, new UUID(0, -1L), new UUID(1, 0)));
        for (int i = 0; i < 2000; i++) {
            longs.add(random.nextLong() >>> random.nextInt(64));
            uuids.add(new UUID(random.nextLong() >>> random.nextInt(64), random.nextLong()));
        }
        List<Long> byValue = longs.stream().sorted(Long::compareUnsigned).toList();
        List<Long> byText = longs.stream().sorted(Comparator.comparing(Crockford::toString)).toList();
        assertEquals(byValue, byText);
        List<UUID> uuidsByValue = uuids.stream().sorted(Uuids.unsignedOrder()).toList();
        List<UUID> uuidsByText = uuids.stream().sorted(Comparator.comparing(u -> Crockford.toString(u))).toList();
        assertEquals(uuidsByValue, uuidsByText);
        for (int i = 0; i < longs.size(); i++) {
            assertEquals(longs.get(i), Crockford.parseLong(Crockford.toString(longs.get(i))));
            assertEquals(uuids.get(i % uuids.size()), Crockford.parseUuid(Crockford.toString(uuids.get(i % uuids.size()))));
        }
    }
}
