package dev.idgen.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class RandomSourceTest {

    private static final long SEED = 0x5EED_AE5L;

    /** AES-256 of one block, computed independently of the keystream under test. */
    private static byte[] aesBlock(byte[] key, byte[] block) throws Exception {
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        return ecb.doFinal(block);
    }

    /** The CTR keystream from {@code offset}: AES(key, iv + i) for block i, the counter a 128-bit big-endian number. */
    private static byte[] ctrStream(byte[] key, byte[] iv, int blocks) throws Exception {
        byte[] out = new byte[blocks * 16];
        byte[] counter = iv.clone();
        for (int b = 0; b < blocks; b++) {
            System.arraycopy(aesBlock(key, counter), 0, out, b * 16, 16);
            for (int i = 15; i >= 0 && ++counter[i] == 0; i--) {
                // carry into the next byte
            }
        }
        return out;
    }

    @Test
    void keystreamIsAesCtrAndMixesFreshBytesIntoEachKeyEverySixteenRefills() throws Exception {
        AesCtrKeystream stream = new AesCtrKeystream(new ScriptedEntropy(SEED));
        int size = StripedRandom.BUFFER_BYTES;
        int refills = AesCtrKeystream.REFILLS_PER_KEY;
        byte[] handedOut = new byte[size * (refills + 1)];
        byte[] buffer = new byte[size];
        for (int i = 0; i <= refills; i++) {
            stream.fill(buffer);
            System.arraycopy(buffer, 0, handedOut, i * size, size);
        }
        // the same entropy, drawn again by the test: the first key, then the bytes mixed into the second
        ScriptedEntropy entropy = new ScriptedEntropy(SEED);
        byte[] firstKey = new byte[AesCtrKeystream.KEY_BYTES];
        byte[] mixedIn = new byte[AesCtrKeystream.KEY_BYTES];
        entropy.nextBytes(firstKey);
        entropy.nextBytes(mixedIn);
        byte[] zeroCounter = new byte[16];
        byte[] underFirstKey = ctrStream(firstKey, zeroCounter, (size * refills + 32) / 16);
        assertArrayEquals(Arrays.copyOf(underFirstKey, size * refills), Arrays.copyOf(handedOut, size * refills),
                "seed " + SEED + ": the first 16 refills are AES-256-CTR from counter 0 under the first fresh key");
        byte[] nextKey = Arrays.copyOfRange(underFirstKey, size * refills, size * refills + 32);
        for (int i = 0; i < nextKey.length; i++) {
            nextKey[i] ^= mixedIn[i];
        }
        assertArrayEquals(ctrStream(nextKey, zeroCounter, size / 16), Arrays.copyOfRange(handedOut, size * refills, size * (refills + 1)),
                "seed " + SEED + ": the next key is the next 32 bytes, never handed out, XOR 32 fresh bytes");
    }

    @Test
    void stripedSourceHandsOutTheRefillBytesOnceEachInOrder() {
        // one stripe refilled with a counting pattern: longs 0, 1, 2, ... in native byte order, each
        // XOR the monotonic clock's reading at the start of its 64-long block (a stand-still clock here)
        long[] next = {0};
        FixedClocks clocks = new FixedClocks();
        long stamp = clocks.monotonicNanos;
        StripedRandom counting = new StripedRandom(1, () -> buffer -> {
            ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
            while (b.hasRemaining()) {
                b.putLong(next[0]++);
            }
        }, clocks.guard(), "counting");
        for (long i = 0; i < 3 * StripedRandom.BUFFER_BYTES / 8; i += 3) {
            assertEquals(i ^ stamp, counting.nextLong());
            long[] pair = counting.nextTwoLongs((a, b) -> new long[] {a ^ stamp, b ^ stamp});
            assertArrayEquals(new long[] {i + 1, i + 2}, pair);
        }
    }

    @Test
    void aFailingRefillReleasesTheStripe() {
        int[] calls = {0};
        StripedRandom flaky = new StripedRandom(1, () -> buffer -> {
            if (calls[0]++ == 0) {
                throw new IllegalStateException("refill failed");
            }
            Arrays.fill(buffer, (byte) 7);
        }, new FixedClocks().guard(), "flaky");
        assertThrows(IllegalStateException.class, flaky::nextLong);
        assertEquals(0x0707070707070707L ^ new FixedClocks().monotonicNanos, flaky.nextLong(),
                "the single stripe was given back");
    }

    @Test
    void stripeCountIsAPowerOfTwoFromTwoToSixtyFour() {
        assertEquals(2, StripedRandom.stripesFor(1));
        assertEquals(4, StripedRandom.stripesFor(2));
        assertEquals(8, StripedRandom.stripesFor(3));
        assertEquals(16, StripedRandom.stripesFor(8));
        assertEquals(64, StripedRandom.stripesFor(32));
        assertEquals(64, StripedRandom.stripesFor(1000));
        assertThrows(IllegalArgumentException.class, () -> new StripedRandom(3, () -> b -> { }, new FixedClocks().guard(), "bad"));
    }

    @Test
    void secureIsOneSharedInstanceAndNamesItsDesign() {
        assertSame(RandomSource.secure(), RandomSource.secure());
        assertTrue(RandomSource.secure().toString().startsWith("RandomSource.secure() ("), RandomSource.secure().toString());
        assertTrue(RandomSource.threadLocalRandom().toString().contains("guessable"));
        assertTrue(RandomSource.seeded(1).toString().contains("guessable"));
    }

    @Test
    void seededSourceIsReproducibleAndSeedsDiffer() {
        RandomSource a = RandomSource.seeded(SEED);
        RandomSource b = RandomSource.seeded(SEED);
        RandomSource c = RandomSource.seeded(SEED + 1);
        long[] fromA = new long[100];
        long[] fromB = new long[100];
        long[] fromC = new long[100];
        for (int i = 0; i < 100; i++) {
            fromA[i] = a.nextLong();
            fromB[i] = b.nextLong();
            fromC[i] = c.nextLong();
        }
        assertArrayEquals(fromA, fromB, "seed " + SEED);
        assertNotEquals(Arrays.toString(fromA), Arrays.toString(fromC));
    }

    @Test
    void manyThreadsNeverGetTheSameBitsTwice() throws Exception {
        List<RandomSource> sources = List.of(RandomSource.secure(), RandomSource.from(new SecureRandom()),
                new StripedRandom(2, () -> new AesCtrKeystream(new SecureRandom()), SnapshotGuard.jvm(), "two stripes"));
        for (RandomSource source : sources) {
            int threads = 4;
            int perThread = 99_999;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Callable<long[]>> tasks = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    tasks.add(() -> {
                        long[] mine = new long[perThread];
                        for (int i = 0; i < perThread; i += 3) {
                            mine[i] = source.nextLong();
                            long[] pair = source.nextTwoLongs((x, y) -> new long[] {x, y});
                            mine[i + 1] = pair[0];
                            mine[i + 2] = pair[1];
                        }
                        return mine;
                    });
                }
                Set<Long> all = new HashSet<>();
                for (Future<long[]> f : pool.invokeAll(tasks)) {
                    for (long v : f.get()) {
                        all.add(v);
                    }
                }
                // about 400,000 draws of 64 bits: a repeat by chance has probability about 4e-9
                assertEquals(threads * perThread, all.size(), source + " repeated bits");
            } finally {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
            }
        }
    }
}
