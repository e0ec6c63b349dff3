package dev.idgen.uuid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.idgen.IdGenerators;
import dev.idgen.random.RandomSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV4GeneratorTest {

    private static final long SEED = 0x5EED_0004L;

    @Test
    void everyUuidHasVersionFourTheRfcVariantAndIsNew() {
        UuidV4Generator ids = IdGenerators.uuidV4();
        assertEquals(RandomSource.secure(), ids.randomness());
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            UUID u = ids.next();
            if (u.version() != 4 || u.variant() != 2 || Uuids.decode(u).variant() != UuidVariant.RFC_9562) {
                fail("call " + i + ": " + u);
            }
            if (!seen.add(u)) {
                fail("call " + i + ": duplicate " + u);
            }
        }
    }

    /** Each of the 122 random bits is set in about half the UUIDs: 20,000 draws put it within 45 % to 55 %. */
    @Test
    void theRandomBitsAreAllUsed() {
        for (RandomSource source : List.of(RandomSource.secure(), RandomSource.seeded(SEED), RandomSource.threadLocalRandom())) {
            UuidV4Generator ids = UuidV4Generator.builder().randomness(source).build();
            int[] ones = new int[128];
            int n = 20_000;
            for (int i = 0; i < n; i++) {
                UUID u = ids.next();
                for (int bit = 0; bit < 64; bit++) {
                    ones[bit] += (int) (u.getMostSignificantBits() >>> (63 - bit)) & 1;
                    ones[64 + bit] += (int) (u.getLeastSignificantBits() >>> (63 - bit)) & 1;
                }
            }
            for (int bit = 0; bit < 128; bit++) {
                boolean fixed = (bit >= 48 && bit < 52) || bit == 64 || bit == 65;
                if (fixed) {
                    continue;
                }
                assertTrue(ones[bit] > 0.45 * n && ones[bit] < 0.55 * n,
                        source + ": bit " + bit + " set in " + ones[bit] + " of " + n);
            }
            // version 0100 and variant 10 in every one
            assertEquals(List.of(0, n, 0, 0, n, 0), List.of(ones[48], ones[49], ones[50], ones[51], ones[64], ones[65]));
        }
    }

    @Test
    void aSeededSourceGivesTheSameUuids() {
        List<UUID> first = new ArrayList<>();
        List<UUID> second = new ArrayList<>();
        for (List<UUID> out : List.of(first, second)) {
            UuidV4Generator ids = UuidV4Generator.builder().randomness(RandomSource.seeded(SEED)).build();
            for (int i = 0; i < 100; i++) {
                out.add(ids.next());
            }
        }
        assertEquals(first, second, "seed " + SEED);
    }
}
