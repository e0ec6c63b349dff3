package dev.idgen.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BusinessNumberFormat.Builder#pattern(String)}: one grammar for writing and reading. */
class BusinessNumberPatternTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            INV-yyyyMMdd-NNNNNN | INV  | -  | DAY   | 6  | INV-20261203-000042
            ORD/yyyyMM/NNNN     | ORD  | /  | MONTH | 4  | ORD/202612/0042
            yyyy-NNN            | ''   | -  | YEAR  | 3  | 2026-042
            POyyyyMMddNN        | PO   | '' | DAY   | 2  | PO2026120342
            A_B::yyyy::N        | A_B  | :: | YEAR  | 1  | A_B::2026::0
            yyyyMMNNNNNNNNNNNNNNNNNN | '' | '' | MONTH | 18 | 202612000000000000000042
            """)
    void readsEachPartOfAPattern(String pattern, String prefix, String separator, DateGroup group, int width,
            String example) {
        BusinessNumberFormat f = BusinessNumberFormat.builder().pattern(pattern).build();
        BusinessNumberFormat byParts = BusinessNumberFormat.builder().prefix(prefix).separator(separator).group(group)
                .width(width).build();
        assertEquals(pattern, f.pattern());
        assertEquals(byParts.pattern(), f.pattern(), "the same format as built part by part");
        assertEquals(prefix, f.prefix());
        assertEquals(group, f.group());
        assertEquals(width == 18 ? 999_999_999_999_999_999L : (long) Math.pow(10, width) - 1, f.maxCounter());
        if (!example.endsWith("0")) {
            assertEquals(example, f.format(LocalDate.of(2026, 12, 3), 42));
        }
    }

    @Test
    void formatThenParseGivesTheSamePartsAndParseThenFormatTheSameText() {
        Random random = new Random(23);
        String[] patterns = {"INV-yyyyMMdd-NNNNNN", "ORD/yyyyMM/NNNN", "yyyy-NNN", "POyyyyMMddNN", "X.yyyy.NNNNNNNNN"};
        for (String pattern : patterns) {
            BusinessNumberFormat f = BusinessNumberFormat.builder().pattern(pattern).build();
            for (int i = 0; i < 500; i++) {
                LocalDate day = LocalDate.of(1 + random.nextInt(9999), 1, 1).plusDays(random.nextInt(365));
                long counter = 1 + (long) (random.nextDouble() * f.maxCounter());
                String text = f.format(day, counter);
                BusinessNumber n = f.parse(text);
                assertEquals(f.group().start(day), n.date(), text);
                assertEquals(counter, n.counter(), text);
                assertEquals(f.prefix(), n.prefix(), text);
                assertEquals(text, f.format(n.date(), n.counter()), "written again the same");
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            INV-yyyyMMdd-       | it must end in 1 to 18 N for the counter, found 0
            INV-yyyyMMdd-NNNNNNNNNNNNNNNNNNN | found 19
            INV-20261203-NNNNNN | it has no date yyyyMMdd, yyyyMM or yyyy before the counter
            INV/yyyyMMdd-NNNNNN | the prefix 'INV/' must be followed by the same separator '-' as the date
            -yyyyMMdd-NNNNNN    | the prefix '-' must be followed by the same separator '-' as the date
            INV1yyyyMMdd1NNNNNN | separator '1' must hold no digit
            IN V-yyyy-NN        | must be 0 to 32 printable ASCII characters without spaces
            """)
    void refusesAnotherShapeNamingThePatternAndTheGrammar(String pattern, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BusinessNumberFormat.builder().pattern(pattern));
        assertTrue(e.getMessage().startsWith("business number pattern '" + pattern + "' cannot be read: "),
                e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertTrue(e.getMessage().endsWith("allowed: [PREFIX SEP] yyyyMMdd|yyyyMM|yyyy SEP N..., e.g."
                + " INV-yyyyMMdd-NNNNNN"), e.getMessage());
    }

    @Test
    void aNumberOfAnotherPatternIsRefusedNamingThePattern() {
        BusinessNumberFormat f = BusinessNumberFormat.builder().pattern("INV-yyyyMMdd-NNNNNN").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.parse("INV-202612-000042"));
        assertTrue(e.getMessage().contains("INV-yyyyMMdd-NNNNNN") && e.getMessage().contains("INV-202612-000042"),
                e.getMessage());
    }

    @Test
    void partsWhosePatternReadsAsOtherPartsAreRefusedNamingBoth() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BusinessNumberFormat.builder().prefix("INV").separator("N").width(6).build());
        assertEquals("prefix 'INV', separator 'N', day group, width 6 write pattern 'INVNyyyyMMddNNNNNNN', which reads"
                + " back as prefix 'INVN', separator '', day group, width 7, so numbers written could not be read;"
                + " choose a separator without N, y, M or d", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> BusinessNumberFormat.builder().separator("MM").group(DateGroup.YEAR).build());
    }

    /**
     * Every format that builds writes numbers that its pattern, read again as {@code idgen decode
     * --pattern} reads it, parses back to the same parts: prefixes and separators drawn from the
     * letters of the pattern grammar (N, y, M, d), digits and punctuation.
     */
    @Test
    void everyNumberAFormatWritesIsReadByItsPattern() {
        Random random = new Random(33);
        String letters = "NyMdA0-/.9";
        int built = 0;
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            String prefix = draw(random, letters, random.nextInt(4));
            String separator = draw(random, letters.replaceAll("[0-9]", ""), random.nextInt(3));
            DateGroup group = DateGroup.values()[random.nextInt(3)];
            int width = 1 + random.nextInt(BusinessNumberFormat.MAX_WIDTH);
            BusinessNumberFormat f;
            try {
                f = BusinessNumberFormat.builder().prefix(prefix).separator(separator).group(group).width(width).build();
            } catch (IllegalArgumentException e) {
                refused++;
                continue;
            }
            built++;
            BusinessNumberFormat read = BusinessNumberFormat.builder().pattern(f.pattern()).build();
            LocalDate day = LocalDate.of(1 + random.nextInt(9999), 1, 1).plusDays(random.nextInt(365));
            long counter = 1 + (long) (random.nextDouble() * f.maxCounter());
            String text = f.format(day, counter);
            BusinessNumber n = read.parse(text);
            assertEquals(counter, n.counter(), text + " of " + f.pattern());
            assertEquals(group.start(day), n.date(), text + " of " + f.pattern());
            assertEquals(prefix, n.prefix(), text + " of " + f.pattern());
        }
        assertTrue(built > 1000 && refused > 100, built + " built, " + refused + " refused: the draw must reach both");
    }

    private static String draw(Random random, String alphabet, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }
}
