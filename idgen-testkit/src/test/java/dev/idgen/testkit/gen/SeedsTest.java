package dev.idgen.testkit.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SeedsTest {

    @Test
    void runsEveryCaseWithItsOwnSeed() {
        List<Long> firsts = new ArrayList<>();
        Seeds.forEach(1, 50, random -> firsts.add(random.nextLong()));
        assertEquals(50, firsts.size());
        assertEquals(50, firsts.stream().distinct().count());
        List<Long> again = new ArrayList<>();
        Seeds.forEach(1, 50, random -> again.add(random.nextLong()));
        assertEquals(firsts, again, "same base seed, same cases");
    }

    @Test
    void aFailureNamesTheSeedThatReplaysIt() {
        AssertionError e = assertThrows(AssertionError.class, () -> Seeds.forEach(7, 1000, random -> {
            if (random.nextInt(10) == 0) {
                throw new IllegalStateException("found it");
            }
        }));
        Matcher m = Pattern.compile("case (\\d+) of 1000 failed; replay with seed 0x([0-9a-f]+) \\(base seed 0x7\\): found it")
                .matcher(e.getMessage());
        assertTrue(m.matches(), e.getMessage());
        assertTrue(e.getCause() instanceof IllegalStateException);
        long seed = Long.parseUnsignedLong(m.group(2), 16);
        AssertionError replayed = assertThrows(AssertionError.class, () -> Seeds.replay(seed, random -> {
            if (random.nextInt(10) == 0) {
                throw new IllegalStateException("found it");
            }
        }));
        assertEquals("seed 0x" + m.group(2) + " failed: found it", replayed.getMessage());
    }

    @Test
    void theSystemPropertyOverridesTheBaseSeed() {
        String before = System.getProperty(Seeds.SEED_PROPERTY);
        try {
            System.setProperty(Seeds.SEED_PROPERTY, "0x2a");
            assertEquals(42, Seeds.baseSeed(1));
            System.setProperty(Seeds.SEED_PROPERTY, "-5");
            assertEquals(-5, Seeds.baseSeed(1));
            System.setProperty(Seeds.SEED_PROPERTY, "nope");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Seeds.baseSeed(1));
            assertTrue(e.getMessage().contains("idgen.seed=nope"), e.getMessage());
            System.clearProperty(Seeds.SEED_PROPERTY);
            assertEquals(1, Seeds.baseSeed(1));
        } finally {
            if (before == null) {
                System.clearProperty(Seeds.SEED_PROPERTY);
            } else {
                System.setProperty(Seeds.SEED_PROPERTY, before);
            }
        }
    }
}
