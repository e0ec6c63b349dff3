package dev.idgen.snowflake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.IdGenerators;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** Several threads, 1.6 million IDs, the real clock: no duplicate, no decrease within a thread. */
class SnowflakeGeneratorConcurrencyTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 400_000;

    @Test
    void manyThreadsNeverSeeADuplicateOrADecrease() throws Exception {
        SnowflakeGenerator ids = IdGenerators.snowflake(5);
        long[][] results = new long[THREADS][PER_THREAD];
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long[] out = results[t];
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < PER_THREAD; i++) {
                        out[i] = ids.nextLong();
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(), failures);
        for (int t = 0; t < THREADS; t++) {
            for (int i = 1; i < PER_THREAD; i++) {
                assertTrue(results[t][i] > results[t][i - 1],
                        "thread " + t + " index " + i + ": " + results[t][i] + " after " + results[t][i - 1]);
            }
        }
        long[] all = Arrays.stream(results).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            assertTrue(all[i] != all[i - 1], "duplicate " + all[i]);
        }
        assertEquals(5, ids.decode(all[0]).machineId());
    }
}
