package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UuidsTest {

    private static final long SEED = 0x9562_2024_0007L;
    private static final int CASES = 20_000;

    /** Seeded UUIDs with the edge values mixed in: all zero, all one, sign bits set and clear. */
    static List<UUID> sample(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] edges = {0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L, 0x8000_0000_0000_0001L};
        List<UUID> out = new ArrayList<>();
        for (long a : edges) {
            for (long b : edges) {
                out.add(new UUID(a, b));
            }
        }
        while (out.size() < count) {
            long msb = random.nextLong();
            long lsb = random.nextLong();
            // a quarter share their high half with the one before, so the low half decides the order
            if (random.nextInt(4) == 0) {
                msb = out.get(out.size() - 1).getMostSignificantBits();
            }
            out.add(new UUID(msb, lsb));
        }
        return out;
    }

    @Test
    void parsesTheCanonicalFormInAnyCase() {
        UUID expected = new UUID(0x017F22E279B07CC3L, 0x98C4DC0C0C07398FL);
        assertEquals(expected, Uuids.parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
        assertEquals(expected, Uuids.parse("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"));
        assertEquals(expected, Uuids.parse(new StringBuilder("017f22E2-79b0-7CC3-98c4-Dc0c0C07398f")));
        assertEquals(expected, Uuids.parseHex("017F22E279b07cc398c4dc0c0c07398f"));
        assertEquals(Uuids.NIL, Uuids.parse("00000000-0000-0000-0000-000000000000"));
        assertEquals(Uuids.MAX, Uuids.parse("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"));
    }

    @Test
    void textRoundTripsAndMatchesTheJdkInLowerCase() {
        for (UUID u : sample(SEED, CASES)) {
            String text = Uuids.toString(u);
            String why = "seed " + SEED + ", uuid " + u;
            long msb = u.getMostSignificantBits();
            long lsb = u.getLeastSignificantBits();
            // written out field by field, independently of UUID.toString
            String expected = String.format("%08x-%04x-%04x-%04x-%012x", msb >>> 32, msb >>> 16 & 0xFFFF,
                    msb & 0xFFFF, lsb >>> 48, lsb & 0xFFFF_FFFF_FFFFL);
            assertEquals(expected, text, why);
            assertEquals(u, Uuids.parse(text), why);
            assertEquals(u, Uuids.parse(text.toUpperCase(java.util.Locale.ROOT)), why);
            String hex = Uuids.toHex(u);
            assertEquals(text.replace("-", ""), hex, why);
            assertEquals(u, Uuids.parseHex(hex), why);
        }
    }

    @Test
    void bytesAreBigEndianAndRoundTrip() {
        UUID rfc = Uuids.parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
        assertArrayEquals(new byte[] {0x01, 0x7f, 0x22, (byte) 0xe2, 0x79, (byte) 0xb0, 0x7c, (byte) 0xc3,
            (byte) 0x98, (byte) 0xc4, (byte) 0xdc, 0x0c, 0x0c, 0x07, 0x39, (byte) 0x8f}, Uuids.toBytes(rfc));
        for (UUID u : sample(SEED + 1, CASES)) {
            byte[] bytes = Uuids.toBytes(u);
            assertEquals(16, bytes.length);
            assertEquals(u, Uuids.fromBytes(bytes), "seed " + (SEED + 1) + ", uuid " + u);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 15, 17, 32})
    void fromBytesRefusesOtherLengths(int length) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Uuids.fromBytes(new byte[length]));
        assertEquals("a UUID is 16 bytes, got " + length, e.getMessage());
    }

    @Test
    void unsignedOrderAgreesWithComparingTheSixteenBytes() {
        List<UUID> sample = sample(SEED + 2, 4_000);
        for (int i = 1; i < sample.size(); i++) {
            UUID a = sample.get(i - 1);
            UUID b = sample.get(i);
            int bytes = Integer.signum(Arrays.compareUnsigned(Uuids.toBytes(a), Uuids.toBytes(b)));
            String why = "seed " + (SEED + 2) + ": " + a + " vs " + b;
            assertEquals(bytes, Integer.signum(Uuids.unsignedOrder().compare(a, b)), why);
            assertEquals(-bytes, Integer.signum(Uuids.unsignedOrder().compare(b, a)), why);
            assertEquals(bytes, Integer.signum(Uuids.toString(a).compareTo(Uuids.toString(b))), why);
        }
        for (UUID u : sample) {
            assertEquals(0, Uuids.unsignedOrder().compare(u, new UUID(u.getMostSignificantBits(),
                    u.getLeastSignificantBits())));
        }
    }

    @Test
    void unsignedOrderPutsNilFirstWhereUuidCompareToDoesNot() {
        assertTrue(Uuids.unsignedOrder().compare(Uuids.NIL, Uuids.MAX) < 0);
        assertTrue(Uuids.MAX.compareTo(Uuids.NIL) < 0, "UUID.compareTo compares signed halves");
    }

    /** Each bad string with the reason the message must give. */
    @ParameterizedTest
    @ValueSource(strings = {
        "1-1-1-1-1|9 characters",
        "|0 characters",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398|35 characters",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f0|37 characters",
        "017f22e279b07cc398c4dc0c0c07398f|32 characters",
        "{017f22e2-79b0-7cc3-98c4-dc0c0c0739}|'{' at index 0 is not a hex digit",
        "017f22e2079b0-7cc3-98c4-dc0c0c07398f|expected '-' at index 8, found '0'",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398g|'g' at index 35 is not a hex digit",
        "017f22e2-79b0-7cc3-98c4-dc0c0c0739 f|' ' at index 34 is not a hex digit",
        "+17f22e2-79b0-7cc3-98c4-dc0c0c07398f|'+' at index 0 is not a hex digit",
        " 17f22e2-79b0-7cc3-98c4-dc0c0c07398f|' ' at index 0 is not a hex digit",
        "017f22e2-79b0-7cc3-98c4dc0c-0c07398f|expected '-' at index 23, found 'd'",
        "017f22e2-79b0-7cc-398c4-dc0c0c07398f|'-' at index 17 is not a hex digit",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398\u00e9|'\\u00e9' at index 35 is not a hex digit",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398\uff10|'\\uff10' at index 35 is not a hex digit",
    })
    void rejectsBadStringsSayingWhatIsWrongAndWhatIsExpected(String testCase) {
        String input = testCase.substring(0, testCase.indexOf('|'));
        String reason = testCase.substring(testCase.indexOf('|') + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Uuids.parse(input));
        assertEquals("not a UUID: " + dev.idgen.text.Quote.of(input) + " (" + reason + "); expected " + Uuids.CANONICAL_FORM,
                e.getMessage());
        assertTrue(e.getMessage().contains("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"), e.getMessage());
    }

    @Test
    void theJdkAcceptsWhatParseRejects() {
        assertEquals(new UUID(1L << 32 | 1L << 16 | 1, 1L << 48 | 1), UUID.fromString("1-1-1-1-1"));
        assertThrows(IllegalArgumentException.class, () -> Uuids.parse("1-1-1-1-1"));
    }

    @Test
    void messageQuotesTheInputAndCutsItWhenLong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Uuids.parse("1-1-1-1-1"));
        assertEquals("not a UUID: '1-1-1-1-1' (9 characters); expected the 36-character form "
                + "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex digits 0-9, a-f or A-F, hyphens at positions "
                + "8, 13, 18 and 23)", e.getMessage());
        String longInput = "a".repeat(500);
        e = assertThrows(IllegalArgumentException.class, () -> Uuids.parse(longInput));
        assertTrue(e.getMessage().startsWith("not a UUID: '" + "a".repeat(60) + "...' (500 characters); expected"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Uuids.parse("it's\n"));
        assertTrue(e.getMessage().startsWith("not a UUID: 'it\\u0027s\\u000a' (5 characters)"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "017f22e279b07cc398c4dc0c0c07398", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})
    void parseHexTakesOnlyThirtyTwoHexDigits(String input) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Uuids.parseHex(input));
        assertTrue(e.getMessage().startsWith("not a UUID: '" + input + "' ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("expected 32 hex digits without hyphens (0-9, a-f or A-F)"), e.getMessage());
    }

    @Test
    void nullIsRefusedByName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Uuids.parse(null));
        assertEquals("text", e.getMessage());
    }
}
